package dev.horae.gate;

import java.util.Optional;
import java.util.function.Function;

/** Looks enum constants up by their JSON wire name, for the gate's closed vocabularies. */
public final class WireNames {

  private WireNames() {}

  /**
   * Finds the constant whose wire name is {@code wireName}.
   *
   * @param values the enum's constants
   * @param nameOf the wire name of a constant
   * @param wireName the name to look up
   * @param <E> the enum type
   * @return the constant, or empty when no constant has that name
   */
  public static <E extends Enum<E>> Optional<E> find(E[] values, Function<E, String> nameOf, String wireName) {
    for (E e : values) {
      if (nameOf.apply(e).equals(wireName)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }
}

package dev.horae.spi.invariant;

/** The {@code fail(message)} function an installer receives. */
@FunctionalInterface
public interface InvariantFail {

  /**
   * Makes the violation to throw.
   *
   * @param message the companion's message
   * @return the violation, prefixed with the owner name
   */
  InvariantViolation fail(String message);
}

package dev.horae.spi.zone;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.json.EcmaJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The client-zone derivation (time-context spec §9): the zones the prompts of a turn carry, as
 * the host admitted them (host contract §7.3). One rule for the three-line reading, the
 * time-context invariant and the {@link TimeContextAuthority} that Schedule's implicit zone
 * reads.
 *
 * <p>Pure and thread-safe.
 */
public final class ClientZones {

  private ClientZones() {}

  /**
   * The zone a message contributes, if any: only a source with {@code kind: "user"}, a string
   * {@code rpcId} and a string {@code clientTimeZone} contributes. Plugin messages and plain user
   * messages never do.
   *
   * @param message a message in the {@code user/message} data shape (only {@code source} is read)
   * @return the raw {@code clientTimeZone}, or empty when the message does not contribute
   */
  public static Optional<String> contributedZone(JsonNode message) {
    JsonNode source = message.path("source");
    if (source.path("kind").isTextual()
        && source.path("kind").textValue().equals("user")
        && source.path("rpcId").isTextual()
        && source.path("clientTimeZone").isTextual()) {
      return Optional.of(source.path("clientTimeZone").textValue());
    }
    return Optional.empty();
  }

  /**
   * Derives the client zones of a list of user messages.
   *
   * @param messages messages in the {@code user/message} data shape, in log order
   * @return the distinct zones sorted by UTF-16 code units: none, one, or several that disagree
   * @throws ClientZoneException when a contributed zone is malformed, unknown or not canonical
   */
  public static List<String> derive(List<? extends JsonNode> messages) {
    List<String> values = new ArrayList<>();
    for (JsonNode message : messages) {
      contributedZone(message).ifPresent(values::add);
    }
    return classify(values);
  }

  /**
   * Validates contributed zone values in order, then removes duplicates and sorts them. Every
   * value is validated before anything is classified, so one bad value fails the whole
   * derivation even when the turn would be mixed.
   *
   * @param values raw {@code clientTimeZone} values in log order (duplicates allowed)
   * @return the distinct zones sorted by UTF-16 code units
   * @throws ClientZoneException for the first value that is malformed, unknown or not canonical
   */
  public static List<String> classify(Iterable<String> values) {
    TreeSet<String> zones = new TreeSet<>();
    for (String value : values) {
      zones.add(validate(value));
    }
    return List.copyOf(zones);
  }

  /**
   * Checks one recorded zone: the shape rule, then the resolver, then canonical spelling. A host
   * that admitted the prompt with {@code PromptAdmission} stored the canonical name, so in a
   * conforming host this never fails.
   */
  private static String validate(String value) {
    if (!ZoneResolver.hasAcceptedShape(value)) {
      throw new ClientZoneException(
          "browser time zone must be canonical UTC or IANA Area/Location: " + EcmaJson.string(value));
    }
    Optional<String> canonical = ZoneResolver.standard().canonicalName(value);
    if (canonical.isEmpty()) {
      throw new ClientZoneException("browser time zone is unsupported: " + EcmaJson.string(value));
    }
    if (!canonical.get().equals(value)) {
      throw new ClientZoneException("browser time zone must be canonical: " + EcmaJson.string(value));
    }
    return value;
  }
}

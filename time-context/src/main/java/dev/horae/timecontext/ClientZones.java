package dev.horae.timecontext;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.zone.ZoneResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The client-zone derivation of spec §9, shared by the three-line reading, the invariant rules and
 * the time-context authority.
 *
 * <p>Pure and thread-safe.
 */
public final class ClientZones {

  private ClientZones() {}

  /**
   * Derives the client-zone context of a list of user messages.
   *
   * <p>Conformance function {@code timecontext.clientZones}. A message contributes only when its
   * source has {@code kind: "user"}, a string {@code rpcId} and a string {@code clientTimeZone}.
   * Every contributed value is validated before the result is classified.
   *
   * @param messages user messages in the {@code user/message} data shape (only {@code source} is
   *     read)
   * @return missing, resolved or mixed
   * @throws ClientZoneException when a contributed zone is malformed, unknown or not canonical
   */
  public static ClientZoneContext derive(List<? extends JsonNode> messages) {
    List<String> values = new ArrayList<>();
    for (JsonNode message : messages) {
      contributedZone(message).ifPresent(values::add);
    }
    return classify(values);
  }

  /**
   * The zone a message contributes to the derivation, if any.
   *
   * @param message a message in the {@code user/message} data shape
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
   * Validates contributed zone values in order, then classifies them.
   *
   * @param values raw {@code clientTimeZone} values in log order (duplicates allowed)
   * @return missing, resolved or mixed
   * @throws ClientZoneException for the first value that is malformed, unknown or not canonical
   */
  public static ClientZoneContext classify(Iterable<String> values) {
    TreeSet<String> zones = new TreeSet<>();
    for (String value : values) {
      zones.add(validate(value));
    }
    return switch (zones.size()) {
      case 0 -> ClientZoneContext.MISSING;
      case 1 -> new ClientZoneContext.Resolved(zones.first());
      default -> new ClientZoneContext.Mixed(List.copyOf(zones));
    };
  }

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

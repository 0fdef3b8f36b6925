package dev.horae.schedule.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.zone.ZoneResolver;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The client-zone derivation of time-context spec §9, as Schedule's implicit-zone rule needs it:
 * the canonical zones carried by user prompts, or empty when a recorded zone is malformed,
 * unknown or not canonical (the derivation failed, so the client authority counts as missing).
 */
public final class ClientZones {

  private ClientZones() {}

  /**
   * Derives the client zones of a list of {@code user/message} payloads.
   *
   * @param messages user message payloads, in log order
   * @param resolver the zone resolver
   * @return the de-duplicated zones sorted by UTF-16 code unit (possibly none), or empty when the
   *     derivation fails
   */
  public static Optional<List<String>> derive(List<JsonNode> messages, ZoneResolver resolver) {
    TreeSet<String> zones = new TreeSet<>();
    for (JsonNode message : messages) {
      JsonNode source = message.path("source");
      if (!source.isObject()
          || !"user".equals(textOrNull(source.get("kind")))
          || !isText(source.get("rpcId"))
          || !isText(source.get("clientTimeZone"))) {
        continue;
      }
      String zone = source.get("clientTimeZone").textValue();
      if (!ZoneResolver.hasAcceptedShape(zone) || !resolver.isCanonical(zone)) {
        return Optional.empty();
      }
      zones.add(zone);
    }
    return Optional.of(List.copyOf(zones));
  }

  private static boolean isText(JsonNode node) {
    return node != null && node.isTextual();
  }

  private static String textOrNull(JsonNode node) {
    return node != null && node.isTextual() ? node.textValue() : "";
  }
}

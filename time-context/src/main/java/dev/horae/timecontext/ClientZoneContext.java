package dev.horae.timecontext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.session.Json;
import dev.horae.spi.zone.ClientZones;
import java.util.List;
import java.util.Objects;

/**
 * The client zones of a turn (spec §9) as the three-line reading words them: none, exactly one,
 * or several that disagree. The zones come from the shared derivation {@link ClientZones}; the
 * lines and the conformance JSON are time-context's own.
 */
public sealed interface ClientZoneContext
    permits ClientZoneContext.Missing, ClientZoneContext.Resolved, ClientZoneContext.Mixed {

  /** The shared value for a turn whose prompts carry no client zone. */
  Missing MISSING = new Missing();

  /**
   * Classifies derived zones.
   *
   * @param zones distinct zones sorted by UTF-16 code units, as {@link ClientZones} returns them
   * @return missing for none, resolved for one, mixed for more
   */
  static ClientZoneContext of(List<String> zones) {
    return switch (zones.size()) {
      case 0 -> MISSING;
      case 1 -> new Resolved(zones.get(0));
      default -> new Mixed(zones);
    };
  }

  /**
   * Derives the client-zone context of a list of user messages (conformance function {@code
   * timecontext.clientZones}).
   *
   * @param messages user messages in the {@code user/message} data shape (only {@code source} is
   *     read)
   * @return missing, resolved or mixed
   * @throws dev.horae.spi.zone.ClientZoneException when a contributed zone is malformed, unknown
   *     or not canonical
   */
  static ClientZoneContext derive(List<? extends JsonNode> messages) {
    return of(ClientZones.derive(messages));
  }

  /**
   * The conformance JSON: {@code {"kind":"missing"}}, {@code {"kind":"resolved","zone":z}} or
   * {@code {"kind":"mixed","zones":[…]}}.
   *
   * @return a new JSON object
   */
  ObjectNode toJson();

  /**
   * The client-zone line of the three-line reading (spec §7.2).
   *
   * @return the line, without a line terminator
   */
  String line();

  /** No prompt of the turn carries a client zone. */
  record Missing() implements ClientZoneContext {
    @Override
    public ObjectNode toJson() {
      return Json.mapper().createObjectNode().put("kind", "missing");
    }

    @Override
    public String line() {
      return "Browser time zone for this request: unavailable. "
          + "Ask the user to clarify otherwise-unqualified dates and times.";
    }
  }

  /**
   * Every client zone of the turn is the same canonical zone.
   *
   * @param zone the canonical zone
   */
  record Resolved(String zone) implements ClientZoneContext {
    /** Checks the zone is present. */
    public Resolved {
      Objects.requireNonNull(zone, "zone");
    }

    @Override
    public ObjectNode toJson() {
      return Json.mapper().createObjectNode().put("kind", "resolved").put("zone", zone);
    }

    @Override
    public String line() {
      return "Browser time zone for this request: " + zone
          + ". Interpret otherwise-unqualified dates and times in this zone.";
    }
  }

  /**
   * The turn's prompts carry at least two different zones.
   *
   * @param zones the distinct canonical zones, sorted by UTF-16 code units
   */
  record Mixed(List<String> zones) implements ClientZoneContext {
    /**
     * Freezes the list.
     *
     * @throws IllegalArgumentException when fewer than two zones are given
     */
    public Mixed {
      zones = List.copyOf(zones);
      if (zones.size() < 2) {
        throw new IllegalArgumentException("a mixed context needs at least two zones, got " + zones);
      }
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode o = Json.mapper().createObjectNode().put("kind", "mixed");
      ArrayNode a = o.putArray("zones");
      zones.forEach(a::add);
      return o;
    }

    @Override
    public String line() {
      return "Browser time zone for this request: mixed " + EcmaJson.write(toJson().get("zones"))
          + ". Ask the user to clarify otherwise-unqualified dates and times.";
    }
  }
}

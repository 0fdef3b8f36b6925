package dev.horae.schedule;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.schedule.internal.ClientZones;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.zone.ZoneResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The implicit-zone decision from the durable log (spec §6.8, time-context spec §10): the current
 * step's time-context authority, the immutable session zone and the client zones of the turn.
 *
 * <p>It reads only the raw events and the header, never process state, so every caller at every
 * moment (and after a restart) gets the same answer. It scans backwards from the end of the log
 * and stops at the current turn's start, so its cost is bounded by the current turn.
 */
public final class ImplicitZone {

  private ImplicitZone() {}

  /**
   * {@code implicitZone(events, header)}.
   *
   * @param events the session's raw log at the moment of the call, inherited prefix included
   * @param sessionTimeZone the header's {@code timeZone}, empty when headerless
   * @return the confirmed zone, or the zones to report
   */
  public static ZoneAuthority derive(List<SessionEvent> events, Optional<String> sessionTimeZone) {
    String session = sessionTimeZone.orElse(ScheduleError.UNAVAILABLE_ZONE);
    int stepIndex = openStep(events);
    if (stepIndex < 0) {
      return new ZoneAuthority.Unconfirmed(session, List.of());
    }
    if (!hasReadingAfter(events, stepIndex)) {
      return new ZoneAuthority.Unconfirmed(session, List.of());
    }
    JsonNode turn = events.get(stepIndex).data().path("turn");
    ZoneResolver resolver = ZoneResolver.standard();
    Optional<List<String>> derived = ClientZones.derive(turnMessages(events, turn), resolver);
    List<String> clients = derived.orElse(List.of());
    if (sessionTimeZone.isPresent() && clients.size() == 1) {
      Optional<String> canonical = resolver.canonicalName(sessionTimeZone.get());
      if (canonical.isPresent() && canonical.get().equals(clients.get(0))) {
        return new ZoneAuthority.Confirmed(clients.get(0));
      }
    }
    return new ZoneAuthority.Unconfirmed(session, clients);
  }

  /**
   * Whether {@link #derive} over a suffix of the log gives the same answer as over the whole log:
   * the backward scan for the open step ends inside the suffix, and, when a step is open, the
   * suffix also holds the {@code turn/start} of that step's turn. Lets a caller read only the tail
   * of a long log.
   *
   * @param suffix the last events of the log, in order
   * @return true when the suffix suffices
   */
  public static boolean decidableWithin(List<SessionEvent> suffix) {
    for (int i = suffix.size() - 1; i >= 0; i--) {
      String type = suffix.get(i).type();
      if (type.equals(EventTypes.STEP_END)
          || type.equals(EventTypes.TURN_END)
          || type.equals(EventTypes.TURN_START)) {
        return true;
      }
      if (type.equals(EventTypes.STEP_START)) {
        JsonNode turn = suffix.get(i).data().path("turn");
        for (int j = i - 1; j >= 0; j--) {
          SessionEvent e = suffix.get(j);
          if (e.type().equals(EventTypes.TURN_START) && sameNumber(e.data().path("turn"), turn)) {
            return true;
          }
        }
        return false;
      }
    }
    return false;
  }

  /** Index of the open step's {@code step/start}, or -1 when no step is open. */
  private static int openStep(List<SessionEvent> events) {
    for (int i = events.size() - 1; i >= 0; i--) {
      String type = events.get(i).type();
      if (type.equals(EventTypes.STEP_START)) {
        return i;
      }
      if (type.equals(EventTypes.STEP_END)
          || type.equals(EventTypes.TURN_END)
          || type.equals(EventTypes.TURN_START)) {
        return -1;
      }
    }
    return -1;
  }

  private static boolean hasReadingAfter(List<SessionEvent> events, int stepIndex) {
    for (int i = stepIndex + 1; i < events.size(); i++) {
      SessionEvent e = events.get(i);
      if (e.type().equals(EventTypes.USER_MESSAGE) && isSnapshotReading(e.data())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Every {@code user/message} after the last {@code turn/start} of {@code turn}; none when the
   * turn has no start in the log.
   */
  private static List<JsonNode> turnMessages(List<SessionEvent> events, JsonNode turn) {
    int start = -1;
    for (int i = events.size() - 1; i >= 0; i--) {
      SessionEvent e = events.get(i);
      if (e.type().equals(EventTypes.TURN_START) && sameNumber(e.data().path("turn"), turn)) {
        start = i;
        break;
      }
    }
    List<JsonNode> messages = new ArrayList<>();
    if (start < 0) {
      return messages;
    }
    for (int i = start + 1; i < events.size(); i++) {
      SessionEvent e = events.get(i);
      if (e.type().equals(EventTypes.USER_MESSAGE)) {
        messages.add(e.data());
      }
    }
    return messages;
  }

  private static boolean sameNumber(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return a.doubleValue() == b.doubleValue();
    }
    return !a.isMissingNode() && a.equals(b);
  }

  /**
   * The exact snapshot shape of time-context spec §4.1: source {@code {kind: "plugin", plugin:
   * "time-context", form: "snapshot", sections: [{name: "time-context", text}]}} and content
   * {@code [{type: "text", text}]} with the same string text.
   */
  static boolean isSnapshotReading(JsonNode message) {
    JsonNode source = message.path("source");
    if (!source.isObject()
        || source.size() != 4
        || !source.path("kind").isTextual()
        || !source.path("kind").textValue().equals("plugin")
        || !source.path("plugin").isTextual()
        || !source.path("plugin").textValue().equals("time-context")
        || !source.path("form").isTextual()
        || !source.path("form").textValue().equals("snapshot")) {
      return false;
    }
    JsonNode sections = source.path("sections");
    if (!sections.isArray() || sections.size() != 1) {
      return false;
    }
    JsonNode section = sections.get(0);
    if (!section.isObject()
        || section.size() != 2
        || !section.path("name").isTextual()
        || !section.path("name").textValue().equals("time-context")
        || !section.path("text").isTextual()) {
      return false;
    }
    JsonNode content = message.path("content");
    if (!content.isArray() || content.size() != 1) {
      return false;
    }
    JsonNode block = content.get(0);
    return block.isObject()
        && block.size() == 2
        && block.path("type").isTextual()
        && block.path("type").textValue().equals("text")
        && block.path("text").isTextual()
        && block.path("text").textValue().equals(section.path("text").textValue());
  }
}

package dev.horae.timecontext;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import dev.horae.timecontext.internal.Events;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The time-context authority of spec §10: what the durable log says about the current step's time
 * context, which Schedule consults before it accepts a local time without an explicit zone.
 *
 * <p>Derived only from the raw log and the header, never from process state, so every caller in
 * every process sees the same answer.
 *
 * @param turn the open step's turn
 * @param step the open step's number
 * @param sessionZone the header's {@code timeZone} as stored, or empty for a headerless session
 * @param client the client zones of the turn; a failed derivation counts as missing
 */
public record TimeContextAuthority(
    long turn, long step, Optional<String> sessionZone, ClientZoneContext client) {

  /** Checks the members are present. */
  public TimeContextAuthority {
    Objects.requireNonNull(sessionZone, "sessionZone");
    Objects.requireNonNull(client, "client");
  }

  /**
   * Derives the authority at this moment of the log.
   *
   * <p>Scans backwards from the end: the open step, a reading of the exact snapshot shape after its
   * {@code step/start}, and the client zones of every {@code user/message} after the last
   * {@code turn/start} of its turn. The scan stops at that {@code turn/start}, so its cost is
   * bounded by the current turn, not the log.
   *
   * @param events the session's raw log, including shadowed and inherited events
   * @param sessionZone the header's {@code timeZone}, empty when the session is headerless
   * @return the authority, or empty when there is no open step or no exact reading in it
   */
  public static Optional<TimeContextAuthority> of(List<SessionEvent> events, Optional<String> sessionZone) {
    int stepStart = -1;
    for (int i = events.size() - 1; i >= 0; i--) {
      String type = events.get(i).type();
      if (type.equals(EventTypes.STEP_START)) {
        stepStart = i;
        break;
      }
      if (type.equals(EventTypes.STEP_END) || type.equals(EventTypes.TURN_END) || type.equals(EventTypes.TURN_START)) {
        return Optional.empty();
      }
    }
    if (stepStart < 0) {
      return Optional.empty();
    }
    JsonNode stepData = events.get(stepStart).data();
    OptionalLong turn = Events.integer(stepData, "turn");
    OptionalLong step = Events.integer(stepData, "step");
    if (turn.isEmpty() || step.isEmpty()) {
      return Optional.empty();
    }
    boolean evidence = false;
    for (SessionEvent e : events.subList(stepStart + 1, events.size())) {
      if (e.type().equals(EventTypes.USER_MESSAGE) && ReadingMessages.isExactReading(e.data())) {
        evidence = true;
        break;
      }
    }
    if (!evidence) {
      return Optional.empty();
    }
    return Optional.of(
        new TimeContextAuthority(
            turn.getAsLong(), step.getAsLong(), sessionZone, clientZones(events, turn.getAsLong())));
  }

  private static ClientZoneContext clientZones(List<SessionEvent> events, long turn) {
    List<JsonNode> messages = new ArrayList<>();
    boolean found = false;
    for (int i = events.size() - 1; i >= 0; i--) {
      SessionEvent e = events.get(i);
      if (Events.isTurnStartOf(e, turn)) {
        found = true;
        break;
      }
      if (e.type().equals(EventTypes.USER_MESSAGE)) {
        messages.add(e.data());
      }
    }
    if (!found) {
      return ClientZoneContext.MISSING;
    }
    java.util.Collections.reverse(messages);
    try {
      return ClientZones.derive(messages);
    } catch (ClientZoneException e) {
      return ClientZoneContext.MISSING;
    }
  }
}

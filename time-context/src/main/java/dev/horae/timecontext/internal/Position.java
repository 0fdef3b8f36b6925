package dev.horae.timecontext.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import java.util.List;
import java.util.Optional;

/**
 * Where the next append lands in the turn structure (spec §11.2 check 4): the open turn, the open
 * step and whether a request has started.
 *
 * <p>Equivalent to replaying the prefix from the start, but computed backwards: the scan ends at
 * the latest {@code turn/start} or {@code turn/end}, so its cost is bounded by the current turn.
 *
 * @param turn the open turn's {@code turn} member, empty when no turn is open
 * @param step the open step's {@code step} member, empty when no step is open
 * @param requestStarted whether a {@code request/header} follows the latest structural event
 */
public record Position(Optional<JsonNode> turn, Optional<JsonNode> step, boolean requestStarted) {

  /**
   * Locates the end of a log prefix.
   *
   * @param prefix the events before the candidate
   * @return the position
   */
  public static Position of(List<SessionEvent> prefix) {
    boolean request = false;
    boolean requestKnown = false;
    Optional<JsonNode> step = Optional.empty();
    boolean stepKnown = false;
    for (int i = prefix.size() - 1; i >= 0; i--) {
      SessionEvent e = prefix.get(i);
      switch (e.type()) {
        case EventTypes.REQUEST_HEADER -> {
          if (!requestKnown) {
            request = true;
          }
        }
        case EventTypes.STEP_START -> {
          requestKnown = true;
          if (!stepKnown) {
            step = Optional.of(e.data().path("step"));
            stepKnown = true;
          }
        }
        case EventTypes.STEP_END -> {
          requestKnown = true;
          stepKnown = true;
        }
        case EventTypes.TURN_START -> {
          return new Position(Optional.of(e.data().path("turn")), step, request);
        }
        case EventTypes.TURN_END -> {
          // turn/end clears everything; a later step/start still sets a step without a turn
          return new Position(Optional.empty(), step, request);
        }
        default -> {
          // other events do not move the position
        }
      }
    }
    return new Position(Optional.empty(), step, request);
  }
}

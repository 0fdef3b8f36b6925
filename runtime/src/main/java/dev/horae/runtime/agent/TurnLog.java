package dev.horae.runtime.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.History;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the turn markers of a session log (host contract §6.1): the next turn number, the turn a
 * crash or a parked call left open, and what a turn said so far. Every reader scans backwards to
 * the nearest turn boundary, so the cost is one turn's length, not the log's.
 */
final class TurnLog {

  private TurnLog() {}

  /**
   * A turn with no {@code turn/end}.
   *
   * @param turn the turn number
   * @param openStep the step with no {@code step/end}, or 0
   * @param unanswered the tool calls of the turn with no {@code tool/result}, call id to tool name,
   *     in log order
   * @param trigger the first user message of the turn, if any
   * @param finalText the last assistant text of the turn, or empty
   */
  record OpenTurn(long turn, long openStep, Map<String, String> unanswered, Optional<UserMessage> trigger, String finalText) {}

  /**
   * The next turn number of a session: one more than the last {@code turn/start}, or 1.
   *
   * @param session the session
   * @return the turn number
   */
  static long nextTurnNumber(Session session) {
    List<SessionEvent> events = session.events();
    for (int i = events.size() - 1; i >= 0; i--) {
      SessionEvent e = events.get(i);
      if (e.type().equals(EventTypes.TURN_START) && e.data().path("turn").canConvertToLong()) {
        return e.data().get("turn").asLong() + 1;
      }
    }
    return 1;
  }

  /**
   * The open turn at the end of a log, if the last turn marker is a {@code turn/start}.
   *
   * @param session the session
   * @return the open turn
   */
  static Optional<OpenTurn> openTurn(Session session) {
    List<SessionEvent> events = session.events();
    int start = events.size() - 1;
    for (; start >= 0; start--) {
      String type = events.get(start).type();
      if (type.equals(EventTypes.TURN_END)) {
        return Optional.empty();
      }
      if (type.equals(EventTypes.TURN_START)) {
        break;
      }
    }
    if (start < 0) {
      return Optional.empty();
    }
    long turn = events.get(start).data().path("turn").asLong();
    long openStep = 0;
    Map<String, String> unanswered = new LinkedHashMap<>();
    Optional<UserMessage> trigger = Optional.empty();
    String finalText = "";
    for (SessionEvent e : events.subList(start + 1, events.size())) {
      JsonNode d = e.data();
      switch (e.type()) {
        case EventTypes.STEP_START -> openStep = d.path("step").asLong();
        case EventTypes.STEP_END -> openStep = 0;
        case EventTypes.TOOL_CALL -> unanswered.put(d.path("callId").asText(), d.path("tool").asText());
        case EventTypes.TOOL_RESULT -> unanswered.remove(d.path("callId").asText());
        case EventTypes.USER_MESSAGE -> {
          if (trigger.isEmpty()) {
            trigger = readable(d);
          }
        }
        case EventTypes.ASSISTANT_MESSAGE -> {
          Optional<ChatMessage> m = History.messageOf(e);
          if (m.isPresent() && m.get() instanceof ChatMessage.Assistant a && !a.text().isEmpty()) {
            finalText = a.text();
          }
        }
        default -> { }
      }
    }
    return Optional.of(new OpenTurn(turn, openStep, unanswered, trigger, finalText));
  }

  /** A log written by another host may carry a user message this runtime cannot read: no trigger then. */
  private static Optional<UserMessage> readable(JsonNode payload) {
    try {
      return Optional.of(UserMessage.fromJson(payload));
    } catch (IllegalArgumentException unreadable) {
      return Optional.empty();
    }
  }
}

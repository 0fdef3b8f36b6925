package dev.horae.spi.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SurfaceOp;
import java.util.ArrayList;
import java.util.List;

/**
 * The model-visible history of a session log (host contract §3.5, §3.7, §6.3): the events that
 * carry a {@code surfaceOp}, in log order, without the ones a compaction replacement shadows.
 *
 * <ul>
 *   <li>{@code user/message} becomes {@link ChatMessage.User};
 *   <li>{@code assistant/message} becomes {@link ChatMessage.Assistant} with its tool calls (the
 *       separate {@code tool/call} events repeat those calls and add nothing the model reads);
 *   <li>{@code tool/result} becomes {@link ChatMessage.ToolOutcome};
 *   <li>an event whose {@code surfaceOp} is {@code replace start..end} hides every event whose seq
 *       lies in {@code start..end} (both ends included) and stands in their place;
 *   <li>log-only events ({@code schedule/change}, {@code gate/commit}, turn and step markers) and
 *       visible events of types the projection does not know are not shown; neither is a visible
 *       event whose payload it cannot read, so one damaged event never blocks every later turn.
 * </ul>
 *
 * <p>Pure: a function of the events alone.
 */
public final class History {

  private History() {}

  /**
   * Projects a log.
   *
   * @param events the raw log, in seq order
   * @return the history, oldest first
   */
  public static List<ChatMessage> of(List<SessionEvent> events) {
    List<SurfaceOp.Replace> replacements = new ArrayList<>();
    List<Long> replacementSeqs = new ArrayList<>();
    for (SessionEvent e : events) {
      if (e.surfaceOp().orElse(null) instanceof SurfaceOp.Replace r) {
        replacements.add(r);
        replacementSeqs.add(e.seq());
      }
    }
    List<ChatMessage> out = new ArrayList<>();
    for (SessionEvent e : events) {
      if (e.surfaceOp().isEmpty() || shadowed(e.seq(), replacements, replacementSeqs)) {
        continue;
      }
      ChatMessage m = toMessage(e);
      if (m != null) {
        out.add(m);
      }
    }
    return out;
  }

  /**
   * The projection kept up to date as a log grows, so each request costs only the events appended
   * since the last one: appended visible events are converted and added; a new compaction
   * replacement among them makes the call project the whole log again (replacements are rare). Not
   * thread-safe: one owner (an agent's turn driver) uses it.
   */
  public static final class Incremental {
    private final List<ChatMessage> messages = new ArrayList<>();
    private long projected;

    /** Creates an empty projection. */
    public Incremental() {}

    /**
     * How many log events this projection has read; the agent that holds it reports through this
     * whether it still holds anything.
     *
     * @return 0 for a fresh projection
     */
    public long projectedEvents() {
      return projected;
    }

    /**
     * The history of {@code events}, which must be the same log this projection saw before, grown
     * (or the log of a fresh start).
     *
     * @param events the raw log, in seq order
     * @return the history, oldest first (a copy)
     */
    public List<ChatMessage> update(List<SessionEvent> events) {
      if (events.size() < projected) {
        messages.clear();
        projected = 0;
      }
      List<SessionEvent> fresh = events.subList((int) projected, events.size());
      boolean replaced = false;
      for (SessionEvent e : fresh) {
        if (e.surfaceOp().orElse(null) instanceof SurfaceOp.Replace) {
          replaced = true;
          break;
        }
      }
      if (replaced) {
        // a new replacement may shadow messages already projected
        messages.clear();
        messages.addAll(of(events));
      } else {
        // an earlier replacement covers only seqs before its own, never an event after it
        for (SessionEvent e : fresh) {
          if (e.surfaceOp().isPresent()) {
            ChatMessage m = toMessage(e);
            if (m != null) {
              messages.add(m);
            }
          }
        }
      }
      projected = events.size();
      return List.copyOf(messages);
    }
  }

  private static boolean shadowed(long seq, List<SurfaceOp.Replace> replacements, List<Long> replacementSeqs) {
    for (int i = 0; i < replacements.size(); i++) {
      SurfaceOp.Replace r = replacements.get(i);
      if (replacementSeqs.get(i) != seq && seq >= r.start() && seq <= r.end()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The model-visible message one event stands for: a {@code user/message}, an
   * {@code assistant/message} or a {@code tool/result}; empty for every other event and for an
   * unreadable payload. Shadowing is not applied here (see {@link #of}).
   *
   * @param e the event
   * @return the message
   */
  public static java.util.Optional<ChatMessage> messageOf(SessionEvent e) {
    return java.util.Optional.ofNullable(toMessage(e));
  }

  private static @org.jspecify.annotations.Nullable ChatMessage toMessage(SessionEvent e) {
    String type = e.type();
    if (!type.equals(EventTypes.USER_MESSAGE) && !type.equals(EventTypes.ASSISTANT_MESSAGE)
        && !type.equals(EventTypes.TOOL_RESULT)) {
      // an event holds its payload as text: parse only the messages this projection reads
      return null;
    }
    JsonNode d = e.data();
    try {
      return switch (e.type()) {
        case EventTypes.USER_MESSAGE -> {
          UserMessage m = UserMessage.fromJson(d);
          yield new ChatMessage.User(m.text(), m.source());
        }
        case EventTypes.ASSISTANT_MESSAGE -> {
          JsonNode msg = d.path("message");
          List<ToolCall> calls = new ArrayList<>();
          for (JsonNode c : msg.path("toolCalls")) {
            calls.add(new ToolCall(c.path("callId").asText(), c.path("tool").asText(), c.path("args")));
          }
          yield new ChatMessage.Assistant(text(msg.path("content")), calls);
        }
        case EventTypes.TOOL_RESULT -> new ChatMessage.ToolOutcome(
            d.path("callId").asText(), d.path("tool").asText(), text(d.path("content")), d.path("isError").asBoolean());
        default -> null;
      };
    } catch (IllegalArgumentException unreadable) {
      return null;
    }
  }

  /** The text blocks of a content array, joined by newlines. */
  private static String text(JsonNode content) {
    if (content.size() == 1 && content.path(0).path("text").isTextual()) {
      // the usual one-block content: the log's own string, not a copy — the projection of a long
      // session then costs its message objects, not a second copy of every text
      return content.get(0).get("text").textValue();
    }
    StringBuilder sb = new StringBuilder();
    for (JsonNode b : content) {
      if (b.path("text").isTextual()) {
        if (sb.length() > 0) {
          sb.append('\n');
        }
        sb.append(b.get("text").asText());
      }
    }
    return sb.toString();
  }
}

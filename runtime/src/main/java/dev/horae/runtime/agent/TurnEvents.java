package dev.horae.runtime.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.AppendOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.tool.ToolResult;
import java.util.List;

/**
 * The one writer of a turn's events (host contract §3.2 event types): the turn engine and an
 * external turn ({@link RecordedTurn}) append the same shapes through it, so the history a later
 * model request is rebuilt from ({@code History}) never depends on who drove the turn.
 */
final class TurnEvents {

  private TurnEvents() {}

  static void turnStart(Session session, long turn) {
    session.append(EventTypes.TURN_START, obj().put("turn", turn));
  }

  /** {@code step/start} and the messages the pre-step waterfall entered the step with. */
  static void stepStart(Session session, long turn, long step, List<UserMessage> messages) {
    session.append(EventTypes.STEP_START, at(turn, step));
    for (UserMessage m : messages) {
      session.append(EventTypes.USER_MESSAGE, m.toJson(), AppendOptions.VISIBLE);
    }
  }

  static void requestHeader(Session session, long turn, long step) {
    session.append(EventTypes.REQUEST_HEADER, at(turn, step));
  }

  static void chunk(Session session, long turn, long step, String text) {
    ObjectNode chunk = at(turn, step);
    chunk.putObject("chunk").put("text", text);
    session.append(EventTypes.ASSISTANT_CHUNK, chunk);
  }

  /** The model's answer as one {@code assistant/message}: its text, its tool calls, its usage. */
  static void assistant(Session session, long turn, long step, ModelResponse response) {
    ObjectNode msg = at(turn, step);
    ObjectNode m = msg.putObject("message");
    m.put("role", "assistant");
    ArrayNode content = m.putArray("content");
    if (!response.text().isEmpty()) {
      content.add(new ContentBlock(response.text()).toJson());
    }
    if (!response.toolCalls().isEmpty()) {
      ArrayNode toolCalls = m.putArray("toolCalls");
      for (ToolCall c : response.toolCalls()) {
        toolCalls.addObject().put("callId", c.callId()).put("tool", c.toolId()).set("args", c.arguments());
      }
    }
    if (response.usage().known()) {
      msg.putObject("usage").put("input", response.usage().inputTokens()).put("output", response.usage().outputTokens());
    }
    session.append(EventTypes.ASSISTANT_MESSAGE, msg, AppendOptions.VISIBLE);
  }

  static void toolCall(Session session, long turn, long step, ToolCall call) {
    ObjectNode e = at(turn, step).put("callId", call.callId()).put("tool", call.toolId());
    e.set("args", call.arguments());
    session.append(EventTypes.TOOL_CALL, e, AppendOptions.VISIBLE);
  }

  static void toolResult(Session session, long turn, long step, String callId, String tool, ToolResult result) {
    ObjectNode r = at(turn, step).put("callId", callId).put("tool", tool);
    r.put("isError", result.isError());
    ArrayNode content = r.putArray("content");
    result.content().forEach(b -> content.add(b.toJson()));
    result.value().ifPresent(v -> r.set("value", v));
    result.info().ifPresent(i -> r.set("info", i));
    session.append(EventTypes.TOOL_RESULT, r, AppendOptions.VISIBLE);
  }

  static void stepEnd(Session session, long turn, long step) {
    session.append(EventTypes.STEP_END, at(turn, step));
  }

  static void turnEnd(Session session, long turn, String reason) {
    session.append(EventTypes.TURN_END, obj().put("turn", turn).put("reason", reason));
  }

  private static ObjectNode at(long turn, long step) {
    return obj().put("turn", turn).put("step", step);
  }

  private static ObjectNode obj() {
    return Json.mapper().createObjectNode();
  }
}

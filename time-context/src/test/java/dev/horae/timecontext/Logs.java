package dev.horae.timecontext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import java.util.ArrayList;
import java.util.List;

/** A small builder of raw session logs for tests. */
final class Logs {

  private final List<SessionEvent> events = new ArrayList<>();

  static Logs log() {
    return new Logs();
  }

  List<SessionEvent> events() {
    return List.copyOf(events);
  }

  Logs event(String type, long time, JsonNode data) {
    events.add(SessionEvent.of(events.size(), type, time, data));
    return this;
  }

  Logs turnStart(long turn, long time) {
    return event(EventTypes.TURN_START, time, obj().put("turn", turn));
  }

  Logs turnEnd(long turn, long time) {
    ObjectNode data = obj().put("turn", turn);
    data.putObject("reason").put("kind", "completed");
    return event(EventTypes.TURN_END, time, data);
  }

  Logs stepStart(long turn, long step, long time) {
    return event(EventTypes.STEP_START, time, obj().put("turn", turn).put("step", step));
  }

  Logs stepEnd(long turn, long step, long time) {
    return event(EventTypes.STEP_END, time, obj().put("turn", turn).put("step", step));
  }

  Logs requestHeader(long time) {
    return event(EventTypes.REQUEST_HEADER, time, obj().put("reason", "initial"));
  }

  Logs user(String text, long time) {
    return event(EventTypes.USER_MESSAGE, time, message(text, obj().put("kind", "user")));
  }

  Logs prompt(String text, String rpcId, String zone, long time) {
    return event(EventTypes.USER_MESSAGE, time, message(text, prompt(rpcId, zone)));
  }

  Logs plugin(String plugin, String text, long time) {
    return event(EventTypes.USER_MESSAGE, time, message(text, obj().put("kind", "plugin").put("plugin", plugin)));
  }

  Logs reading(String text, long time) {
    return event(EventTypes.USER_MESSAGE, time, readingMessage(text));
  }

  Logs assistant(String text, long time) {
    ObjectNode data = obj();
    data.putObject("message").put("role", "assistant").putArray("content").addObject().put("type", "text").put("text", text);
    return event(EventTypes.ASSISTANT_MESSAGE, time, data);
  }

  Logs toolResult(long time) {
    return event(EventTypes.TOOL_RESULT, time, obj().put("callId", "c1"));
  }

  Logs other(String type, long time) {
    return event(type, time, obj());
  }

  static ObjectNode readingMessage(String text) {
    ObjectNode data = obj().put("role", "user");
    data.set("content", ReadingMessages.content(text));
    data.set("source", ReadingMessages.source(text));
    return data;
  }

  static ObjectNode message(String text, ObjectNode source) {
    ObjectNode data = obj().put("role", "user");
    data.putArray("content").addObject().put("type", "text").put("text", text);
    data.set("source", source);
    return data;
  }

  static ObjectNode prompt(String rpcId, String zone) {
    return obj().put("kind", "user").put("rpcId", rpcId).put("clientTimeZone", zone);
  }

  static ObjectNode obj() {
    return Json.mapper().createObjectNode();
  }
}

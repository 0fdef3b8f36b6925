package dev.horae.spi.zone;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import java.util.ArrayList;
import java.util.List;

/** A small builder of raw session logs for the authority tests. */
final class Logs {

  private final List<SessionEvent> events = new ArrayList<>();

  static Logs log() {
    return new Logs();
  }

  List<SessionEvent> events() {
    return List.copyOf(events);
  }

  Logs event(String type, JsonNode data) {
    events.add(SessionEvent.of(events.size(), type, events.size(), data));
    return this;
  }

  Logs turnStart(long turn) {
    return event(EventTypes.TURN_START, obj().put("turn", turn));
  }

  Logs turnEnd(long turn) {
    return event(EventTypes.TURN_END, obj().put("turn", turn));
  }

  Logs stepStart(long turn, long step) {
    return event(EventTypes.STEP_START, obj().put("turn", turn).put("step", step));
  }

  Logs stepEnd(long turn, long step) {
    return event(EventTypes.STEP_END, obj().put("turn", turn).put("step", step));
  }

  Logs prompt(String zone) {
    return event(EventTypes.USER_MESSAGE, prompt("r" + events.size(), zone));
  }

  Logs reading() {
    return event(EventTypes.USER_MESSAGE, Json.parse(READING));
  }

  /** A reading of the exact snapshot shape, written out by hand. */
  static final String READING =
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"t\"}],\"source\":{\"kind\":\"plugin\","
          + "\"plugin\":\"time-context\",\"form\":\"snapshot\",\"sections\":[{\"name\":\"time-context\",\"text\":\"t\"}]}}";

  static ObjectNode prompt(String rpcId, String zone) {
    ObjectNode data = obj().put("role", "user");
    data.putArray("content").addObject().put("type", "text").put("text", "p");
    data.putObject("source").put("kind", "user").put("rpcId", rpcId).put("clientTimeZone", zone);
    return data;
  }

  static ObjectNode obj() {
    return Json.mapper().createObjectNode();
  }
}

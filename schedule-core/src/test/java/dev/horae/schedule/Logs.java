package dev.horae.schedule;

import dev.horae.spi.json.EcmaJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import java.util.ArrayList;
import java.util.List;

/** Small builders for session logs in tests. */
final class Logs {

  private final List<SessionEvent> events = new ArrayList<>();

  static Logs log() {
    return new Logs();
  }

  static JsonNode json(String text) {
    return Json.parse(text);
  }

  static String afterCreate(String id, String prompt, long afterSeconds, String scheduledAt) {
    return "{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":" + EcmaJson.string(id)
        + ",\"kind\":\"after\",\"prompt\":" + EcmaJson.string(prompt) + ",\"afterSeconds\":"
        + afterSeconds + ",\"scheduledAt\":\"" + scheduledAt + "\"}}";
  }

  static String atCreate(String id, String prompt, String scheduledAt) {
    return "{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":" + EcmaJson.string(id)
        + ",\"kind\":\"at\",\"prompt\":" + EcmaJson.string(prompt) + ",\"scheduledAt\":\""
        + scheduledAt + "\"}}";
  }

  Logs create(String id, String scheduledAt) {
    return change(atCreate(id, "prompt of " + id, scheduledAt));
  }

  Logs delete(String id) {
    return change("{\"version\":1,\"operation\":\"delete\",\"id\":" + EcmaJson.string(id) + "}");
  }

  Logs dispatch(String id) {
    return change(
        "{\"version\":1,\"operation\":\"dispatch\",\"id\":" + EcmaJson.string(id) + "}");
  }

  Logs change(String payload) {
    return event(EventTypes.SCHEDULE_CHANGE, json(payload));
  }

  Logs event(String type, JsonNode data) {
    events.add(SessionEvent.of(events.size(), type, 0, data));
    return this;
  }

  Logs other(String type) {
    ObjectNode data = Json.mapper().createObjectNode();
    data.put("turn", 1);
    return event(type, data);
  }

  Logs turnStart(int turn) {
    return event(EventTypes.TURN_START, json("{\"turn\":" + turn + "}"));
  }

  Logs stepStart(int turn, int step) {
    return event(EventTypes.STEP_START, json("{\"turn\":" + turn + ",\"step\":" + step + "}"));
  }

  Logs stepEnd(int turn, int step) {
    return event(EventTypes.STEP_END, json("{\"turn\":" + turn + ",\"step\":" + step + "}"));
  }

  Logs prompt(String clientZone) {
    return event(EventTypes.USER_MESSAGE, json(
        "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"source\":"
            + "{\"kind\":\"user\",\"rpcId\":\"r\",\"clientTimeZone\":" + EcmaJson.string(clientZone)
            + "}}"));
  }

  Logs reading() {
    return event(EventTypes.USER_MESSAGE, json(
        "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"now\"}],\"source\":"
            + "{\"kind\":\"plugin\",\"plugin\":\"time-context\",\"form\":\"snapshot\","
            + "\"sections\":[{\"name\":\"time-context\",\"text\":\"now\"}]}}"));
  }

  List<SessionEvent> events() {
    return List.copyOf(events);
  }
}

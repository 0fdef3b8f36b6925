package dev.horae.invariant;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import java.util.ArrayList;
import java.util.List;

/** Hand-built {@code schedule/change} payloads and logs, from schedule spec §3. */
final class Changes {

  private Changes() {}

  static JsonNode create(String id) {
    return Json.parse("{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"" + id
        + "\",\"kind\":\"after\",\"prompt\":\"check logs\",\"afterSeconds\":30,"
        + "\"scheduledAt\":\"2026-08-05T12:00:00.000Z\"}}");
  }

  static JsonNode delete(String id) {
    return Json.parse("{\"version\":1,\"operation\":\"delete\",\"id\":\"" + id + "\"}");
  }

  static JsonNode dispatch(String id) {
    return Json.parse("{\"version\":1,\"operation\":\"dispatch\",\"id\":\"" + id + "\"}");
  }

  /** A log of the given payloads; a JSON string is an event type without schedule payload. */
  static List<SessionEvent> log(Object... items) {
    List<SessionEvent> events = new ArrayList<>();
    for (Object item : items) {
      long seq = events.size();
      if (item instanceof String type) {
        events.add(SessionEvent.of(seq, type, 1000 + seq, Json.mapper().createObjectNode()));
      } else {
        events.add(SessionEvent.of(seq, EventTypes.SCHEDULE_CHANGE, 1000 + seq, (JsonNode) item));
      }
    }
    return events;
  }
}

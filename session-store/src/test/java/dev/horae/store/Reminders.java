package dev.horae.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A test indexer and the logs it reads: {@code test/reminder} events create ({@code {"op":"create",
 * "id":…,"at":ms}}) or end ({@code {"op":"end","id":…}}) a reminder, and a session is due at its
 * earliest active reminder (ties keep creation order). The store knows no event format, so its
 * tests bring their own; {@code schedule-tools}' tests run the same index on Schedule's events.
 */
final class Reminders {

  static final String TYPE = "test/reminder";

  /** How many events the trackers of {@link #INDEXER} were fed, in all. */
  static final AtomicInteger FED = new AtomicInteger();

  static final DueIndexer INDEXER = Reminders::track;

  private Reminders() {}

  static Function<List<SessionEvent>, OptionalLong> track(SessionHeader header) {
    Map<String, Long> active = new LinkedHashMap<>();
    return events -> {
      FED.addAndGet(events.size());
      for (SessionEvent e : events) {
        if (!e.type().equals(TYPE)) {
          continue;
        }
        JsonNode d = e.data();
        if (d.get("op").asText().equals("create")) {
          active.put(d.get("id").asText(), d.get("at").asLong());
        } else if (active.remove(d.get("id").asText()) == null) {
          throw new IllegalStateException("reminder " + d.get("id").asText() + " is not active");
        }
      }
      OptionalLong earliest = OptionalLong.empty();
      for (long at : active.values()) {
        if (earliest.isEmpty() || at < earliest.getAsLong()) {
          earliest = OptionalLong.of(at);
        }
      }
      return earliest;
    };
  }

  /** A session's log, grown event by event. */
  static final class Log {
    private final List<SessionEvent> events = new ArrayList<>();

    Log create(String id, long at) {
      ObjectNode d = Json.mapper().createObjectNode();
      d.put("op", "create");
      d.put("id", id);
      d.put("at", at);
      return add(TYPE, d);
    }

    Log end(String id) {
      ObjectNode d = Json.mapper().createObjectNode();
      d.put("op", "end");
      d.put("id", id);
      return add(TYPE, d);
    }

    Log other() {
      ObjectNode d = Json.mapper().createObjectNode();
      d.put("text", "chatter");
      return add("test/event", d);
    }

    private Log add(String type, ObjectNode data) {
      events.add(SessionEvent.of(events.size(), type, 1_700_000_000_000L + events.size(), data));
      return this;
    }

    List<SessionEvent> events() {
      return List.copyOf(events);
    }
  }
}

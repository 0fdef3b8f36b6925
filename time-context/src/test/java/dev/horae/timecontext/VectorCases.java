package dev.horae.timecontext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.zone.ClientZoneException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Maps the time-context conformance catalogue onto the public API, as the conformance runner does.
 * Each call returns the outcome as a {@link Outcome}.
 */
final class VectorCases {

  private VectorCases() {}

  /** What a catalogue function produced. */
  sealed interface Outcome {}

  /** A string result. */
  record Text(String text) implements Outcome {}

  /** A JSON result. */
  record Value(JsonNode value) implements Outcome {}

  /** No result. */
  record None() implements Outcome {}

  /** A domain error with its message. */
  record Failure(String message) implements Outcome {}

  static List<JsonNode> load() throws IOException {
    List<JsonNode> cases = new ArrayList<>();
    try (InputStream in = VectorCases.class.getResourceAsStream("/vectors/time-context.jsonl")) {
      if (in == null) {
        throw new IOException("vector file missing");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while ((line = r.readLine()) != null) {
        if (!line.isBlank()) {
          cases.add(Json.parse(line));
        }
      }
    }
    return cases;
  }

  static Outcome run(String fn, JsonNode rawArgs) {
    JsonNode args = specialNumbers(rawArgs);
    try {
      return switch (fn) {
        case "timecontext.duration" -> new Text(TimeFormats.duration(args.get("ms").longValue()));
        case "timecontext.timestamp" ->
            new Text(TimeFormats.timestamp(instant(args.get("instant")), args.get("zone").textValue()));
        case "timecontext.validateConfig" -> new Value(config(args).toJson());
        case "timecontext.clientZones" -> new Value(ClientZoneContext.derive(list(args.path("messages"))).toJson());
        case "timecontext.reading" -> {
          Optional<String> text =
              TimeReadings.reading(
                  config(args),
                  events(args.path("events")),
                  args.get("turn").longValue(),
                  args.get("step").longValue(),
                  millis(args.get("now")),
                  list(args.path("messages")));
          yield text.<Outcome>map(Text::new).orElse(new None());
        }
        case "timecontext.invariant" -> {
          JsonNode c = args.get("candidate");
          List<SessionEvent> prefix = events(args.path("events"));
          SessionEvent candidate =
              SessionEvent.of(prefix.size(), c.get("type").textValue(), millis(c.path("time")), c.get("data"));
          yield ReadingInvariant.check(prefix, candidate)
              .<Outcome>map(v -> new Failure(v.message()))
              .orElse(new Value(Json.mapper().getNodeFactory().textNode("ok")));
        }
        default -> throw new IllegalArgumentException("unknown fn " + fn);
      };
    } catch (InvalidConfigException | ClientZoneException e) {
      return new Failure(String.valueOf(e.getMessage()));
    }
  }

  private static TimeContextConfig.Resolved config(JsonNode args) {
    JsonNode zone = args.path("processZone");
    return TimeContextConfig.validate(
        args.path("config"), zone.isTextual() ? Optional.of(zone.textValue()) : Optional.empty());
  }

  static List<SessionEvent> events(JsonNode array) {
    List<SessionEvent> events = new ArrayList<>();
    for (JsonNode e : array) {
      events.add(SessionEvent.of(events.size(), e.get("type").textValue(), millis(e.path("time")), e.get("data")));
    }
    return events;
  }

  private static List<JsonNode> list(JsonNode array) {
    List<JsonNode> out = new ArrayList<>();
    array.forEach(out::add);
    return out;
  }

  private static long millis(JsonNode time) {
    return time.isTextual() ? instant(time).toEpochMilli() : time.asLong(0);
  }

  private static Instant instant(JsonNode text) {
    return Instant.parse(text.textValue());
  }

  /** Replaces {@code {"$number":"Infinity"}} and friends by double nodes. */
  private static JsonNode specialNumbers(JsonNode node) {
    if (node.isObject()) {
      if (node.size() == 1 && node.path("$number").isTextual()) {
        return DoubleNode.valueOf(Double.parseDouble(node.path("$number").textValue()));
      }
      ObjectNode copy = Json.mapper().createObjectNode();
      for (Map.Entry<String, JsonNode> m : node.properties()) {
        copy.set(m.getKey(), specialNumbers(m.getValue()));
      }
      return copy;
    }
    return node;
  }
}

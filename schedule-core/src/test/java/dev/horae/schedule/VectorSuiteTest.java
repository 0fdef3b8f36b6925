package dev.horae.schedule;

import dev.horae.spi.json.EcmaJson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every public {@code suite: schedule} vector (a copy of {@code conformance/vectors/schedule.jsonl}
 * in the test resources), mapped onto the public API the way the conformance runner will.
 */
class VectorSuiteTest {

  /** A function result: a JSON value, a text, nothing, or a domain error as JSON. */
  private record Outcome(String kind, JsonNode json) {}

  static List<JsonNode> vectors() throws IOException {
    List<JsonNode> out = new ArrayList<>();
    try (InputStream in = VectorSuiteTest.class.getResourceAsStream("/vectors/schedule.jsonl")) {
      assertThat(in).as("vector resource").isNotNull();
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while ((line = r.readLine()) != null) {
        if (!line.isBlank()) {
          out.add(Json.parse(line));
        }
      }
    }
    return out;
  }

  @Test
  void allPublicVectorsArePresent() throws IOException {
    assertThat(vectors()).hasSize(149);
  }

  @TestFactory
  Stream<DynamicTest> publicVectors() throws IOException {
    return vectors().stream()
        .map(v -> DynamicTest.dynamicTest(v.get("id").asText() + " " + v.get("fn").asText(),
            () -> check(v)));
  }

  /**
   * Every change in the vectors (each {@code decodeChange} payload and each {@code schedule/change}
   * event of a log) decodes from its stored bytes to what its tree decodes to: the same change or
   * the same error message.
   */
  @Test
  void everyVectorChangeDecodesFromItsStoredBytesAsFromItsTree() throws IOException {
    List<JsonNode> payloads = new ArrayList<>();
    for (JsonNode v : vectors()) {
      JsonNode args = v.get("args");
      if (v.get("fn").asText().equals("schedule.decodeChange")) {
        payloads.add(args.get("payload"));
      }
      for (JsonNode e : args.path("events")) {
        if (e.path("type").asText().equals("schedule/change") && e.has("data")) {
          payloads.add(e.get("data"));
        }
      }
    }
    assertThat(payloads).hasSizeGreaterThan(40);
    for (JsonNode payload : payloads) {
      String fromTree = outcome(() -> ChangeCodec.decode(payload));
      String fromBytes = outcome(() -> ChangeCodec.decode(ChangeCodecTest.stored(Json.write(payload))));
      assertThat(fromBytes).as("%s", payload).isEqualTo(fromTree);
    }
  }

  private static String outcome(java.util.function.Supplier<ScheduleChange> decode) {
    try {
      return "value " + decode.get();
    } catch (CorruptScheduleLogException e) {
      return "error " + e.code() + " " + e.getMessage();
    }
  }

  private static void check(JsonNode vector) {
    JsonNode expect = vector.get("expect");
    Outcome actual = run(vector.get("fn").asText(), vector.get("args"));
    if (expect.has("value")) {
      assertThat(actual.kind()).as("kind").isEqualTo("value");
      assertThat(Json.sameValue(expect.get("value"), actual.json()))
          .as("expected %s but got %s", expect.get("value"), actual.json())
          .isTrue();
    } else if (expect.has("text")) {
      assertThat(actual.kind()).isEqualTo("value");
      assertThat(actual.json().textValue()).isEqualTo(expect.get("text").textValue());
    } else if (expect.has("null")) {
      assertThat(actual.kind()).isEqualTo("null");
    } else if (expect.has("error")) {
      assertThat(actual.kind()).as("kind for %s", actual.json()).isEqualTo("error");
      for (Map.Entry<String, JsonNode> field : expect.get("error").properties()) {
        assertThat(Json.sameValue(field.getValue(), actual.json().path(field.getKey())))
            .as("error field %s: expected %s in %s", field.getKey(), field.getValue(), actual.json())
            .isTrue();
      }
    } else {
      fail("unknown expectation " + expect);
    }
  }

  static Outcome run(String fn, JsonNode args) {
    try {
      return switch (fn) {
        case "schedule.decodeChange" ->
            value(ChangeCodec.encodeText(ChangeCodec.decode(args.get("payload"))));
        case "schedule.fold" ->
            value(ScheduleFold.fold(events(args.get("events")), args.path("seedLength").asLong(0))
                .toJson());
        case "schedule.allocateId" -> new Outcome("value",
            Json.mapper().getNodeFactory().textNode(ScheduleIds.allocate(strings(args.get("seenIds")))));
        case "schedule.view" -> value(ScheduleView.of(record(args.get("record")), millis(args.get("now"))).toJson());
        case "schedule.framing" -> new Outcome("value",
            Json.mapper().getNodeFactory().textNode(ReminderFraming.text(record(args.get("record")))));
        case "schedule.create" -> create(args);
        case "schedule.implicitZone" -> {
          JsonNode zone = args.path("header").path("timeZone");
          ZoneAuthority a = ImplicitZone.derive(events(args.get("events")),
              zone.isTextual() ? Optional.of(zone.textValue()) : Optional.empty());
          yield a instanceof ZoneAuthority.Confirmed c
              ? value("{\"timeZone\":" + EcmaJson.string(c.zone()) + "}")
              : error(((ZoneAuthority.Unconfirmed) a).error().toJson());
        }
        case "schedule.presentation" -> ReminderPresentation.project(events(args.get("events")),
                args.get("dispatchSeq").asLong(), args.path("seedLength").asLong(0))
            .map(p -> value(p.toJson()))
            .orElse(new Outcome("null", Json.mapper().nullNode()));
        case "schedule.trim" -> new Outcome("value",
            Json.mapper().getNodeFactory().textNode(EcmaText.trim(args.get("text").textValue())));
        default -> throw new AssertionError("unknown fn " + fn);
      };
    } catch (CorruptScheduleLogException e) {
      return error("{\"code\":\"corrupt_schedule_log\",\"message\":" + EcmaJson.string(e.reason()) + "}");
    }
  }

  private static Outcome create(JsonNode args) {
    JsonNode za = args.path("zoneAuthority");
    ZoneAuthority authority = za.isObject()
        ? ZoneAuthority.reduced(
            za.path("sessionTimeZone").isTextual()
                ? Optional.of(za.get("sessionTimeZone").textValue()) : Optional.empty(),
            strings(za.path("clientTimeZones")))
        : ZoneAuthority.none();
    ScheduleResult<ScheduleRecord> r = CreateRequest.create(args.get("input"),
        millis(args.get("now")), strings(args.path("seenIds")), authority);
    if (r instanceof ScheduleResult.Ok<ScheduleRecord> ok) {
      return value(ScheduleJson.record(ok.value()));
    }
    return error(((ScheduleResult.Err<ScheduleRecord>) r).error().toJson());
  }

  static List<SessionEvent> events(JsonNode events) {
    List<SessionEvent> out = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      JsonNode e = events.get(i);
      out.add(SessionEvent.of(e.path("seq").asLong(i), e.get("type").asText(), 0, e.get("data")));
    }
    return out;
  }

  static ScheduleRecord record(JsonNode record) {
    JsonNode change = Json.mapper().createObjectNode()
        .put("version", 1).put("operation", "create").set("schedule", record);
    return ((ScheduleChange.Create) ChangeCodec.decode(change)).record();
  }

  static long millis(JsonNode text) {
    return Instant.parse(text.asText()).toEpochMilli();
  }

  static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static Outcome value(String json) {
    return new Outcome("value", Json.parse(json));
  }

  private static Outcome error(String json) {
    return new Outcome("error", Json.parse(json));
  }
}

package dev.horae.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.jobs.KillOutcome;
import dev.horae.spi.jobs.PublicJobSnapshot;
import dev.horae.spi.session.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Runs every public {@code jobs} conformance vector against the pure API. */
class JobsVectorsTest {

  static Stream<JsonNode> cases() throws IOException {
    List<JsonNode> out = new ArrayList<>();
    try (InputStream in =
            Objects.requireNonNull(
                JobsVectorsTest.class.getResourceAsStream("/vectors/jobs.jsonl"));
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (!line.isBlank()) {
          out.add(Json.parse(line));
        }
      }
    }
    assertThat(out).hasSize(58);
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void vector(JsonNode c) {
    JsonNode args = c.get("args");
    JsonNode expect = c.get("expect");
    if (expect.has("error")) {
      JsonNode error = expect.get("error");
      assertThatThrownBy(() -> call(c.get("fn").asText(), args))
          .isInstanceOfSatisfying(
              JobsException.class,
              e -> {
                if (error.has("message")) {
                  assertThat(e.getMessage()).isEqualTo(error.get("message").asText());
                }
                if (error.has("code")) {
                  assertThat(e.code()).isEqualTo(error.get("code").asText());
                }
              });
      return;
    }
    Object result = call(c.get("fn").asText(), args);
    String target =
        result instanceof JsonNode node && node.has("text")
            ? node.get("text").asText()
            : result instanceof String s ? s : "";
    if (expect.has("text")) {
      assertThat(result).isEqualTo(expect.get("text").asText());
    }
    if (expect.has("value")) {
      JsonNode actual = (JsonNode) result;
      assertThat(actual.equals(JobsVectorsTest::byValue, expect.get("value")))
          .as("%s equals %s", actual, expect.get("value"))
          .isTrue();
    }
    if (expect.has("contains")) {
      for (JsonNode s : expect.get("contains")) {
        assertThat(target).contains(s.asText());
      }
    }
    if (expect.has("bytesAtMost")) {
      assertThat(target.getBytes(StandardCharsets.UTF_8).length)
          .isLessThanOrEqualTo(expect.get("bytesAtMost").asInt());
    }
  }

  private static Object call(String fn, JsonNode a) {
    return switch (fn) {
      case "jobs.statusLine" -> JobTexts.statusLine(status(a), text(a, "detail"));
      case "jobs.readText" ->
          JobTexts.readText(
              a.get("output").asText(),
              status(a),
              text(a, "detail"),
              limit(a),
              a.path("producerTruncated").asBoolean(false));
      case "jobs.killText" ->
          JobTexts.killText(
              JobId.parse(a.get("id").asText()),
              KillOutcome.fromWire(a.get("outcome").asText()),
              a.hasNonNull("status") ? status(a) : JobStatus.STOPPING,
              text(a, "detail"),
              limit(a));
      case "jobs.listText" -> JobTexts.listText(snapshots(a.get("jobs")));
      case "jobs.notice" -> notice(a);
      case "jobs.validateConfig" -> JobsControllerConfig.fromJson(a.path("config")).toJson();
      default -> throw new IllegalArgumentException("unknown fn " + fn);
    };
  }

  private static List<PublicJobSnapshot> snapshots(JsonNode array) {
    List<PublicJobSnapshot> jobs = new ArrayList<>();
    array.forEach(j -> jobs.add(PublicJobSnapshot.fromJson(j)));
    return jobs;
  }

  private static ObjectNode notice(JsonNode a) {
    JobTexts.Notice n =
        JobTexts.notice(
            JobId.parse(a.get("id").asText()),
            a.get("kind").asText(),
            a.get("label").asText(),
            status(a),
            text(a, "detail"),
            limit(a));
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("text", n.text());
    o.put("summary", n.summary());
    return o;
  }

  private static int byValue(JsonNode x, JsonNode y) {
    if (x.isNumber() && y.isNumber()) {
      return x.decimalValue().compareTo(y.decimalValue());
    }
    return x.equals(y) ? 0 : 1;
  }

  private static JobStatus status(JsonNode a) {
    return JobStatus.fromWire(a.get("status").asText());
  }

  private static Optional<String> text(JsonNode a, String key) {
    return a.hasNonNull(key) ? Optional.of(a.get(key).asText()) : Optional.empty();
  }

  private static OptionalLong limit(JsonNode a) {
    return a.hasNonNull("outputLimitBytes")
        ? OptionalLong.of(a.get("outputLimitBytes").asLong())
        : OptionalLong.empty();
  }
}

package dev.horae.invariant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.invariant.InvariantViolation;
import dev.horae.spi.session.AppendOptions;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.zone.ClientZoneException;
import dev.horae.testkit.TestHost;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code timecontext.invariant} conformance vectors (T065–T104, TX060–TX064), replayed end to
 * end: each vector's events are appended to a live session of the reference host at their own wall
 * time, with the companion registered, and the candidate append must be accepted or vetoed with the
 * vector's message (prefixed, except a client-zone derivation failure).
 */
class TimeContextVectorsTest {

  private static final String PREFIX = "invariant violated by \"@deepseek-ai/dsh-time-context\": ";

  static Stream<JsonNode> vectors() throws IOException {
    List<JsonNode> cases = new ArrayList<>();
    try (InputStream in = Objects.requireNonNull(
        TimeContextVectorsTest.class.getResourceAsStream("/vectors/timecontext-invariant.jsonl"));
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (!line.isBlank()) {
          cases.add(Json.parse(line));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{index}")
  @MethodSource("vectors")
  void theLiveCompanionGivesTheVectorsVerdict(JsonNode vector) {
    JsonNode args = vector.get("args");
    TestHost host = TestHost.builder().build();
    TimeContextCompanion.instance().register(host.invariants());
    Session session = host.sessions().create(CreateOptions.DEFAULT);
    for (JsonNode e : args.get("events")) {
      host.time().setWall(Instant.parse(e.get("time").textValue()));
      // every reading inside a vector's prefix is valid, so the guarded appends all land
      session.append(e.get("type").textValue(), e.get("data"), options(e));
    }
    JsonNode c = args.get("candidate");
    host.time().setWall(Instant.parse(c.get("time").textValue()));
    List<SessionEvent> before = session.events();
    JsonNode expect = vector.get("expect");
    if (expect.has("value")) {
      session.append(c.get("type").textValue(), c.get("data"), options(c));
      assertThat(session.events()).as(vector.get("id").textValue()).hasSize(before.size() + 1);
      return;
    }
    String message = expect.get("error").get("message").textValue();
    if (message.startsWith("browser time zone")) {
      assertThatThrownBy(() -> session.append(c.get("type").textValue(), c.get("data"), options(c)))
          .as(vector.get("id").textValue())
          .isExactlyInstanceOf(ClientZoneException.class)
          .hasMessage(message);
    } else {
      assertThatThrownBy(() -> session.append(c.get("type").textValue(), c.get("data"), options(c)))
          .as(vector.get("id").textValue())
          .isInstanceOf(InvariantViolation.class)
          .hasMessage(PREFIX + message);
    }
    assertThat(session.events()).isEqualTo(before);
  }

  private static AppendOptions options(JsonNode event) {
    return event.get("type").textValue().equals(EventTypes.USER_MESSAGE) ? AppendOptions.VISIBLE : AppendOptions.LOG_ONLY;
  }
}

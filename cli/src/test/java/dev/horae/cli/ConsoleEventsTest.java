package dev.horae.cli;

import static dev.horae.cli.Fixture.PARKED_RUN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.cli.console.WebConsole;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.session.Json;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.time.ManualTime;
import java.net.InetAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's live updates over real HTTP: {@code /api/events} says {@code hello}, then pushes
 * {@code change} when a new call awaits approval and when one is answered. The change checks run on
 * a manual clock, so each push follows one advance of it; the waits for the pushed lines are bounded.
 */
class ConsoleEventsTest {

  private static final Duration WATCH = Duration.ofSeconds(2);

  @TempDir Path dir;
  private final ManualTime watch = new ManualTime(Instant.parse("2026-12-01T09:05:00Z"));
  private @Nullable StoreAccess store;
  private @Nullable WebConsole console;

  @BeforeEach
  void writeTheStore() throws Exception {
    Fixture.write(HoraeRuntime.builder().dataDir(dir));
    App.DEPLOYS.set(0);
  }

  @AfterEach
  void stop() {
    if (console != null) {
      console.close();
    }
    if (store != null) {
      store.close();
    }
  }

  /** The events of a stream, one block ({@code event:} and {@code data:} lines) each; comments dropped. */
  private static BlockingQueue<String> read(HttpResponse<Stream<String>> stream) {
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      StringBuilder block = new StringBuilder();
      stream.body().forEach(line -> {
        if (line.isEmpty()) {
          if (block.length() > 0) {
            events.add(block.toString());
            block.setLength(0);
          }
        } else if (!line.startsWith(":") && !line.startsWith("retry:")) {
          block.append(block.length() == 0 ? "" : "\n").append(line);
        }
      });
    }, "sse-reader");
    reader.setDaemon(true);
    reader.start();
    return events;
  }

  private static String next(BlockingQueue<String> events) throws InterruptedException {
    String e = events.poll(30, TimeUnit.SECONDS);
    assertThat(e).as("an event within 30 s").isNotNull();
    return e;
  }

  /** Another application session parks a {@code deploy} call on a confirmation, then closes. */
  private void parkASecondCall() throws Exception {
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:06:00Z"));
    ScriptedModel model = new ScriptedModel().thenCall("deploy", Json.parse("{\"env\":\"staging\"}"));
    try (HoraeRuntime horae = HoraeRuntime.builder().dataDir(dir).clock(time).timers(time).model(model).build()) {
      App.wire(horae, true);
      RuntimeAgent agent = horae.openAgent("ops-2", "UTC");
      horae.prompt(agent, "Deploy to staging.");
      Fixture.awaitLog(horae, agent, log -> agent.parked());
    }
  }

  @Test
  void theStreamSaysHelloThenPushesAChangeWhenACallAwaitsApprovalAndWhenOneIsAnswered() throws Exception {
    store = StoreAccess.files(dir);
    StoreBackend backend = new StoreBackend(store, Fixture.CLI_CLOCK, Setups.Deploy::new, 30, (message, cause) -> { });
    WebConsole c = WebConsole.start(backend, InetAddress.getLoopbackAddress(), 0, Optional.empty(), watch, WATCH);
    console = c;
    HttpResponse<Stream<String>> stream = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(c.uri().resolve("/api/events")).GET().build(), HttpResponse.BodyHandlers.ofLines());
    assertThat(stream.statusCode()).isEqualTo(200);
    assertThat(stream.headers().firstValue("Content-Type")).contains("text/event-stream; charset=utf-8");
    assertThat(stream.headers().firstValue("Content-Security-Policy")).isPresent();
    BlockingQueue<String> events = read(stream);
    assertThat(next(events)).isEqualTo("event: hello\ndata: {\"awaiting\":1,\"changed\":[]}");

    parkASecondCall();
    watch.advance(WATCH);
    assertThat(next(events)).isEqualTo("event: change\ndata: {\"awaiting\":2,\"changed\":[\"sessions\",\"awaiting\"]}");

    ConsoleClient http = new ConsoleClient(c);
    assertThat(http.answer("/api/deny", "{\"runId\":\"" + PARKED_RUN + "\",\"reason\":\"not tonight\"}").statusCode())
        .isEqualTo(200);
    watch.advance(WATCH);
    assertThat(next(events)).isEqualTo("event: change\ndata: {\"awaiting\":1,\"changed\":[\"sessions\",\"awaiting\"]}");
    assertThat(App.DEPLOYS).hasValue(0);
  }

  @Test
  void aConsoleWithATokenRefusesAStreamWithoutIt() throws Exception {
    store = StoreAccess.files(dir);
    StoreBackend backend = new StoreBackend(store, Fixture.CLI_CLOCK, null, 30, (message, cause) -> { });
    WebConsole c = WebConsole.start(backend, InetAddress.getLoopbackAddress(), 0, Optional.of("s3cret"), watch, WATCH);
    console = c;
    ConsoleClient http = new ConsoleClient(c);
    ConsoleClient.assertRefused(http.get("/api/events"), 401, "unauthorized");
  }
}

package dev.horae.cli;

import static dev.horae.cli.Fixture.PARKED_RUN;
import static dev.horae.cli.Fixture.SESSION;
import static dev.horae.cli.ConsoleClient.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.cli.console.WebConsole;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.store.FileSessionStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.time.ManualTime;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web console's HTTP layer over the {@link Fixture} store, spoken to with the JDK HttpClient:
 * its JSON views, the approve path, the access rules (loopback, token, CSRF, Origin, Host), and the
 * live updates of {@code /api/events}: {@code hello}, then {@code change} when a new call awaits
 * approval and when one is answered, each after one advance of the manual clock the checks run on.
 */
class ConsoleHttpTest {

  @TempDir Path dir;
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

  private WebConsole start(boolean withSetup, InetAddress bind, Optional<String> token) {
    store = StoreAccess.files(dir);
    StoreBackend backend = new StoreBackend(store, Fixture.CLI_CLOCK, withSetup ? Setups.Deploy::new : null, 30,
        (message, cause) -> { });
    try {
      console = WebConsole.start(backend, bind, 0, token);
    } catch (RuntimeException e) {
      store.close();
      store = null;
      throw e;
    }
    return console;
  }

  private WebConsole start() {
    return start(true, InetAddress.getLoopbackAddress(), Optional.empty());
  }

  private List<SessionEvent> stored() {
    return FileSessionStore.peek(dir, SESSION).orElseThrow().events();
  }

  @Test
  void theJsonViewsShowTheSessionItsTimelineTheRemindersAndTheParkedCall() throws Exception {
    WebConsole console = start();
    ConsoleClient c = new ConsoleClient(console);
    JsonNode sessions = Json.parse(c.get("/api/sessions").body());
    assertThat(sessions.path("sessions")).hasSize(1);
    JsonNode s = sessions.path("sessions").get(0);
    assertThat(s.path("session").asText()).isEqualTo(SESSION);
    assertThat(s.path("state").asText()).isEqualTo("parked turn-6");
    assertThat(s.path("events").asInt()).isEqualTo(stored().size());
    assertThat(s.path("awaiting").asInt()).isEqualTo(1);

    JsonNode timeline = Json.parse(c.get("/api/timeline?session=ops-1").body());
    assertThat(timeline.path("summary").path("session").asText()).isEqualTo(SESSION);
    assertThat(timeline.path("awaiting").get(0).path("runId").asText()).isEqualTo(PARKED_RUN);
    List<String> titles = timeline.path("entries").findValuesAsText("title");
    assertThat(titles).contains("turn 1 started", "turn 5 ended (completed)", "turn 6 started",
        "reminder schedule-1 created, due 2026-12-01T09:00:30.000Z", "reminder schedule-1 dispatched",
        "reminder delivered to the agent", "job notice: build nightly build [status: completed, exit code: 0]",
        "call deploy (call-4)", "gate: run ops-1/turn-6 awaiting");
    JsonNode gate = find(timeline.path("entries"), "gate: run ops-1/turn-6 awaiting");
    assertThat(gate.path("kind").asText()).isEqualTo("gate");
    assertThat(gate.path("detail").asText()).isEqualTo("deploy call-4: ask");
    assertThat(timeline.path("entries").findValuesAsText("kind")).contains("turn", "reminder", "dispatch", "job", "tool", "gate");
    HttpResponse<String> none = c.get("/api/timeline?session=nobody");
    assertThat(none.statusCode()).isEqualTo(404);
    assertThat(Json.parse(none.body()).path("message").asText()).isEqualTo("no session nobody in " + dir);

    JsonNode reminders = Json.parse(c.get("/api/reminders").body());
    assertThat(reminders.path("now").asText()).isEqualTo("2026-12-01T09:05:00Z");
    assertThat(reminders.path("scheduled")).singleElement().satisfies(r -> {
      assertThat(r.path("id").asText()).isEqualTo("schedule-2");
      assertThat(r.path("due").asText()).isEqualTo("2026-12-01T10:00:00.000Z");
    });
    assertThat(reminders.path("dispatched")).singleElement().satisfies(r -> {
      assertThat(r.path("id").asText()).isEqualTo("schedule-1");
      assertThat(r.path("latenessMs").asLong()).isZero();
    });

    JsonNode awaiting = Json.parse(c.get("/api/awaiting").body());
    assertThat(awaiting.path("canAnswer").asBoolean()).isTrue();
    assertThat(awaiting.path("awaiting")).singleElement().satisfies(a -> {
      assertThat(a.path("runId").asText()).isEqualTo(PARKED_RUN);
      assertThat(a.path("session").asText()).isEqualTo(SESSION);
      assertThat(a.path("reason").asText()).isEqualTo("toolPermission");
      assertThat(a.path("tool").asText()).isEqualTo("deploy");
      assertThat(a.path("arguments")).isEqualTo(Json.parse("{\"env\":\"prod\"}"));
      assertThat(a.path("deadline").isNull()).isTrue();
    });
    // the same rows as the command line's
    assertThat(awaiting.path("awaiting")).isEqualTo(Fixture.cli("--data-dir", dir.toString(), "--json", "runs", "--awaiting").json());
  }

  private static JsonNode find(JsonNode entries, String title) {
    for (JsonNode e : entries) {
      if (e.path("title").asText().equals(title)) {
        return e;
      }
    }
    throw new AssertionError("no entry " + title);
  }

  @Test
  void theAssetsComeFromTheJarWithAContentSecurityPolicy() throws Exception {
    WebConsole console = start();
    ConsoleClient c = new ConsoleClient(console);
    HttpResponse<String> page = c.get("/");
    assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow()).contains("default-src 'none'")
        .contains("frame-ancestors 'none'");
    assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
    assertThat(page.body()).contains("/console.js").contains("/console.css").doesNotContain("http://").doesNotContain("https://");
    assertThat(c.get("/console.js").body()).contains("X-Horae-CSRF");
    assertThat(c.get("/console.css").headers().firstValue("Content-Type")).hasValue("text/css; charset=utf-8");
    assertThat(c.get("/nothing").statusCode()).isEqualTo(404);
  }

  @Test
  void approveThroughHttpPerformsTheToolOnceAndEndsTheRun() throws Exception {
    WebConsole console = start();
    ConsoleClient c = new ConsoleClient(console);
    String csrf = c.pageToken();
    assertThat(csrf).isEqualTo(console.csrfToken());
    HttpResponse<String> approved = c.post("/api/approve", "{\"runId\":\"ops-1/turn-6\"}", c.samePage(csrf));
    assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
    JsonNode o = Json.parse(approved.body());
    assertThat(o.path("decision").asText()).isEqualTo("approved");
    assertThat(o.path("runState").asText()).isEqualTo("ended");
    assertThat(o.path("endCause").asText()).isEqualTo("naturalEnd");
    assertThat(o.path("message").asText()).isEqualTo("approved ops-1/turn-6: deploy {\"env\":\"prod\"} ran; the run is ended (naturalEnd)");
    assertThat(App.DEPLOYS.get()).isEqualTo(1);
    assertThat(stored().stream().filter(e -> e.type().equals("tool/result") && e.data().path("tool").asText().equals("deploy")))
        .singleElement().satisfies(e -> assertThat(e.data().path("isError").asBoolean()).isFalse());
    SessionEvent last = stored().get(stored().size() - 1);
    assertThat(last.type()).isEqualTo("turn/end");
    assertThat(last.data().path("turn").asInt()).isEqualTo(6);

    int before = stored().size();
    HttpResponse<String> again = c.post("/api/approve", "{\"runId\":\"ops-1/turn-6\"}", c.samePage(csrf));
    assertThat(again.statusCode()).isEqualTo(404);
    assertThat(Json.parse(again.body()).path("error").asText()).isEqualTo("notFound");
    assertThat(Json.parse(again.body()).path("message").asText()).isEqualTo("run ops-1/turn-6 is not awaiting");
    assertThat(App.DEPLOYS.get()).isEqualTo(1);
    assertThat(stored()).hasSize(before);
    assertThat(Json.parse(c.get("/api/awaiting").body()).path("awaiting")).isEmpty();
  }

  @Test
  void denyThroughHttpNeedsAReasonAndNeverRunsTheTool() throws Exception {
    WebConsole console = start();
    ConsoleClient c = new ConsoleClient(console);
    String csrf = c.pageToken();
    int before = stored().size();
    HttpResponse<String> noReason = c.post("/api/deny", "{\"runId\":\"ops-1/turn-6\"}", c.samePage(csrf));
    assertThat(noReason.statusCode()).isEqualTo(400);
    assertThat(stored()).hasSize(before);
    HttpResponse<String> denied = c.post("/api/deny", "{\"runId\":\"ops-1/turn-6\",\"reason\":\"not tonight\"}", c.samePage(csrf));
    assertThat(denied.statusCode()).as(denied.body()).isEqualTo(200);
    assertThat(Json.parse(denied.body()).path("decision").asText()).isEqualTo("denied");
    assertThat(Json.parse(denied.body()).path("reason").asText()).isEqualTo("not tonight");
    assertThat(App.DEPLOYS.get()).isZero();
    assertThat(stored().stream().filter(e -> e.type().equals("tool/result") && e.data().path("tool").asText().equals("deploy")))
        .singleElement().satisfies(e -> assertThat(e.data().path("isError").asBoolean()).isTrue());
  }

  @Test
  void crossSiteAnswersAreRefusedAndWriteNothing() throws Exception {
    WebConsole console = start();
    ConsoleClient c = new ConsoleClient(console);
    String csrf = c.pageToken();
    int before = stored().size();
    String body = "{\"runId\":\"ops-1/turn-6\"}";
    assertRefused(c.post("/api/approve", body, "Content-Type", "application/json", "Origin", c.origin()), 403, "csrf");
    assertRefused(c.post("/api/approve", body, "Content-Type", "application/json", "Origin", c.origin(),
        WebConsole.CSRF_HEADER, csrf + "x"), 403, "csrf");
    assertRefused(c.post("/api/approve", body, "Content-Type", "application/json", "Origin", "http://evil.example",
        WebConsole.CSRF_HEADER, csrf), 403, "crossSite");
    assertRefused(c.post("/api/approve", body, "Content-Type", "application/json", WebConsole.CSRF_HEADER, csrf), 403, "crossSite");
    // a form post cannot carry JSON's content type
    assertRefused(c.post("/api/approve", "runId=ops-1/turn-6", "Content-Type", "application/x-www-form-urlencoded",
        "Origin", c.origin(), WebConsole.CSRF_HEADER, csrf), 415, "usage");
    HttpResponse<String> viaGet = c.get("/api/approve?runId=ops-1/turn-6");
    assertRefused(viaGet, 405, "methodNotAllowed");
    assertThat(viaGet.headers().firstValue("Allow")).hasValue("POST");
    assertThat(stored()).hasSize(before);
    assertThat(App.DEPLOYS.get()).isZero();
    assertThat(Json.parse(c.get("/api/awaiting").body()).path("awaiting")).hasSize(1);
  }

  @Test
  void aForeignHostHeaderOnLoopbackIsRefused() throws Exception {
    WebConsole console = start();
    // a DNS name of another site rebound to 127.0.0.1 arrives with that name as Host
    String response = raw(console, "GET /api/sessions HTTP/1.1\r\nHost: evil.example:" + console.uri().getPort() + "\r\nConnection: close\r\n\r\n");
    assertThat(response).startsWith("HTTP/1.1 403").contains("\"error\":\"badHost\"").doesNotContain("ops-1");
    assertThat(raw(console, "GET /api/sessions HTTP/1.1\r\nHost: localhost:" + console.uri().getPort() + "\r\nConnection: close\r\n\r\n"))
        .startsWith("HTTP/1.1 200").contains("ops-1");
  }

  private static String raw(WebConsole c, String request) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), c.uri().getPort())) {
      s.setSoTimeout(20_000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void withoutASetupAnAnswerIsRefusedWithTheCommandLinesMessage() throws Exception {
    ConsoleClient c = new ConsoleClient(start(false, InetAddress.getLoopbackAddress(), Optional.empty()));
    assertThat(Json.parse(c.get("/api/awaiting").body()).path("canAnswer").asBoolean()).isFalse();
    int before = stored().size();
    HttpResponse<String> r = c.post("/api/approve", "{\"runId\":\"ops-1/turn-6\"}", c.samePage(c.pageToken()));
    assertRefused(r, 501, "needsSetup");
    String cliMessage = Fixture.cli("--data-dir", dir.toString(), "approve", PARKED_RUN).err().lines().findFirst().orElseThrow();
    assertThat("horae: " + Json.parse(r.body()).path("message").asText()).isEqualTo(cliMessage);
    assertThat(stored()).hasSize(before);
  }

  @Test
  void anAnswerToASessionAnotherProcessHoldsIsAConflictAndWritesNothing() throws Exception {
    WebConsole console = start();
    ConsoleClient c = new ConsoleClient(console);
    try (HoraeRuntime holder = HoraeRuntime.builder().dataDir(dir).build()) {
      App.wire(holder, true);
      var unused = holder.openAgent(SESSION);
      int before = stored().size();
      HttpResponse<String> r = c.post("/api/approve", "{\"runId\":\"ops-1/turn-6\"}", c.samePage(c.pageToken()));
      assertRefused(r, 409, "held");
      assertThat(Json.parse(r.body()).path("message").asText()).startsWith("session ops-1 is held by another process");
      assertThat(stored()).hasSize(before);
      assertThat(App.DEPLOYS.get()).isZero();
    }
  }

  @Test
  void bindingAnythingButLoopbackNeedsATokenWhichEveryRequestThenCarries() throws Exception {
    InetAddress any = InetAddress.getByName("0.0.0.0");
    assertThatThrownBy(() -> start(true, any, Optional.empty())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a loopback address").hasMessageContaining("--token");
    Fixture.Run refused = Fixture.cli("--data-dir", dir.toString(), "console", "--bind", "0.0.0.0", "--port", "0");
    assertThat(refused.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(refused.err()).contains("0.0.0.0, which is not a loopback address: give --token T");
    Fixture.Run unset = Fixture.cli("--data-dir", dir.toString(), "console", "--bind", "0.0.0.0", "--port", "0",
        "--token-env", "HORAE_TEST_NO_SUCH_VARIABLE");
    assertThat(unset.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(unset.err()).contains("the environment variable HORAE_TEST_NO_SUCH_VARIABLE (--token-env) is not set");

    ConsoleClient local = new ConsoleClient(start(true, any, Optional.of("s3cret")));
    assertRefused(local.get("/api/sessions"), 401, "unauthorized");
    assertRefused(local.get("/api/sessions", "Authorization", "Bearer wrong"), 401, "unauthorized");
    assertRefused(local.get("/"), 401, "unauthorized");
    assertThat(local.get("/api/sessions", "Authorization", "Bearer s3cret").statusCode()).isEqualTo(200);
    HttpResponse<String> opened = local.get("/?token=s3cret");
    assertThat(opened.statusCode()).isEqualTo(303);
    String cookie = opened.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(cookie).startsWith(WebConsole.TOKEN_COOKIE + "=s3cret").contains("HttpOnly").contains("SameSite=Strict");
    assertThat(local.get("/api/sessions", "Cookie", WebConsole.TOKEN_COOKIE + "=s3cret").statusCode()).isEqualTo(200);
    assertRefused(local.get("/?token=nope"), 401, "unauthorized");
    // the token does not stand in for the CSRF token
    int before = stored().size();
    assertRefused(local.post("/api/approve", "{\"runId\":\"ops-1/turn-6\"}", "Authorization", "Bearer s3cret",
        "Content-Type", "application/json", "Origin", local.origin()), 403, "csrf");
    assertThat(stored()).hasSize(before);
  }

  @Test
  void theConsoleCommandServesOnLoopbackUntilInterrupted() throws Exception {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    OutputStream sink = new OutputStream() {
      private final StringBuilder line = new StringBuilder();

      @Override
      public synchronized void write(int b) {
        if (b == '\n') {
          lines.add(line.toString());
          line.setLength(0);
        } else {
          line.append((char) b);
        }
      }
    };
    AtomicInteger exit = new AtomicInteger(-1);
    Thread serving = new Thread(() -> {
      try (PrintStream out = new PrintStream(sink, true, StandardCharsets.UTF_8)) {
        exit.set(Horae.run(List.of("--data-dir", dir.toString(), "console", "--port", "0"), out, out, Fixture.CLI_CLOCK));
      }
    });
    serving.start();
    try {
      String banner = lines.poll(20, TimeUnit.SECONDS);
      assertThat(banner).isNotNull().startsWith("horae console: serving " + dir + " on http://127.0.0.1:")
          .contains("read-only: Approve/Deny need --setup CLASS");
      Matcher m = Pattern.compile("(http://127\\.0\\.0\\.1:\\d+/)").matcher(banner);
      assertThat(m.find()).isTrue();
      URI uri = URI.create(m.group(1));
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri.resolve("/api/sessions")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(Json.parse(r.body()).path("sessions").get(0).path("session").asText()).isEqualTo(SESSION);
    } finally {
      serving.interrupt();
      serving.join(20_000);
    }
    assertThat(serving.isAlive()).isFalse();
    assertThat(exit.get()).isEqualTo(ExitCode.OK);
  }

  // ---- live updates: /api/events, its change checks on a manual clock ----------------------------

  private static final Duration WATCH = Duration.ofSeconds(2);
  private final ManualTime watch = new ManualTime(Instant.parse("2026-12-01T09:05:00Z"));

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

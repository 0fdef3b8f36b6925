package dev.horae.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.agent.TurnOutcome;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.session.Json;
import dev.horae.testkit.time.ManualTime;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * The proof through Spring AI's real OpenAI client ({@code OpenAiChatModel}, the official OpenAI
 * Java SDK over OkHttp) against an OpenAI-compatible endpoint on 127.0.0.1: the model calls
 * {@code schedule_create}, the reminder comes due on the manual clock, the follow-up turn runs
 * through the real client and its reply reaches the unprompted-reply listener; an email the gate
 * schedules is committed by a runtime that stops before performing it, and a new runtime on the
 * same data folder sends it exactly once. The recorded requests show the time reading and the tool
 * schemas on the wire. Jackson 3 (Spring AI) and Jackson 2 (Horae, the OpenAI SDK) share the
 * classpath throughout.
 */
@Timeout(60)
class OpenAiEndToEndTest {

  private static final String ZONE = "Europe/Amsterdam";
  private static final String EMAIL_SCHEMA =
      "{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"},\"subject\":{\"type\":\"string\"}},\"required\":[\"to\",\"subject\"]}";

  private final AtomicInteger sent = new AtomicInteger();
  private final BlockingQueue<TurnOutcome> turnEnds = new LinkedBlockingQueue<>();
  private final BlockingQueue<TurnOutcome> unprompted = new LinkedBlockingQueue<>();

  /** The application's own tool, a plain Spring AI callback. */
  private ToolCallback sendEmail() {
    ToolDefinition definition = ToolDefinition.builder().name("send_email").description("Sends an email")
        .inputSchema(EMAIL_SCHEMA).build();
    return new ToolCallback() {
      @Override
      public ToolDefinition getToolDefinition() {
        return definition;
      }

      @Override
      public String call(String toolInput) {
        sent.incrementAndGet();
        return "sent to " + Json.parse(toolInput).path("to").asText();
      }
    };
  }

  private HoraeRuntime open(Path dir, ManualTime time, FakeOpenAi api, boolean dispatch) {
    return open(dir, time, new ArmedTimers(time), api, dispatch);
  }

  private HoraeRuntime open(Path dir, ManualTime time, ArmedTimers timers, FakeOpenAi api, boolean dispatch) {
    OpenAiChatModel chatModel = OpenAiChatModel.builder()
        .options(OpenAiChatOptions.builder().baseUrl(api.baseUrl()).apiKey("test-key").model("gpt-test").maxRetries(0).build())
        .build();
    SpringAiModelPort port = SpringAiModelPort.of(chatModel);
    assertThat(port.streams()).as("OpenAiChatModel streams").isTrue();
    HoraeRuntime horae = HoraeRuntime.builder().dataDir(dir).clock(time).timers(timers)
        .model(port).dispatchScheduledActions(dispatch).build();
    var unusedTools = SpringAiTools.register(horae.tools(), sendEmail());
    var unusedGate = horae.gates().register((call, state) -> CompletableFuture.completedFuture(
        call.toolId().equals("send_email") ? GateOutcome.schedule("email-" + call.callId()) : GateOutcome.allow()));
    horae.install(TimeContextPlugin.create(TimeContextConfig.builder().timeZone(ZONE).build()));
    horae.install(SchedulePlugin.create());
    var unusedEnds = horae.agents().onTurnEnd(turnEnds::add);
    var unusedReplies = horae.onUnpromptedReply(unprompted::add);
    return horae;
  }

  private TurnOutcome nextTurnEnd() throws InterruptedException {
    TurnOutcome o = turnEnds.poll(20, TimeUnit.SECONDS);
    if (o == null) {
      throw new AssertionError("no turn ended within 20 s");
    }
    return o;
  }

  @Test
  void aReminderAndAScheduledEmailThroughTheRealOpenAiClient(@TempDir Path dir) throws Exception {
    assertThat(Class.forName("tools.jackson.databind.json.JsonMapper")).as("Jackson 3, Spring AI's").isNotNull();
    assertThat(Class.forName("com.fasterxml.jackson.databind.ObjectMapper")).as("Jackson 2, Horae's").isNotNull();
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    try (FakeOpenAi api = new FakeOpenAi()) {
      api.thenCall("call_1", "schedule_create", "{\"after_seconds\":60,\"prompt\":\"Stretch your legs\"}")
          .thenText("I will remind you in a minute.")
          .thenText("Time to stretch your legs!")
          .thenCall("call_2", "send_email", "{\"to\":\"ada@example.com\",\"subject\":\"report\"}");
      ArmedTimers timers = new ArmedTimers(time);
      try (HoraeRuntime first = open(dir, time, timers, api, false)) {
        CompletableFuture<Void> parked = new CompletableFuture<>();
        var unusedAwaiting = first.onAwaiting(a -> parked.complete(null));
        RuntimeAgent agent = first.openAgent("e2e", ZONE);
        first.prompt(agent, "Remind me in a minute to stretch.", ZONE);
        assertThat(nextTurnEnd().reason()).isEqualTo("completed");

        // the reminder comes due once its timer is armed (which may be a moment after the turn's flush)
        timers.awaitArmed(Duration.ofSeconds(60));
        time.advance(Duration.ofSeconds(60));
        TurnOutcome followUp = unprompted.poll(20, TimeUnit.SECONDS);
        if (followUp == null) {
          throw new AssertionError("the reminder's reply never reached the listener");
        }
        assertThat(followUp.finalText()).isEqualTo("Time to stretch your legs!");
        assertThat(nextTurnEnd().unprompted()).isTrue();

        first.prompt(agent, "Email Ada the report.", ZONE);
        parked.get(20, TimeUnit.SECONDS);                        // told once the ticket is durable
        assertThat(agent.parked()).as("the email is committed and parked").isTrue();
        assertThat(first.awaiting()).hasSize(1);
        assertThat(sent).hasValue(0);
        // the model streamed: each answer's text reached the log in the pieces the endpoint sent
        List<String> pieces = agent.session().events().stream().filter(e -> e.type().equals("assistant/chunk"))
            .map(e -> e.data().path("chunk").path("text").asText()).toList();
        assertThat(pieces).startsWith("I will r", "emind yo", "u in a m", "inute.");
        assertThat(String.join("", pieces)).isEqualTo("I will remind you in a minute." + "Time to stretch your legs!");
      }

      // a new process on the same folder performs the committed email once, then the turn goes on
      api.thenText("The report is on its way to Ada.");
      try (HoraeRuntime second = open(dir, time, api, true)) {
        RuntimeAgent agent = second.openAgent("e2e", ZONE);
        TurnOutcome resumed = nextTurnEnd();
        assertThat(resumed.reason()).isEqualTo("completed");
        assertThat(resumed.finalText()).isEqualTo("The report is on its way to Ada.");
        assertThat(second.awaiting()).isEmpty();
        agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      }
      try (HoraeRuntime third = open(dir, time, api, true)) {
        third.openAgent("e2e", ZONE).whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
        assertThat(third.awaiting()).isEmpty();
      }
      assertThat(sent).as("performed exactly once across three processes").hasValue(1);
      assertThat(api.left()).isZero();

      List<JsonNode> wire = api.requests();
      assertThat(wire).hasSize(5);
      JsonNode first = wire.get(0);
      assertThat(first.path("model").asText()).isEqualTo("gpt-test");
      assertThat(wire).allSatisfy(r -> assertThat(r.path("stream").asBoolean()).as("streamed").isTrue());
      // the tool schemas reached the wire as the Horae registry holds them
      JsonNode email = tool(first, "send_email");
      assertThat(Json.sameValue(email.path("function").path("parameters"), Json.parse(EMAIL_SCHEMA))).isTrue();
      JsonNode schedule = tool(first, "schedule_create");
      assertThat(schedule.path("function").path("parameters").path("properties").has("after_seconds")).isTrue();
      // the time reading reached the wire as a user message after the prompt
      List<String> userTexts = texts(first, "user");
      assertThat(userTexts.get(0)).isEqualTo("Remind me in a minute to stretch.");
      assertThat(userTexts.get(1)).startsWith("Time sampled while preparing turn 1, step 1: 2026-12-01")
          .contains(ZONE);
      // the tool result went back under the model's call id
      JsonNode second = wire.get(1);
      JsonNode toolMessage = last(second, "tool");
      assertThat(toolMessage.path("tool_call_id").asText()).isEqualTo("call_1");
      assertThat(texts(second, "user").get(texts(second, "user").size() - 1)).startsWith("Time sampled while preparing turn 1, step 2");
      // the follow-up turn carried the reminder and a fresh reading
      List<String> followUpTexts = texts(wire.get(2), "user");
      assertThat(String.join("\n", followUpTexts)).contains("Stretch your legs");
      assertThat(followUpTexts.get(followUpTexts.size() - 1)).startsWith("Time sampled while preparing turn 2, step 1: 2026-12-01");
      // after the restart the email's result is in the request, under its call id
      assertThat(last(wire.get(4), "tool").path("tool_call_id").asText()).isEqualTo("call_2");
      assertThat(last(wire.get(4), "tool").path("content").asText()).isEqualTo("sent to ada@example.com");
    }
  }

  @Test
  void anAbortedTurnCancelsTheStreamingHttpCall(@TempDir Path dir) throws Exception {
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    try (FakeOpenAi api = new FakeOpenAi()) {
      api.thenHeldStream("Let me think about that for a long while.");
      try (HoraeRuntime horae = open(dir, time, api, false)) {
        CompletableFuture<String> firstPiece = new CompletableFuture<>();
        var unusedEvents = horae.sessions().onEvent((session, event) -> {
          if (event.type().equals("assistant/chunk")) {
            firstPiece.complete(event.data().path("chunk").path("text").asText());
          }
        });
        RuntimeAgent agent = horae.openAgent("abort", ZONE);
        horae.prompt(agent, "Think hard.", ZONE);
        assertThat(firstPiece.get(20, TimeUnit.SECONDS)).isEqualTo("Let me t");
        agent.cancelTurn("the user left");
        assertThat(nextTurnEnd().reason()).isEqualTo("aborted");
        api.release.countDown();
        assertThat(api.clientLeft.get(20, TimeUnit.SECONDS)).as("the HTTP stream was closed by the client").isTrue();
        assertThat(agent.session().events()).filteredOn(e -> e.type().equals("assistant/message")).isEmpty();
      }
    }
  }

  private static JsonNode tool(JsonNode request, String name) {
    return StreamSupport.stream(request.path("tools").spliterator(), false)
        .filter(t -> t.path("function").path("name").asText().equals(name))
        .findFirst().orElseThrow(() -> new AssertionError("no tool " + name + " in " + request.path("tools")));
  }

  private static List<String> texts(JsonNode request, String role) {
    List<String> out = new ArrayList<>();
    for (JsonNode m : request.path("messages")) {
      if (m.path("role").asText().equals(role)) {
        out.add(m.path("content").isTextual() ? m.path("content").asText() : m.path("content").toString());
      }
    }
    return out;
  }

  private static JsonNode last(JsonNode request, String role) {
    JsonNode found = null;
    for (JsonNode m : request.path("messages")) {
      if (m.path("role").asText().equals(role)) {
        found = m;
      }
    }
    if (found == null) {
      throw new AssertionError("no " + role + " message in " + request.path("messages"));
    }
    return found;
  }
}

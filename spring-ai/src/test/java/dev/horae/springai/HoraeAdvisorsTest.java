package dev.horae.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.invariant.SessionLogCheck;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import dev.horae.testkit.time.ManualTime;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/** The borrowed loop: a real {@code ChatClient} with its own tool-calling loop and the Horae advisors. */
class HoraeAdvisorsTest {

  /** Answers from a script and keeps every prompt it got. */
  static final class ScriptedChatModel implements ChatModel {
    final Deque<ModelResponse> script = new ArrayDeque<>();
    final List<Prompt> prompts = new ArrayList<>();

    @Override
    public synchronized ChatResponse call(Prompt prompt) {
      prompts.add(prompt);
      ModelResponse next = script.pollFirst();
      return SpringAiMessages.toSpring(next == null ? ModelResponse.text("(script ended)") : next);
    }

    @Override
    public org.springframework.ai.chat.prompt.ChatOptions getOptions() {
      return ToolCallingChatOptions.builder().build();
    }
  }

  private final AtomicInteger deletions = new AtomicInteger();

  private ToolCallback deleteArtifacts() {
    ToolDefinition d = ToolDefinition.builder().name("delete_artifacts").description("Deletes build artifacts")
        .inputSchema("{\"type\":\"object\",\"properties\":{}}").build();
    return new ToolCallback() {
      @Override
      public ToolDefinition getToolDefinition() {
        return d;
      }

      @Override
      public String call(String toolInput) {
        deletions.incrementAndGet();
        return "deleted";
      }
    };
  }

  private static List<String> texts(Prompt p) {
    return p.getInstructions().stream().map(Message::getText).map(t -> t == null ? "" : t).toList();
  }

  @Test
  void aStepThePreStepWaterfallRejectsMakesNoModelCall() {
    try (HoraeRuntime horae = HoraeRuntime.builder().build()) {
      var unusedListener = horae.agents().onPreStep(step -> CompletableFuture.completedFuture(
          new dev.horae.spi.agent.StepDecision.Reject("quiet hours")), true);
      ScriptedChatModel model = new ScriptedChatModel();
      model.script.add(ModelResponse.text("never sent"));
      ChatClient chat = ChatClient.builder(model)
          .defaultAdvisors(HoraeAdvisors.builder(horae).defaultSession("support-7").build())
          .build();
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> chat.prompt().user("Hello").call().content())
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("spring-ai: a pre-step listener rejected step 1 of turn 1 of session support-7 (quiet hours);"
              + " the model call was not made");
      assertThat(model.prompts).isEmpty();
    }
  }

  @Test
  void horaeToolsAndReadingsInsideTheChatClientLoop() {
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time).build()) {
      horae.install(TimeContextPlugin.create(TimeContextConfig.builder().timeZone("Europe/Amsterdam").build()));
      horae.install(SchedulePlugin.create());
      ScriptedChatModel model = new ScriptedChatModel();
      model.script.add(ModelResponse.calls(new ToolCall("m-1", "schedule_create", Json.parse("{\"after_seconds\":600,\"prompt\":\"call Ada\"}"))));
      model.script.add(ModelResponse.text("Reminder set."));
      ChatClient chat = ChatClient.builder(model)
          .defaultAdvisors(HoraeAdvisors.builder(horae).defaultSession("support-42").sessionZone("Europe/Amsterdam").build())
          .build();
      String answer = chat.prompt().user("Remind me in 10 minutes to call Ada.").call().content();
      assertThat(answer).isEqualTo("Reminder set.");
      assertThat(model.prompts).hasSize(2);
      // the Schedule tools were offered, and each model call got its reading last
      ToolCallingChatOptions options = (ToolCallingChatOptions) model.prompts.get(0).getOptions();
      List<ToolCallback> offered = options == null ? null : options.getToolCallbacks();
      assertThat(offered).isNotNull();
      assertThat(java.util.Objects.requireNonNull(offered)).extracting(c -> c.getToolDefinition().name()).contains("schedule_create");
      assertThat(texts(model.prompts.get(0)).get(texts(model.prompts.get(0)).size() - 1))
          .startsWith("Time sampled while preparing turn 1, step 1: 2026-12-01T10:00:00+01:00[Europe/Amsterdam]")
          .endsWith("Elapsed since the preceding model-visible message: unavailable.");
      assertThat(texts(model.prompts.get(1)).get(texts(model.prompts.get(1)).size() - 1))
          .startsWith("Time sampled while preparing turn 1, step 2:");
      // the call ran through the Horae registry: the reminder is in the agent's log
      assertThat(horae.openAgent("support-42").session().events())
          .anyMatch(e -> e.type().equals("schedule/change") && e.data().path("operation").asText().equals("create"));
    }
  }

  @Test
  void eachChatClientCallIsOneTurnOfTheSessionLogWithThePromptSections() {
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time).build()) {
      horae.install(TimeContextPlugin.create(TimeContextConfig.builder().timeZone("Europe/Amsterdam").build()));
      var unusedSection = horae.service(dev.horae.spi.jobs.PromptSections.class).orElseThrow()
          .register(java.util.Optional.empty(), new dev.horae.spi.jobs.PromptSection("house", 10, "Answer briefly."));
      ScriptedChatModel model = new ScriptedChatModel();
      model.script.add(ModelResponse.calls(new ToolCall("m-1", "delete_artifacts", Json.parse("{}"))));
      model.script.add(ModelResponse.text("Deleted."));
      model.script.add(ModelResponse.text("You are welcome."));
      ChatClient chat = ChatClient.builder(model)
          .defaultAdvisors(HoraeAdvisors.builder(horae).defaultSession("support-9").build())
          .build();
      assertThat(chat.prompt().system("You are the build bot.").user("Clean up.").tools(deleteArtifacts()).call().content())
          .isEqualTo("Deleted.");
      time.advance(java.time.Duration.ofSeconds(90));
      assertThat(chat.prompt().system("You are the build bot.").user("Thanks!").call().content()).isEqualTo("You are welcome.");
      // the application's system prompt with the registered sections, once, first
      assertThat(texts(model.prompts.get(0)).get(0)).isEqualTo("You are the build bot.\n\nAnswer briefly.");
      assertThat(model.prompts.get(0).getInstructions())
          .filteredOn(m -> m instanceof org.springframework.ai.chat.messages.SystemMessage).hasSize(1);
      // the log now holds the first call, so the second call's reading measures from it
      assertThat(texts(model.prompts.get(2)).get(texts(model.prompts.get(2)).size() - 1))
          .startsWith("Time sampled while preparing turn 2, step 1:")
          .doesNotContain("unavailable");
      List<String> log = horae.openAgent("support-9").session().events().stream()
          .map(e -> e.type() + (e.type().equals("tool/result") ? " " + e.data().path("content").get(0).path("text").asText() : ""))
          .filter(t -> !t.startsWith("assistant/chunk"))
          .toList();
      assertThat(log).containsExactly(
          "turn/start", "step/start", "user/message", "user/message", "request/header", "assistant/message",
          "tool/call", "tool/result deleted", "step/end",
          "step/start", "user/message", "request/header", "assistant/message", "step/end", "turn/end",
          "turn/start", "step/start", "user/message", "user/message", "request/header", "assistant/message", "step/end", "turn/end");
      assertThat(deletions).hasValue(1);
    }
  }

  /** The event types of a session's log from its first turn on, streaming pieces left out. */
  private static List<String> turnTypes(HoraeRuntime horae, String session) {
    List<String> types = horae.openAgent(session).session().events().stream().map(e -> e.type())
        .filter(t -> !t.equals("assistant/chunk")).toList();
    return types.subList(types.indexOf("turn/start"), types.size());
  }

  @Test
  void aChatClientTurnIsLoggedAsTheRuntimeLogsItsOwnTurnOfTheSameScript() throws Exception {
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    ScriptedChatModel model = new ScriptedChatModel();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time).model(SpringAiModelPort.of(model)).build()) {
      horae.install(TimeContextPlugin.create(TimeContextConfig.builder().timeZone("Europe/Amsterdam").build()));
      var unusedTool = SpringAiTools.register(horae.tools(), deleteArtifacts());
      for (int i = 0; i < 2; i++) {
        model.script.add(ModelResponse.calls(new ToolCall("m-" + i, "delete_artifacts", Json.parse("{}"))));
        model.script.add(ModelResponse.text("Deleted."));
      }
      // the runtime drives one turn of the script ...
      CompletableFuture<dev.horae.runtime.agent.TurnOutcome> ended = new CompletableFuture<>();
      var unusedEnd = horae.agents().onTurnEnd(ended::complete);
      horae.prompt(horae.openAgent("driven"), "Clean up.");
      assertThat(ended.get(20, java.util.concurrent.TimeUnit.SECONDS).reason()).isEqualTo("completed");
      // ... and a ChatClient with the advisors runs the same script
      ChatClient chat = ChatClient.builder(model).defaultAdvisors(HoraeAdvisors.builder(horae).defaultSession("borrowed").build()).build();
      assertThat(chat.prompt().user("Clean up.").call().content()).isEqualTo("Deleted.");

      assertThat(turnTypes(horae, "borrowed")).isEqualTo(turnTypes(horae, "driven")).containsExactly(
          "turn/start", "step/start", "user/message", "user/message", "request/header", "assistant/message",
          "tool/call", "tool/result", "step/end",
          "step/start", "user/message", "request/header", "assistant/message", "step/end", "turn/end");
      assertThat(deletions).hasValue(2);
      for (String s : List.of("driven", "borrowed")) {
        dev.horae.spi.session.Session session = horae.openAgent(s).session();
        assertThat(SessionLogCheck.check(session.header(), session.events())).as(s).isEmpty();
      }
    }
  }

  @Test
  void aGateThatAsksFailsTheCallAndTheToolNeverRuns() {
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time).processZone(() -> java.time.ZoneOffset.UTC).build()) {
      List<String> gated = new ArrayList<>();
      var unused = horae.gates().register((call, state) -> {
        gated.add(call.callId() + "@" + state.threadId());
        return CompletableFuture.completedFuture(call.toolId().equals("delete_artifacts")
            ? GateOutcome.requireConfirmation("confirm-" + call.callId()) : GateOutcome.allow());
      });
      ScriptedChatModel model = new ScriptedChatModel();
      model.script.add(ModelResponse.calls(new ToolCall("m-7", "delete_artifacts", Json.parse("{}"))));
      ChatClient chat = ChatClient.builder(model)
          .defaultAdvisors(HoraeAdvisors.builder(horae).build())
          .build();
      assertThatThrownBy(() -> chat.prompt().user("Clean up.").tools(deleteArtifacts())
              .advisors(a -> a.param(HoraeAdvisors.SESSION, "ops")).call().content())
          .isInstanceOf(BorrowedLoopGateException.class)
          .hasMessageStartingWith(
              "spring-ai: the gate answered ask for tool \"delete_artifacts\" (call m-7): a ChatClient loop cannot park a call;");
      assertThat(deletions).hasValue(0);
      assertThat(gated).containsExactly("m-7@ops");
      assertThat(model.prompts).hasSize(1);
      // the turn is in the log, whole: the call answered as not performed, the turn ended error
      dev.horae.spi.session.Session ops = horae.openAgent("ops").session();
      List<dev.horae.spi.session.SessionEvent> log = ops.events();
      assertThat(SessionLogCheck.check(ops.header(), log)).isEmpty();
      assertThat(log).filteredOn(e -> e.type().equals("tool/result")).singleElement()
          .satisfies(e -> assertThat(e.data().path("content").get(0).path("text").asText()).startsWith("Error: not performed: "));
      assertThat(log.get(log.size() - 1).type()).isEqualTo("turn/end");
      assertThat(log.get(log.size() - 1).data().path("reason").asText()).isEqualTo("error");
    }
  }

  @Test
  void aBlockedCallAnswersTheModelAndACallWithoutSessionIsRefused() {
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time).processZone(() -> java.time.ZoneOffset.UTC).build()) {
      var unused = horae.gates().register((call, state) -> CompletableFuture.completedFuture(GateOutcome.block("not on Fridays")));
      ScriptedChatModel model = new ScriptedChatModel();
      model.script.add(ModelResponse.calls(new ToolCall("m-1", "delete_artifacts", Json.parse("{}"))));
      model.script.add(ModelResponse.text("I could not delete them."));
      ChatClient chat = ChatClient.builder(model).defaultAdvisors(HoraeAdvisors.builder(horae).build()).build();
      assertThat(chat.prompt().user("Clean up.").tools(deleteArtifacts())
          .advisors(a -> a.param(HoraeAdvisors.SESSION, "ops")).call().content()).isEqualTo("I could not delete them.");
      assertThat(deletions).hasValue(0);
      assertThat(model.prompts.get(1).getInstructions().stream()
          .filter(m -> m instanceof org.springframework.ai.chat.messages.ToolResponseMessage)
          .flatMap(m -> ((org.springframework.ai.chat.messages.ToolResponseMessage) m).getResponses().stream())
          .map(org.springframework.ai.chat.messages.ToolResponseMessage.ToolResponse::responseData))
          .containsExactly("Error: blocked: not on Fridays");
      assertThatThrownBy(() -> chat.prompt().user("hi").call().content())
          .hasMessageContaining("spring-ai: no Horae session: pass the advisor parameter \"horae.session\"");
    }
  }
}

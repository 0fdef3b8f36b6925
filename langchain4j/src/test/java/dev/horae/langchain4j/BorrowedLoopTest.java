package dev.horae.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.invariant.Companions;
import dev.horae.invariant.SessionLogCheck;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.agent.TurnOutcome;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.testkit.time.ManualTime;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The borrowed loop: an application's own AiServices assistant, configured with one call, calls
 * Horae's Schedule tool through the gate chain with a time reading before each model call, every
 * call recorded in the session log as a well-formed turn; the reminder it set later wakes the
 * agent as a runtime-driven turn; a gate that asks for confirmation fails the call with the
 * documented error and the tool never runs.
 */
class BorrowedLoopTest {

  private static final String ZONE = "Europe/Amsterdam";

  /** The application's AiServices interface. */
  interface Assistant {
    String chat(@MemoryId String session, @dev.langchain4j.service.UserMessage String text);
  }

  /** A LangChain4j chat model answering from the request's newest messages. */
  static final class ScriptedChatModel implements ChatModel {
    final List<ChatRequest> seen = new CopyOnWriteArrayList<>();

    @Override
    public ChatResponse doChat(ChatRequest request) {
      seen.add(request);
      List<ChatMessage> messages = request.messages();
      int at = messages.size() - 1;
      while (at > 0 && messages.get(at) instanceof UserMessage u && u.singleText().startsWith("Time sampled while preparing")) {
        at--;
      }
      ChatMessage last = messages.get(at);
      AiMessage answer;
      if (last instanceof ToolExecutionResultMessage r) {
        answer = AiMessage.from("done: " + r.text());
      } else {
        String text = ((UserMessage) last).singleText();
        if (text.contains("Stretch")) {
          answer = AiMessage.from("Time to stretch!");
        } else if (text.contains("Remind me")) {
          answer = AiMessage.from(ToolExecutionRequest.builder().id("c1").name("schedule_create")
              .arguments("{\"after_seconds\":60,\"prompt\":\"Stretch\"}").build());
        } else if (text.contains("Delete")) {
          answer = AiMessage.from(ToolExecutionRequest.builder().id("c2").name("delete_artifacts").arguments("{}").build());
        } else {
          answer = AiMessage.from("hello");
        }
      }
      return ChatResponse.builder().aiMessage(answer).build();
    }
  }

  private final ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
  private final ScriptedChatModel model = new ScriptedChatModel();
  private final AtomicInteger deletes = new AtomicInteger();
  private HoraeRuntime horae;
  private BorrowedLoop loop;
  private Assistant assistant;

  @BeforeEach
  void setUp() {
    horae = HoraeRuntime.builder().clock(time).timers(time).model(LangChain4jModel.of(model)).build();
    var unusedCompanions = Companions.registerAll(horae);
    TimeContextConfig config = TimeContextConfig.builder().timeZone(ZONE).build();
    horae.install(TimeContextPlugin.create(config));
    horae.install(SchedulePlugin.create());
    horae.tools().register(ToolDefinition.builder("delete_artifacts").description("Deletes build artifacts")
        .body((args, exec) -> {
          deletes.incrementAndGet();
          return CompletableFuture.completedFuture(Json.parse("{\"deleted\":3}"));
        }).build());
    var unusedGate = horae.gates().register((call, state) -> CompletableFuture.completedFuture(
        call.toolId().equals("delete_artifacts") ? GateOutcome.requireConfirmation("ask-" + call.callId()) : GateOutcome.allow()));
    loop = BorrowedLoop.create(horae, Optional.of(ZONE));
    assistant = loop.configure(AiServices.builder(Assistant.class).chatModel(model)).build();
  }

  @AfterEach
  void tearDown() {
    horae.close();
  }

  @Test
  void anAiServicesCallUsesScheduleWithTimeReadingsAndIsRecordedAsATurn() throws Exception {
    assertThat(assistant.chat("s1", "Remind me in a minute to stretch.")).startsWith("done: {\"id\":\"schedule-1\"");

    ChatRequest first = model.seen.get(0);
    assertThat(first.toolSpecifications()).extracting(s -> s.name()).contains("schedule_create", "delete_artifacts");
    assertThat(first.messages()).hasSize(2);
    assertThat(((UserMessage) first.messages().get(0)).singleText()).isEqualTo("Remind me in a minute to stretch.");
    assertThat(((UserMessage) first.messages().get(1)).singleText()).startsWith("Time sampled while preparing turn 1, step 1: ");
    ChatRequest second = model.seen.get(1);
    assertThat(((UserMessage) second.messages().get(second.messages().size() - 1)).singleText())
        .startsWith("Time sampled while preparing turn 1, step 2: ");

    RuntimeAgent agent = horae.openAgent("s1");
    List<SessionEvent> log = agent.session().events();
    assertThat(log).extracting(SessionEvent::type).contains("schedule/change").startsWith("turn/start").endsWith("turn/end");
    assertThat(SessionLogCheck.check(agent.session().header(), log)).isEmpty();
    // the memory AiServices reads is the log's history
    assertThat(loop.memoryStore().getMessages("s1")).hasSize(6).last().isInstanceOf(AiMessage.class);

    // the reminder wakes the agent: a runtime-driven turn through the same LangChain4j model
    CompletableFuture<TurnOutcome> reply = new CompletableFuture<>();
    var unused = horae.onUnpromptedReply(reply::complete);
    time.advance(Duration.ofSeconds(60));
    assertThat(reply.get(30, TimeUnit.SECONDS).finalText()).isEqualTo("Time to stretch!");
    assertThat(SessionLogCheck.check(agent.session().header(), agent.session().events())).isEmpty();
    assertThat(agent.session().events().stream().filter(e -> e.type().equals("turn/start")))
        .extracting(e -> e.data().path("turn").asLong()).containsExactly(1L, 2L);
  }

  /** The event types of a session's log from its first turn on, streaming pieces left out. */
  private List<String> turnTypes(String session) {
    List<String> types = horae.openAgent(session).session().events().stream().map(SessionEvent::type)
        .filter(t -> !t.equals("assistant/chunk")).toList();
    return types.subList(types.indexOf("turn/start"), types.size());
  }

  @Test
  void anAiServicesTurnIsLoggedAsTheRuntimeLogsItsOwnTurnOfTheSameScript() throws Exception {
    CompletableFuture<TurnOutcome> ended = new CompletableFuture<>();
    var unusedEnd = horae.agents().onTurnEnd(ended::complete);
    horae.prompt(horae.openAgent("driven", ZONE), "Remind me in a minute to stretch.");
    assertThat(ended.get(30, TimeUnit.SECONDS).reason()).isEqualTo("completed");
    assertThat(assistant.chat("borrowed", "Remind me in a minute to stretch.")).startsWith("done: {\"id\":\"schedule-1\"");

    assertThat(turnTypes("borrowed")).isEqualTo(turnTypes("driven")).containsExactly(
        "turn/start", "step/start", "user/message", "user/message", "request/header", "assistant/message",
        "tool/call", "schedule/change", "tool/result", "step/end",
        "step/start", "user/message", "request/header", "assistant/message", "step/end", "turn/end");
    for (String s : List.of("driven", "borrowed")) {
      RuntimeAgent agent = horae.openAgent(s);
      assertThat(SessionLogCheck.check(agent.session().header(), agent.session().events())).as(s).isEmpty();
    }
  }

  @Test
  void aConfirmationVerdictFailsTheCallWithTheDocumentedErrorAndRunsNothing() {
    assertThatThrownBy(() -> assistant.chat("s2", "Delete the old builds."))
        .isInstanceOfSatisfying(BorrowedLoopException.class, e -> {
          assertThat(e.code()).isEqualTo(BorrowedLoopException.PARKING_UNSUPPORTED);
          assertThat(e.getMessage()).startsWith("a gate answered ask for tool \"delete_artifacts\" (call c2)")
              .contains("runtime-driven mode");
        });
    assertThat(deletes).hasValue(0);
    RuntimeAgent agent = horae.openAgent("s2");
    List<SessionEvent> log = agent.session().events();
    assertThat(log.get(log.size() - 1).data().path("reason").asText()).isEqualTo("error");
    assertThat(log).filteredOn(e -> e.type().equals("tool/result")).singleElement()
        .satisfies(e -> assertThat(e.data().path("content").get(0).path("text").asText()).startsWith("Error: not performed: a gate answered ask"));
    assertThat(SessionLogCheck.check(agent.session().header(), log)).isEmpty();
    // the agent is free again, and the history stays well formed for the next call
    assertThat(assistant.chat("s2", "Hi")).isEqualTo("hello");
  }

  @Test
  void eachModelCallRunsTheRuntimesOwnPreStepWaterfallAndARejectedStepMakesNoCall() {
    // a listener of the application's own, prepended, sees the step and adds a message of its own
    java.util.List<String> steps = new java.util.concurrent.CopyOnWriteArrayList<>();
    var unusedListener = horae.agents().onPreStep(step -> {
      steps.add(step.turn() + "." + step.step());
      if (step.messages().stream().anyMatch(m -> m.text().contains("forbidden"))) {
        return CompletableFuture.completedFuture(new dev.horae.spi.agent.StepDecision.Reject("forbidden words"));
      }
      return step.next();
    }, true);

    assertThat(assistant.chat("s4", "Hi")).isEqualTo("hello");
    assertThat(steps).containsExactly("1.1");
    // the time-context listener ran in the same waterfall: its reading reached the model
    assertThat(((UserMessage) model.seen.get(model.seen.size() - 1).messages().get(1)).singleText())
        .startsWith("Time sampled while preparing turn 1, step 1: ");

    int calls = model.seen.size();
    assertThatThrownBy(() -> assistant.chat("s4", "Say something forbidden."))
        .isInstanceOfSatisfying(BorrowedLoopException.class, e -> {
          assertThat(e.code()).isEqualTo(BorrowedLoopException.STEP_REJECTED);
          assertThat(e.getMessage()).isEqualTo("a pre-step listener rejected step 1 of turn 2 of session \"s4\"; the model call was not made");
        });
    assertThat(model.seen).hasSize(calls);
    RuntimeAgent agent = horae.openAgent("s4");
    assertThat(SessionLogCheck.check(agent.session().header(), agent.session().events())).isEmpty();
  }

  @Test
  void theMemoryIsAppendOnly() {
    assertThatThrownBy(() -> loop.memoryStore().deleteMessages("s3"))
        .isInstanceOfSatisfying(BorrowedLoopException.class, e -> assertThat(e.code()).isEqualTo(BorrowedLoopException.APPEND_ONLY));
  }
}

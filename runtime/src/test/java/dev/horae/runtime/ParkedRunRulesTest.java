package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.gate.AwaitReason;
import dev.horae.gate.EndCause;
import dev.horae.gate.EnvMergeException;
import dev.horae.gate.GateJson;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.runtime.tool.RuntimeToolRegistry;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import dev.horae.store.MemorySessionStore;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What an embedder does to a parked turn's Run besides answering it, and the waits a gate does not
 * decide: cancel and stop (gate specification §9.5), ticket deadlines (§11), client-executed tools
 * (§8.4) and the action kinds of gate plugins (§10.4).
 */
@Timeout(30)
class ParkedRunRulesTest {

  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

  private static ToolDefinition counting(String name, AtomicInteger runs) {
    return TurnEngineRulesTest.counting(name, runs);
  }

  private static HoraeRuntimeTest.Recording callThenDone(String tool) {
    return new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", tool, Json.parse("{}"))))
        .then(ModelResponse.text("done"));
  }

  private static void gate(HoraeRuntime horae, GateOutcome outcome) {
    var unused = horae.gates().register(ToolGate.named("fixed", (call, state) -> CompletableFuture.completedFuture(outcome)));
  }

  /** Opens the session's agent and prompts it; returns once its call awaits. */
  private static RuntimeAgent parked(HoraeRuntime horae, String sessionId) throws InterruptedException {
    return TurnEngineRulesTest.parkedAgent(horae, sessionId);
  }

  private static ResumeOutcome get(java.util.concurrent.CompletionStage<ResumeOutcome> stage) throws Exception {
    return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private static String code(ResumeOutcome o) {
    assertThat(o).isInstanceOf(ResumeOutcome.Rejected.class);
    return ((ResumeOutcome.Rejected) o).code();
  }

  private static List<SessionEvent> events(RuntimeAgent agent, String type) {
    return agent.session().events().stream().filter(e -> e.type().equals(type)).toList();
  }

  private static String lastRunFact(RuntimeAgent agent) {
    List<SessionEvent> commits = events(agent, "gate/commit");
    return commits.get(commits.size() - 1).data().path("commit").path("run").toString();
  }

  private static String resultText(SessionEvent toolResult) {
    return toolResult.data().path("content").get(0).path("text").asText();
  }

  // ---- §9.5 cancel and stop --------------------------------------------------------------------

  @Test
  void aCancelledParkedRunEndsCancelledItsTicketIsGoneItsTurnEndsAbortedAndASecondCancelChangesNothing() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(InstantSource.fixed(START)).model(callThenDone("risky")).build()) {
      horae.tools().register(counting("risky", runs));
      gate(horae, GateOutcome.requireConfirmation("confirm-1"));
      RuntimeAgent agent = parked(horae, "s-cancel");
      String runId = horae.awaiting().get(0).runId();

      ResumeOutcome cancelled = get(horae.cancel(runId));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);

      assertThat(cancelled).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.cancelled())));
      assertThat(horae.awaiting()).isEmpty();
      assertThat(agent.parked()).isFalse();
      assertThat(events(agent, EventTypes.TOOL_RESULT)).singleElement().satisfies(r -> assertThat(resultText(r)).isEqualTo("Error: aborted"));
      List<SessionEvent> all = agent.session().events();
      assertThat(all.get(all.size() - 1).type()).isEqualTo(EventTypes.TURN_END);
      assertThat(all.get(all.size() - 1).data().path("reason").asText()).isEqualTo("aborted");
      assertThat(lastRunFact(agent)).contains("\"type\":\"ended\"").contains("\"cause\":\"cancelled\"");
      int length = all.size();

      assertThat(code(get(horae.approve(runId)))).isEqualTo("notAwaiting");
      assertThat(get(horae.cancel(runId))).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.cancelled())));
      assertThat(get(horae.stop(runId, "late"))).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.cancelled())));
      assertThat(agent.session().events()).hasSize(length);
    }
    assertThat(runs).hasValue(0);
  }

  @Test
  void aStoppedScheduledRunEndsStoppedWithTheReasonItsTurnEndsBlockedAndNothingIsPerformedAfter() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(InstantSource.fixed(START)).model(callThenDone("later"))
        .dispatchScheduledActions(false).build()) {
      horae.tools().register(counting("later", runs));
      gate(horae, GateOutcome.schedule("sched-1"));
      RuntimeAgent agent = parked(horae, "s-stop");
      String runId = horae.awaiting().get(0).runId();

      ResumeOutcome stopped = get(horae.stop(runId, "budget"));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);

      assertThat(stopped).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.stopped("budget"))));
      assertThat(events(agent, EventTypes.TOOL_RESULT)).singleElement()
          .satisfies(r -> assertThat(resultText(r)).isEqualTo("Error: stopped: budget"));
      assertThat(events(agent, EventTypes.TURN_END)).singleElement()
          .satisfies(e -> assertThat(e.data().path("reason").asText()).isEqualTo("blocked"));
      assertThat(get(horae.cancel(runId))).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.stopped("budget"))));
      assertThat(get(horae.agents().perform(runId))).satisfies(o -> assertThat(code(o)).isEqualTo("notAwaiting"));
      assertThat(horae.performScheduledActions().toCompletableFuture().get(20, TimeUnit.SECONDS)).isEmpty();
    }
    assertThat(runs).hasValue(0);
  }

  @Test
  void aRunThatNeverCommittedOrNoOpenAgentHoldsCannotBeCancelled() throws Exception {
    MemorySessionStore store = new MemorySessionStore();
    String runId;
    try (HoraeRuntime first = HoraeRuntime.builder().store(store).clock(InstantSource.fixed(START)).model(callThenDone("risky")).build()) {
      first.tools().register(counting("risky", new AtomicInteger()));
      gate(first, GateOutcome.requireConfirmation("confirm-1"));
      parked(first, "s-closed");
      runId = first.awaiting().get(0).runId();
      assertThat(code(get(first.cancel("s-closed/turn-9")))).isEqualTo("notAwaiting");
    }
    try (HoraeRuntime second = HoraeRuntime.builder().store(store).clock(InstantSource.fixed(START)).build()) {
      assertThat(code(get(second.cancel(runId)))).isEqualTo("notAwaiting");
      second.openAgent("s-closed");
      second.closeSession("s-closed");
      assertThat(code(get(second.stop(runId, "budget")))).isEqualTo("agentNotOpen");
    }
  }

  // ---- §11 deadlines ---------------------------------------------------------------------------

  @Test
  void aTicketCarriesTheDeadlineAndAPerformPastItIsExpiredRunsNothingAndKeepsTheTicket() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    AtomicLong now = new AtomicLong(START.toEpochMilli());
    InstantSource clock = () -> Instant.ofEpochMilli(now.get());
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(clock).model(callThenDone("later"))
        .dispatchScheduledActions(false).awaitDeadline(Duration.ofSeconds(10)).build()) {
      horae.tools().register(counting("later", runs));
      gate(horae, GateOutcome.schedule("sched-1"));
      RuntimeAgent agent = parked(horae, "s-deadline");
      AwaitingCall call = horae.awaiting().get(0);
      long deadline = START.toEpochMilli() + 10_000;
      assertThat(call.ticket().deadlineMs()).hasValue(deadline);

      now.set(deadline + 1);
      assertThat(horae.performScheduledActions().toCompletableFuture().get(20, TimeUnit.SECONDS))
          .singleElement().satisfies(o -> assertThat(code(o)).isEqualTo("expired"));
      assertThat(code(get(horae.approve(call.runId())))).isEqualTo("expired");
      assertThat(runs).hasValue(0);
      assertThat(horae.awaiting()).singleElement().satisfies(c -> assertThat(c.ticket()).isEqualTo(call.ticket()));

      now.set(deadline);
      assertThat(get(horae.agents().perform(call.runId()))).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(runs).hasValue(1);
    }
  }

  @Test
  void theDispatcherStopsAScheduledActionItFindsPastItsDeadline() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    AtomicLong now = new AtomicLong(START.toEpochMilli());
    InstantSource clock = () -> Instant.ofEpochMilli(now.get());
    MemorySessionStore store = new MemorySessionStore();
    try (HoraeRuntime first = HoraeRuntime.builder().store(store).clock(clock).model(callThenDone("later"))
        .dispatchScheduledActions(false).awaitDeadline(Duration.ofSeconds(10)).build()) {
      first.tools().register(counting("later", runs));
      gate(first, GateOutcome.schedule("sched-1"));
      parked(first, "s-expired");
    }
    now.addAndGet(Duration.ofMinutes(1).toMillis());
    List<String> warned = Collections.synchronizedList(new ArrayList<>());
    try (HoraeRuntime second = HoraeRuntime.builder().store(store).clock(clock).warnings((m, c) -> warned.add(m))
        .model(callThenDone("later")).build()) {
      second.tools().register(counting("later", runs));
      RuntimeAgent agent = second.openAgent("s-expired");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(lastRunFact(agent)).contains("\"cause\":\"stopped\"").contains("scheduled action expired");
      assertThat(second.awaiting()).isEmpty();
      assertThat(warned).isEmpty();
    }
    assertThat(runs).hasValue(0);
  }

  @Test
  void anAwaitDeadlineMustBeMoreThanZero() {
    assertThatThrownBy(() -> HoraeRuntime.builder().awaitDeadline(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("awaitDeadline must be more than zero: PT0S");
    assertThatThrownBy(() -> HoraeRuntime.builder().awaitDeadline(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("awaitDeadline must be more than zero: PT-1S");
    // the shortest deadline is accepted: a millisecond after the commit
    org.assertj.core.api.Assertions.assertThatCode(() -> HoraeRuntime.builder().awaitDeadline(Duration.ofMillis(1)))
        .doesNotThrowAnyException();
  }

  // ---- §8.4 client-executed tools --------------------------------------------------------------

  @Test
  void aClientExecutedCallBypassesTheGatesParksForTheClientAndOnlyItsOwnCallIdAnswersIt() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    List<String> gated = Collections.synchronizedList(new ArrayList<>());
    HoraeRuntimeTest.Recording model = callThenDone("lookup");
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(InstantSource.fixed(START)).model(model).build()) {
      var unusedTool = horae.tools().registerClientExecuted(counting("lookup", runs));
      var unusedGate = horae.gates().register(ToolGate.named("watch", (call, state) -> {
        gated.add(call.toolId());
        return CompletableFuture.completedFuture(GateOutcome.allow());
      }));
      RuntimeAgent agent = parked(horae, "s-client");
      AwaitingCall call = horae.awaiting().get(0);
      assertThat(call.reason()).isEqualTo(AwaitReason.EXTERNAL_EVENT);
      assertThat(call.callId()).isEqualTo("c1");
      assertThat(GateJson.encodeTicket(call.ticket()).path("target").path("reason").asText()).isEqualTo("clientExecution");
      assertThat(gated).isEmpty();

      ResumeOutcome other = get(horae.resume(ResumeCommand.fromTicket(call.ticket(),
          new ResumeResult.ToolResult(ToolOutput.success("c2", TextNode.valueOf("x"))), START.toEpochMilli())));
      assertThat(code(other)).isEqualTo("toolCallMismatch");
      assertThat(code(get(horae.approve(call.runId())))).isEqualTo("resultKindMismatch");

      ResumeOutcome answered = get(horae.resume(ResumeCommand.fromTicket(call.ticket(),
          new ResumeResult.ToolResult(ToolOutput.success("c1", TextNode.valueOf("client says hi"))), START.toEpochMilli())));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);

      assertThat(answered).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
      assertThat(events(agent, EventTypes.TOOL_RESULT)).singleElement()
          .satisfies(r -> assertThat(resultText(r)).contains("client says hi"));
      assertThat(model.requests.get(1).messages()).anySatisfy(m -> assertThat(m).isInstanceOfSatisfying(ChatMessage.ToolOutcome.class,
          o -> assertThat(o.text()).contains("client says hi")));
      assertThat(gated).isEmpty();
    }
    assertThat(runs).hasValue(0);
  }

  @Test
  void aClientExecutedToolReachedThroughTheRegistryIsAnErrorAndItsBodyNeverRuns() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    RuntimeToolRegistry tools = new RuntimeToolRegistry();
    var registration = tools.registerClientExecuted(counting("lookup", runs));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(InstantSource.fixed(START)).build()) {
      RuntimeAgent agent = horae.openAgent("s-direct");
      assertThat(tools.isClientExecuted(agent, "lookup")).isTrue();
      ToolResult result = tools.call(new ToolInvocation(agent, new ToolCall("c1", "lookup", Json.parse("{}"))), AbortSignal.never())
          .toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(result.isError()).isTrue();
      assertThat(result.text()).isEqualTo("Error: tool \"lookup\" is executed by the client");
      assertThat(result.code()).hasValue(RuntimeToolRegistry.CLIENT_EXECUTED);
      registration.close();
      assertThat(tools.isClientExecuted(agent, "lookup")).isFalse();
      assertThat(tools.visibleTo(agent)).isEmpty();
    }
    assertThat(runs).hasValue(0);
  }

  // ---- §10.4 action kinds ----------------------------------------------------------------------

  @Test
  void anActionKindAGatePluginContributesWithinItsBoundParksAndIsPerformedOnce() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    dev.horae.gate.Plugin ops = GateJson.decodePlugin(Json.parse(
        "{\"manifest\":{\"id\":\"ops\",\"bound\":{\"actionKinds\":{\"type\":\"any\"}}},\"contributions\":{\"actionKinds\":[\"deploy\"]}}"));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(InstantSource.fixed(START)).model(callThenDone("ship"))
        .dispatchScheduledActions(false).gatePlugins(List.of(ops)).build()) {
      horae.tools().register(counting("ship", runs));
      gate(horae, GateOutcome.schedule("sched-1", "deploy"));
      RuntimeAgent agent = parked(horae, "s-kind");
      assertThat(horae.awaiting()).singleElement().satisfies(c -> assertThat(c.reason()).isEqualTo(AwaitReason.SCHEDULED_ACTION));
      assertThat(runs).hasValue(0);
      assertThat(horae.performScheduledActions().toCompletableFuture().get(20, TimeUnit.SECONDS))
          .containsExactly(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }
    assertThat(runs).hasValue(1);
  }

  @Test
  void gatePluginsThatDoNotMergeAreRefusedAtTheBuilder() {
    dev.horae.gate.Plugin outside = GateJson.decodePlugin(Json.parse(
        "{\"manifest\":{\"id\":\"ops\",\"bound\":{}},\"contributions\":{\"actionKinds\":[\"deploy\"]}}"));
    assertThatThrownBy(() -> HoraeRuntime.builder().gatePlugins(List.of(outside)))
        .isInstanceOfSatisfying(EnvMergeException.class, e -> assertThat(e.code()).isEqualTo("boundViolation"));
  }

  // ---- docs/runtime.md -------------------------------------------------------------------------

  @Test
  void theRuntimeDocsSnippetForParkedRunsDoesWhatItsCommentsSay() throws Exception {
    HoraeRuntimeTest.Recording model = callThenDone("lookup");
    AtomicInteger runs = new AtomicInteger();
    ToolDefinition lookup = counting("lookup", runs);
    InstantSource clock = InstantSource.system();
    dev.horae.gate.Plugin ops = GateJson.decodePlugin(Json.parse(
        "{\"manifest\":{\"id\":\"ops\",\"bound\":{\"actionKinds\":{\"type\":\"any\"}}},\"contributions\":{\"actionKinds\":[\"deploy\"]}}"));
    // the snippet of docs/runtime.md, "Durable gates", line for line
    HoraeRuntime runtime = HoraeRuntime.builder()
        .model(model)
        .awaitDeadline(Duration.ofHours(1))                    // a ticket is answerable for an hour
        .gatePlugins(List.of(ops))                             // ops contributes the action kind "deploy"
        .build();
    var client = runtime.tools().registerClientExecuted(lookup); // the model sees it; the host never runs it
    // (a turn parks on the client's call)
    try (runtime; client) {
      parked(runtime, "s-docs");
      AwaitingCall call = runtime.awaiting().get(0);
      ResumeOutcome cancelled = runtime.cancel(call.runId()).toCompletableFuture().join(); // ended(cancelled), turn/end "aborted"
      ResumeOutcome stopped = runtime.stop(call.runId(), "budget").toCompletableFuture().join(); // now: that state, nothing written
      var answered = runtime.resume(ResumeCommand.fromTicket(call.ticket(), // a client tool's result: that call id only
          new ResumeResult.ToolResult(ToolOutput.success(call.callId(), TextNode.valueOf("42"))), clock.millis()));
      // what the comments say
      assertThat(call.ticket().deadlineMs()).isPresent();
      assertThat(cancelled).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.cancelled())));
      assertThat(stopped).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.cancelled())));
      assertThat(code(get(answered))).isEqualTo("notAwaiting");
    }
    assertThat(runs).hasValue(0);
  }
}

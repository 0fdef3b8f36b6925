package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.runtime.gate.TurnRun;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import dev.horae.store.MemorySessionStore;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The turn engine's rules around the gates (gate specification §6, §9): the Run view a gate reads,
 * a failed model step closed and reported, and every answer to a parked call that does not match
 * its ticket rejected before anything runs.
 */
@Timeout(30)
class TurnEngineRulesTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z"));

  static ToolDefinition counting(String name, AtomicInteger runs) {
    return ToolDefinition.builder(name)
        .description("Counts its runs.")
        .parameters(Json.parse("{\"type\":\"object\"}"))
        .body((args, exec) -> {
          runs.incrementAndGet();
          return CompletableFuture.completedFuture(Json.parse("{\"ok\":true}"));
        })
        .build();
  }

  private static String lastReason(RuntimeAgent agent) {
    List<SessionEvent> events = agent.session().events();
    return events.get(events.size() - 1).data().path("reason").asText();
  }

  private static List<String> types(RuntimeAgent agent) {
    return agent.session().events().stream().map(SessionEvent::type).toList();
  }

  @Test
  void aGateReadsTheRunOfTheTurnItsThreadAndItsStep() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "count", Json.parse("{}"))))
        .then(ModelResponse.calls(new ToolCall("c2", "count", Json.parse("{}"))))
        .then(ModelResponse.text("done"));
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      horae.tools().register(counting("count", runs));
      var unused = horae.gates().register(ToolGate.named("observer", (call, state) -> {
        seen.add(call.callId() + " " + state.runId() + " " + state.threadId() + " " + state.step() + " " + state.state("k").isPresent());
        return CompletableFuture.completedFuture(GateOutcome.allow());
      }));
      RuntimeAgent agent = horae.openAgent("s-view");
      horae.prompt(agent, "count twice");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }
    String run = TurnRun.runId("s-view", 1);
    assertThat(seen).containsExactly("c1 " + run + " s-view 1 false", "c2 " + run + " s-view 2 false");
    assertThat(runs).hasValue(2);
  }

  @Test
  void aFailedModelStepIsClosedTheTurnEndsErrorAndTheFailureIsReported() throws Exception {
    List<String> warned = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch ended = new CountDownLatch(1);
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK)
        .warnings((m, c) -> warned.add(m + c.map(e -> " | " + e.getMessage()).orElse("")))
        .model(r -> CompletableFuture.failedFuture(new IllegalStateException("upstream 503"))).build()) {
      var unused = horae.agents().onTurnEnd(o -> ended.countDown());
      RuntimeAgent agent = horae.openAgent("s-fail");
      horae.prompt(agent, "hello");
      assertThat(ended.await(20, TimeUnit.SECONDS)).isTrue();
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(types(agent)).containsSubsequence(EventTypes.REQUEST_HEADER, EventTypes.STEP_END, EventTypes.TURN_END);
      List<SessionEvent> events = agent.session().events();
      assertThat(events.get(events.size() - 1).data().path("reason").asText()).isEqualTo("error");
      assertThat(warned).anySatisfy(w -> assertThat(w).startsWith("turn 1 of " + agent.id() + " failed | model request failed"));
    }
  }

  @Test
  void answersThatDoNotMatchTheParkedCallAreRejectedAndNothingRuns() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = runtimeWhoseCallsNeedConfirmation(runs)) {
      RuntimeAgent agent = parkedAgent(horae, "s-parked");
      AwaitingCall call = horae.awaiting().get(0);
      ResumeCommand good = ResumeCommand.fromTicket(call.ticket(), ResumeResult.allow(), CLOCK.millis());

      assertThat(code(horae, new ResumeCommand("other-correlation", good.runId(), good.threadId(), good.snapshotId(),
          good.catalogFingerprint(), good.result(), good.nowMs(), good.operationId(), good.contextMessages())))
          .isEqualTo("correlationMismatch");
      assertThat(code(horae, new ResumeCommand(good.correlationId(), good.runId(), good.threadId(), "another-snapshot",
          good.catalogFingerprint(), good.result(), good.nowMs(), good.operationId(), good.contextMessages())))
          .isEqualTo("snapshotMismatch");
      assertThat(code(horae, new ResumeCommand(good.correlationId(), good.runId(), good.threadId(), good.snapshotId(),
          "another-catalog", good.result(), good.nowMs(), good.operationId(), good.contextMessages())))
          .isEqualTo("fingerprintMismatch");
      assertThat(code(horae, new ResumeCommand(good.correlationId(), good.runId() + "-x", good.threadId(), good.snapshotId(),
          good.catalogFingerprint(), good.result(), good.nowMs(), good.operationId(), good.contextMessages())))
          .isEqualTo("notAwaiting");
      // a permission wait is not the dispatcher's to perform
      assertThat(horae.performScheduledActions().toCompletableFuture().get(5, TimeUnit.SECONDS)).isEmpty();
      // the tool set changed since the park: the committed catalog no longer matches this agent's
      horae.tools().register(counting("another", new AtomicInteger()));
      assertThat(code(horae, good)).isEqualTo("fingerprintMismatch");
      assertThat(runs).hasValue(0);
      assertThat(horae.awaiting()).hasSize(1);
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals(EventTypes.TOOL_RESULT)).isEmpty();
    }
  }

  @Test
  void anApprovedCallRunsOnceAndASecondAnswerFindsNothingToAnswer() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = runtimeWhoseCallsNeedConfirmation(runs)) {
      RuntimeAgent agent = parkedAgent(horae, "s-approved");
      String runId = horae.awaiting().get(0).runId();
      ResumeOutcome first = horae.approve(runId).toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(first).isInstanceOf(ResumeOutcome.Advanced.class);
      ResumeOutcome second = horae.approve(runId).toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(second).isInstanceOfSatisfying(ResumeOutcome.Rejected.class, r -> assertThat(r.code()).isEqualTo("notAwaiting"));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(runs).hasValue(1);
      assertThat(types(agent)).endsWith(EventTypes.TURN_END);
    }
  }

  @Test
  void streamedPiecesAreTheChunksEmptyAndLatePiecesAreDroppedAndAnUnstreamedTextIsOneChunk() throws Exception {
    java.util.concurrent.atomic.AtomicReference<dev.horae.spi.model.StreamSink> lateSink = new java.util.concurrent.atomic.AtomicReference<>();
    AtomicInteger call = new AtomicInteger();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(r -> {
      if (call.incrementAndGet() == 1) {
        r.stream().text("Hel");
        r.stream().text("");
        r.stream().text("lo");
        lateSink.set(r.stream());
        return CompletableFuture.completedFuture(ModelResponse.text("Hello"));
      }
      return CompletableFuture.completedFuture(ModelResponse.text("unstreamed"));
    }).build()) {
      RuntimeAgent agent = horae.openAgent("s-stream");
      horae.prompt(agent, "hi");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      // a piece after the answer completed would land after assistant/message
      java.util.Objects.requireNonNull(lateSink.get()).text("late");
      horae.prompt(agent, "again");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals(EventTypes.ASSISTANT_CHUNK))
          .extracting(e -> e.data().path("turn").asLong() + " " + e.data().path("chunk").path("text").asText())
          .containsExactly("1 Hel", "1 lo", "2 unstreamed");
    }
  }

  @Test
  void anAnswerCutAtTheTokenLimitEndsTheTurnAndItsCallsNeverRun() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording().then(new ModelResponse("partial",
        List.of(new ToolCall("c1", "count", Json.parse("{}"))), dev.horae.spi.model.FinishReason.MAX_TOKENS,
        dev.horae.spi.model.TokenUsage.UNKNOWN));
    List<dev.horae.runtime.agent.TurnOutcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      horae.tools().register(counting("count", runs));
      var unused = horae.agents().onTurnEnd(outcomes::add);
      RuntimeAgent agent = horae.openAgent("s-max");
      horae.prompt(agent, "go");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(types(agent)).containsSubsequence(EventTypes.ASSISTANT_MESSAGE, EventTypes.STEP_END, EventTypes.TURN_END)
          .doesNotContain(EventTypes.TOOL_CALL, EventTypes.TOOL_RESULT);
      List<SessionEvent> events = agent.session().events();
      assertThat(events.get(events.size() - 1).data().path("reason").asText()).isEqualTo("max-tokens");
    }
    assertThat(runs).hasValue(0);
    assertThat(model.requests).hasSize(1);
    assertThat(outcomes).singleElement().satisfies(o -> {
      assertThat(o.reason()).isEqualTo("max-tokens");
      assertThat(o.finalText()).isEqualTo("partial");
    });
  }

  @Test
  void aScheduleWithAnActionKindNoEnvironmentPermitsIsRefusedAndTheTurnEndsError() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "count", Json.parse("{}"))));
    List<String> warned = Collections.synchronizedList(new ArrayList<>());
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).warnings((m, c) -> warned.add(m)).model(model).build()) {
      horae.tools().register(counting("count", runs));
      var unused = horae.gates().register(ToolGate.named("later", (call, state) ->
          CompletableFuture.completedFuture(GateOutcome.schedule("corr-1", "deploy"))));
      RuntimeAgent agent = horae.openAgent("s-kind");
      horae.prompt(agent, "go");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      List<SessionEvent> events = agent.session().events();
      assertThat(events).filteredOn(e -> e.type().equals(EventTypes.TOOL_RESULT))
          .extracting(e -> e.data().path("content").get(0).path("text").asText())
          .containsExactly("Error: blocked: action kind deploy is not permitted for tool count");
      assertThat(events.get(events.size() - 1).data().path("reason").asText()).isEqualTo("error");
      assertThat(horae.awaiting()).isEmpty();
      assertThat(warned).contains("turn 1 of s-kind failed");
    }
    assertThat(runs).hasValue(0);
  }

  @Test
  void aDeniedCallNeverRunsAndTheModelReadsTheReason() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = runtimeWhoseCallsNeedConfirmation(runs)) {
      RuntimeAgent agent = parkedAgent(horae, "s-denied");
      String runId = horae.awaiting().get(0).runId();
      assertThat(horae.awaiting().get(0).reason()).isEqualTo(dev.horae.gate.AwaitReason.TOOL_PERMISSION);
      ResumeOutcome denied = horae.deny(runId, "too risky").toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(denied).isInstanceOf(ResumeOutcome.Advanced.class);
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals(EventTypes.TOOL_RESULT))
          .extracting(e -> e.data().path("content").get(0).path("text").asText())
          .containsExactly("Error: blocked: too risky");
      assertThat(types(agent)).endsWith(EventTypes.TURN_END);
      assertThat(horae.awaiting()).isEmpty();
    }
    assertThat(runs).hasValue(0);
  }

  @Test
  void aScheduledCallLeftForTheEmbedderRunsOnceWhenItAsks() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "count", Json.parse("{}"))))
        .then(ModelResponse.text("done"));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).dispatchScheduledActions(false).build()) {
      horae.tools().register(counting("count", runs));
      var unused = horae.gates().register(ToolGate.named("later", (call, state) ->
          CompletableFuture.completedFuture(GateOutcome.schedule("corr-1"))));
      RuntimeAgent agent = parkedAgent(horae, "s-scheduled");
      assertThat(horae.awaiting()).singleElement().satisfies(c -> {
        assertThat(c.reason()).isEqualTo(dev.horae.gate.AwaitReason.SCHEDULED_ACTION);
        assertThat(c.sessionId()).isEqualTo("s-scheduled");
      });
      assertThat(agent.parked()).isTrue();
      assertThat(runs).hasValue(0);
      List<ResumeOutcome> performed = horae.performScheduledActions().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(performed).singleElement().isInstanceOf(ResumeOutcome.Advanced.class);
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(runs).hasValue(1);
      assertThat(horae.performScheduledActions().toCompletableFuture().get(20, TimeUnit.SECONDS)).isEmpty();
      assertThat(types(agent)).endsWith(EventTypes.TURN_END);
    }
    assertThat(runs).hasValue(1);
  }

  @Test
  @DisplayName("a parked turn holds the agent: running, no maintenance or external turn, input waits for the answer (docs/runtime.md, Durable gates 2)")
  void aParkedTurnHoldsTheAgentAndInputMeanwhileRunsAfterTheAnsweredTurnEnds() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    List<dev.horae.runtime.agent.TurnOutcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    try (HoraeRuntime horae = runtimeWhoseCallsNeedConfirmation(runs)) {
      var unused = horae.agents().onTurnEnd(outcomes::add);
      RuntimeAgent agent = parkedAgent(horae, "s-held");
      assertThat(agent.parked()).isTrue();
      assertThat(agent.status()).isEqualTo(dev.horae.spi.agent.AgentStatus.RUNNING);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
        var unusedClaim = agent.runMaintenance(signal -> CompletableFuture.completedFuture(1));
      }).isInstanceOf(IllegalStateException.class).hasMessage("agent \"s-held\" already has active work");
      org.assertj.core.api.Assertions.assertThatThrownBy(agent::beginExternalTurn).isInstanceOf(IllegalStateException.class);
      CompletableFuture<Void> idle = agent.whenIdle().toCompletableFuture();
      horae.prompt(agent, "while parked");
      assertThat(agent.pendingNextTurn()).hasSize(1);
      assertThat(idle).isNotDone();
      assertThat(types(agent)).filteredOn(EventTypes.TURN_START::equals).hasSize(1);

      ResumeOutcome answered = horae.approve(horae.awaiting().get(0).runId()).toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(answered).isInstanceOf(ResumeOutcome.Advanced.class);
      idle.get(20, TimeUnit.SECONDS);
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(agent.parked()).isFalse();
      // the answer continued turn 1 (no second turn/start for it); the waiting prompt opened turn 2
      assertThat(outcomes).extracting(o -> o.turn() + " " + o.reason() + " " + o.trigger().map(m -> m.text()).orElse("-"))
          .containsExactly("1 completed do it", "2 completed while parked");
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals(EventTypes.TURN_START))
          .extracting(e -> e.data().path("turn").asLong()).containsExactly(1L, 2L);
    }
    assertThat(runs).hasValue(1);
  }

  @Test
  @DisplayName("an answer given from the awaiting listener with input queued continues the parked turn before the next turn starts (docs/runtime.md, Durable gates)")
  void anAnswerFromTheAwaitingListenerContinuesTheTurnBeforeTheQueuedInputsTurn() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    java.util.concurrent.atomic.AtomicReference<RuntimeAgent> held = new java.util.concurrent.atomic.AtomicReference<>();
    List<CompletableFuture<ResumeOutcome>> answers = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch twoTurns = new CountDownLatch(2);
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "risky", Json.parse("{}"))))
        .then(ModelResponse.text("done"));
    try (HoraeRuntime horae = runtimeWhoseCallsNeedConfirmation(runs, new MemorySessionStore(), model)) {
      var unusedEnd = horae.agents().onTurnEnd(o -> twoTurns.countDown());
      // the listener runs on the driver that parked the call, before that driver lets go
      var unused = horae.onAwaiting(call -> {
        horae.prompt(java.util.Objects.requireNonNull(held.get()), "queued while parked");
        answers.add(horae.approve(call.runId()).toCompletableFuture());
      });
      RuntimeAgent agent = horae.openAgent("s-listener-answer");
      held.set(agent);
      horae.prompt(agent, "do it");
      assertThat(twoTurns.await(20, TimeUnit.SECONDS)).isTrue();
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(answers).singleElement().satisfies(a -> assertThat(a.get(20, TimeUnit.SECONDS)).isInstanceOf(ResumeOutcome.Advanced.class));
      // one driver at a time: turn 1 ends before turn 2 starts, and the model is asked in that order
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals(EventTypes.TURN_START) || e.type().equals(EventTypes.TURN_END))
          .extracting(e -> e.type() + " " + e.data().path("turn").asLong() + " " + e.data().path("reason").asText(""))
          .containsExactly(EventTypes.TURN_START + " 1 ", EventTypes.TURN_END + " 1 completed", EventTypes.TURN_START + " 2 ",
              EventTypes.TURN_END + " 2 completed");
      assertThat(model.requests).extracting(r -> r.turn() + "/" + r.step()).containsExactly("1/1", "1/2", "2/1");
    }
    assertThat(runs).hasValue(1);
  }

  @Test
  @DisplayName("a reopened log keeps its parked turn: the agent is parked before anyone sees it, the call is announced, the answer continues that turn (gate §8.3)")
  void aReopenedParkedTurnStaysParkedIsAnnouncedAndTheAnswerContinuesIt() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    MemorySessionStore memory = new MemorySessionStore();
    try (HoraeRuntime first = runtimeWhoseCallsNeedConfirmation(runs, memory)) {
      parkedAgent(first, "s-reopened");
    }
    List<AwaitingCall> announced = Collections.synchronizedList(new ArrayList<>());
    List<String> seenAtCreation = Collections.synchronizedList(new ArrayList<>());
    // the reopened runtime's model only concludes: the call it answers was asked by the first
    try (HoraeRuntime second = runtimeWhoseCallsNeedConfirmation(runs, memory, new HoraeRuntimeTest.Recording())) {
      var unusedAwaiting = second.onAwaiting(announced::add);
      var unusedCreated = second.agents().onCreated(a -> seenAtCreation.add(((RuntimeAgent) a).parked() + " " + a.status()));
      RuntimeAgent agent = second.openAgent("s-reopened");
      assertThat(seenAtCreation).containsExactly("true RUNNING");
      assertThat(announced).singleElement().satisfies(c -> assertThat(c.runId()).isEqualTo(TurnRun.runId("s-reopened", 1)));
      assertThat(second.awaiting()).hasSize(1);
      // the answer lands on the reopened agent: the same turn, no turn/end before it
      ResumeOutcome answered = second.approve(TurnRun.runId("s-reopened", 1)).toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(answered).isInstanceOf(ResumeOutcome.Advanced.class);
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals(EventTypes.TURN_END))
          .extracting(e -> e.data().path("turn").asLong() + " " + e.data().path("reason").asText())
          .containsExactly("1 completed");
      assertThat(second.awaiting()).isEmpty();
    }
    assertThat(runs).hasValue(1);
  }

  @Test
  @DisplayName("a turn a crash cut is closed interrupted on reopen: each unanswered call gets the unknown-outcome result, the open step its step/end (host §6.1)")
  void aCutTurnIsClosedInterruptedAndItsUnansweredCallsGetTheUnknownOutcome() throws Exception {
    MemorySessionStore memory = new MemorySessionStore();
    try (HoraeRuntime first = HoraeRuntime.builder().store(memory).clock(CLOCK).build()) {
      RuntimeAgent agent = first.openAgent("s-cut");
      agent.session().append(EventTypes.TURN_START, Json.parse("{\"turn\":1}"));
      agent.session().append(EventTypes.STEP_START, Json.parse("{\"turn\":1,\"step\":1}"));
      agent.session().append(EventTypes.TOOL_CALL, Json.parse("{\"turn\":1,\"step\":1,\"callId\":\"c1\",\"tool\":\"a\",\"args\":{}}"));
      agent.session().append(EventTypes.TOOL_CALL, Json.parse("{\"turn\":1,\"step\":1,\"callId\":\"c2\",\"tool\":\"b\",\"args\":{}}"));
      agent.session().append(EventTypes.TOOL_RESULT, Json.parse(
          "{\"turn\":1,\"step\":1,\"callId\":\"c1\",\"tool\":\"a\",\"isError\":false,\"content\":[]}"));
      agent.session().append(EventTypes.TOOL_CALL, Json.parse("{\"turn\":1,\"step\":1,\"callId\":\"c3\",\"tool\":\"c\",\"args\":{}}"));
      // the process dies here; close's flush stands in for what was durable before the crash
    }
    try (HoraeRuntime second = HoraeRuntime.builder().store(memory).clock(CLOCK).build()) {
      RuntimeAgent agent = second.openAgent("s-cut");
      assertThat(agent.parked()).isFalse();
      assertThat(agent.status()).isEqualTo(dev.horae.spi.agent.AgentStatus.IDLE);
      List<SessionEvent> log = agent.session().events();
      List<SessionEvent> added = log.subList(6, log.size());
      assertThat(added).extracting(e -> e.type() + " " + e.data().path("callId").asText("") + " " + e.data().path("step").asText(""))
          .containsExactly(EventTypes.TOOL_RESULT + " c2 1", EventTypes.TOOL_RESULT + " c3 1", EventTypes.STEP_END + "  1",
              EventTypes.TURN_END + "  ");
      assertThat(added.get(0).data().path("isError").asBoolean()).isTrue();
      assertThat(added.get(0).data().path("content").get(0).path("text").asText())
          .isEqualTo("Error: tool outcome unknown: the process stopped before the call settled");
      assertThat(added.get(3).data().path("reason").asText()).isEqualTo("interrupted");
      assertThat(second.awaiting()).isEmpty();
    }
  }

  @Test
  @DisplayName("an answer whose continuation parks on the step's next call reports awaiting; the second answer ends the turn (gate §6.4)")
  void anAnswerWhoseContinuationParksOnTheNextCallReportsAwaitingAndTheSecondEndsTheTurn() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "risky", Json.parse("{}")), new ToolCall("c2", "risky", Json.parse("{\"n\":2}"))))
        .then(ModelResponse.text("done"));
    try (HoraeRuntime horae = runtimeWhoseCallsNeedConfirmation(runs, new MemorySessionStore(), model)) {
      RuntimeAgent agent = parkedAgent(horae, "s-two");
      assertThat(horae.awaiting()).extracting(AwaitingCall::callId).containsExactly("c1");
      ResumeOutcome first = horae.approve(TurnRun.runId("s-two", 1)).toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(first).isInstanceOfSatisfying(ResumeOutcome.Advanced.class,
          a -> assertThat(a.state()).isEqualTo(dev.horae.gate.RunState.awaiting()));
      assertThat(runs).hasValue(1);
      assertThat(agent.parked()).isTrue();
      assertThat(horae.awaiting()).singleElement().satisfies(c -> {
        assertThat(c.callId()).isEqualTo("c2");
        assertThat(c.arguments()).isEqualTo(Json.parse("{\"n\":2}"));
      });
      ResumeOutcome second = horae.approve(TurnRun.runId("s-two", 1)).toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(second).isInstanceOfSatisfying(ResumeOutcome.Advanced.class,
          a -> assertThat(a.state()).isInstanceOf(dev.horae.gate.RunState.Ended.class));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals(EventTypes.TOOL_RESULT))
          .extracting(e -> e.data().path("callId").asText()).containsExactly("c1", "c2");
      assertThat(model.requests).extracting(r -> r.turn() + "/" + r.step()).containsExactly("1/1", "1/2");
    }
    assertThat(runs).hasValue(2);
  }

  @Test
  @DisplayName("a runtime that dispatches performs a scheduled call as soon as it is committed, once (docs/runtime.md, Scheduled actions)")
  void aDispatchingRuntimePerformsAScheduledCallAsSoonAsItIsCommittedOnce() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "count", Json.parse("{}"))))
        .then(ModelResponse.text("done"));
    List<AwaitingCall> announced = Collections.synchronizedList(new ArrayList<>());
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      horae.tools().register(counting("count", runs));
      var unused = horae.gates().register(ToolGate.named("later", (call, state) ->
          CompletableFuture.completedFuture(GateOutcome.schedule("corr-1"))));
      var unusedAwaiting = horae.onAwaiting(announced::add);
      RuntimeAgent agent = horae.openAgent("s-dispatched");
      horae.prompt(agent, "go");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(runs).hasValue(1);
      assertThat(announced).singleElement().satisfies(c -> assertThat(c.reason()).isEqualTo(dev.horae.gate.AwaitReason.SCHEDULED_ACTION));
      assertThat(horae.awaiting()).isEmpty();
      assertThat(agent.parked()).isFalse();
      List<SessionEvent> events = agent.session().events();
      assertThat(events).filteredOn(e -> e.type().equals(EventTypes.TURN_END)).singleElement()
          .satisfies(e -> assertThat(e.data().path("reason").asText()).isEqualTo("completed"));
      assertThat(horae.performScheduledActions().toCompletableFuture().get(5, TimeUnit.SECONDS)).isEmpty();
    }
    assertThat(runs).hasValue(1);
  }

  @Test
  @DisplayName("a disposed agent's parked call cannot be answered: nothing runs (gate §9.4 notAwaiting)")
  void aDisposedAgentsParkedCallCannotBeAnswered() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = runtimeWhoseCallsNeedConfirmation(runs)) {
      RuntimeAgent agent = parkedAgent(horae, "s-gone");
      ResumeCommand command = ResumeCommand.fromTicket(horae.awaiting().get(0).ticket(), ResumeResult.allow(), CLOCK.millis());
      horae.agents().dispose(agent).toCompletableFuture().get(5, TimeUnit.SECONDS);
      ResumeOutcome outcome = horae.agents().resume(agent, command).toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(outcome).isInstanceOfSatisfying(ResumeOutcome.Rejected.class, r -> assertThat(r.code()).isEqualTo("notAwaiting"));
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals(EventTypes.TOOL_RESULT)).isEmpty();
    }
    assertThat(runs).hasValue(0);
  }

  @Test
  @DisplayName("step 1 entered with no messages ends the turn completed without step/start or request (host §6.1 step 2.4)")
  void aFirstStepEnteredWithNoMessagesEndsTheTurnWithoutARequest() throws Exception {
    assertNoStepIsEntered(s -> CompletableFuture.completedFuture(new StepDecision.Enter(List.of())), "completed");
  }

  @Test
  @DisplayName("a later step entered with no messages still runs unless an earlier step concluded the turn (host §6.1 step 2.5)")
  void aLaterEmptyStepRunsAfterToolCallsButLeavesTheLoopAfterAConcludedStep() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "count", Json.parse("{}"))))
        .then(ModelResponse.text("after the call"))
        .then(ModelResponse.text("concluded"));
    java.util.concurrent.atomic.AtomicBoolean injected = new java.util.concurrent.atomic.AtomicBoolean();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      horae.tools().register(counting("count", runs));
      // every step after the first is entered with no messages: the injected one is dropped
      var unused = horae.agents().onPreStep(s -> s.step() == 1 ? s.next()
          : CompletableFuture.completedFuture(new StepDecision.Enter(List.of())), false);
      var unusedHook = horae.agents().onTurnStopping((a, turn) -> {
        if (turn == 2 && injected.compareAndSet(false, true)) {
          ((RuntimeAgent) a).inject(horae.messages().text("one more", dev.horae.spi.message.MessageSource.user()));
        }
      });
      RuntimeAgent agent = horae.openAgent("s-empty-later");
      horae.prompt(agent, "call");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      horae.prompt(agent, "conclude");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(injected).isTrue();
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals(EventTypes.STEP_START))
          .extracting(e -> e.data().path("turn").asLong() + "/" + e.data().path("step").asLong())
          .containsExactly("1/1", "1/2", "2/1");
      assertThat(lastReason(agent)).isEqualTo("completed");
    }
    assertThat(model.requests).extracting(r -> r.turn() + "/" + r.step()).containsExactly("1/1", "1/2", "2/1");
  }

  @Test
  @DisplayName("a signal fired during the pre-step enters no step: no step/start, no request, the turn ends aborted (host §6.2)")
  void aSignalFiredDuringThePreStepEntersNoStep() throws Exception {
    assertNoStepIsEntered(s -> {
      ((RuntimeAgent) s.agent()).cancelTurn("stopped while preparing");
      return s.next();
    }, "aborted");
  }

  /** Runs one prompted turn under {@code listener} and asserts it ended {@code reason} with no step and no request. */
  private static void assertNoStepIsEntered(dev.horae.spi.agent.PreStepListener listener, String reason) throws Exception {
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      var unused = horae.agents().onPreStep(listener, false);
      RuntimeAgent agent = horae.openAgent("s-no-step");
      horae.prompt(agent, "hello");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(types(agent)).containsExactly(EventTypes.TURN_START, EventTypes.TURN_END);
      assertThat(lastReason(agent)).isEqualTo(reason);
    }
    assertThat(model.requests).isEmpty();
  }

  /** A runtime whose one tool, {@code risky}, counts its runs and needs a person's confirmation. */
  private static HoraeRuntime runtimeWhoseCallsNeedConfirmation(AtomicInteger runs) {
    return runtimeWhoseCallsNeedConfirmation(runs, new MemorySessionStore());
  }

  /** The same over {@code store}, so a second runtime can reopen what the first parked. */
  private static HoraeRuntime runtimeWhoseCallsNeedConfirmation(AtomicInteger runs, MemorySessionStore store) {
    return runtimeWhoseCallsNeedConfirmation(runs, store, new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "risky", Json.parse("{}"))))
        .then(ModelResponse.text("done")));
  }

  /** The same answering with {@code model}. */
  private static HoraeRuntime runtimeWhoseCallsNeedConfirmation(AtomicInteger runs, MemorySessionStore store,
      dev.horae.spi.model.ModelPort model) {
    HoraeRuntime horae = HoraeRuntime.builder().store(store).clock(CLOCK).model(model).build();
    horae.tools().register(counting("risky", runs));
    var unused = horae.gates().register(ToolGate.named("confirm", (call, state) ->
        CompletableFuture.completedFuture(GateOutcome.requireConfirmation("confirm-" + call.callId()))));
    return horae;
  }

  /** An agent of {@code horae} whose first turn parked its call; returns once the call awaits. */
  static RuntimeAgent parkedAgent(HoraeRuntime horae, String sessionId) throws InterruptedException {
    RuntimeAgent agent = horae.openAgent(sessionId);
    CountDownLatch parked = new CountDownLatch(1);
    var unused = horae.onAwaiting(c -> parked.countDown());
    horae.prompt(agent, "do it");
    assertThat(parked.await(20, TimeUnit.SECONDS)).isTrue();
    return agent;
  }

  private static String code(HoraeRuntime horae, ResumeCommand command) throws Exception {
    ResumeOutcome o = horae.resume(command).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(o).isInstanceOf(ResumeOutcome.Rejected.class);
    return ((ResumeOutcome.Rejected) o).code();
  }
}

package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.runtime.gate.TurnRun;
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

  private static ToolDefinition counting(String name, AtomicInteger runs) {
    return ToolDefinition.builder(name)
        .description("Counts its runs.")
        .parameters(Json.parse("{\"type\":\"object\"}"))
        .body((args, exec) -> {
          runs.incrementAndGet();
          return CompletableFuture.completedFuture(Json.parse("{\"ok\":true}"));
        })
        .build();
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

  /** A runtime whose one tool, {@code risky}, counts its runs and needs a person's confirmation. */
  private static HoraeRuntime runtimeWhoseCallsNeedConfirmation(AtomicInteger runs) {
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "risky", Json.parse("{}"))))
        .then(ModelResponse.text("done"));
    HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build();
    horae.tools().register(counting("risky", runs));
    var unused = horae.gates().register(ToolGate.named("confirm", (call, state) ->
        CompletableFuture.completedFuture(GateOutcome.requireConfirmation("confirm-" + call.callId()))));
    return horae;
  }

  /** An agent of {@code horae} whose first turn parked its call; returns once the call awaits. */
  private static RuntimeAgent parkedAgent(HoraeRuntime horae, String sessionId) throws InterruptedException {
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

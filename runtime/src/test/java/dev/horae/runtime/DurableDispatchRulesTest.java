package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.gate.EndCause;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.ClaimGuard;
import dev.horae.gate.runtime.DispatchQueue;
import dev.horae.gate.runtime.DispatchStatus;
import dev.horae.gate.runtime.DispatcherOptions;
import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.gate.runtime.LeaseFence;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.gate.runtime.RunContext;
import dev.horae.gate.runtime.SessionDispatchQueue;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.store.MemorySessionStore;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The durable dispatcher of gate specification §12.5 performing the runtime's scheduled actions
 * (docs/runtime.md, "The durable dispatcher"): the engine commits through the dispatch queue's
 * store, so a parked scheduled action has its dispatch record; a dispatcher claims and performs
 * it through the runtime's own perform, once; and an attempt whose claim is not current commits
 * nothing and runs no tool. Every attempt is one {@link DurableDispatcher#tick()}, never a wait.
 */
@Timeout(30)
class DurableDispatchRulesTest {

  static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

  static HoraeRuntimeTest.Recording callThenDone(String tool) {
    return new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", tool, Json.parse("{}"))))
        .then(ModelResponse.text("done"));
  }

  static void scheduleEveryCall(HoraeRuntime horae) {
    var unused = horae.gates().register(ToolGate.named("later",
        (call, state) -> CompletableFuture.completedFuture(GateOutcome.schedule("sched-1"))));
  }

  static Optional<DurableDispatcher.Attempt> tick(DurableDispatcher d) throws Exception {
    return d.tick().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  static List<SessionEvent> events(RuntimeAgent agent, String type) {
    return agent.session().events().stream().filter(e -> e.type().equals(type)).toList();
  }

  static String lastTurnEnd(RuntimeAgent agent) {
    List<SessionEvent> ends = events(agent, EventTypes.TURN_END);
    return ends.get(ends.size() - 1).data().path("reason").asText();
  }

  private static HoraeRuntime runtime(HoraeRuntimeTest.Recording model) {
    return HoraeRuntime.builder().store(new MemorySessionStore()).clock(InstantSource.fixed(START)).model(model)
        .dispatchQueue(SessionDispatchQueue::over).build();
  }

  /** A turn parked on a scheduled action, and the queue its dispatch record is in. */
  private record Parked(RuntimeAgent agent, String runId, DispatchQueue queue) {}

  /** Counts the tool's runs in {@code runs}, schedules every call and parks a turn of {@code sessionId}. */
  private static Parked parked(HoraeRuntime horae, String sessionId, AtomicInteger runs) throws InterruptedException {
    horae.tools().register(TurnEngineRulesTest.counting("later", runs));
    scheduleEveryCall(horae);
    RuntimeAgent agent = TurnEngineRulesTest.parkedAgent(horae, sessionId);
    return new Parked(agent, horae.awaiting().get(0).runId(), horae.dispatchQueue().orElseThrow());
  }

  @Test
  void aParkedScheduledActionIsClaimedAndPerformedOnceByTheDurableDispatcherAndTheTurnEnds() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = runtime(callThenDone("later"))) {
      Parked p = parked(horae, "s-durable", runs);

      // the park's commit and its dispatch record landed together (the outbox, §12.5.1)
      assertThat(p.queue().record(p.runId())).hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(DispatchStatus.PENDING));
      assertThat(runs).hasValue(0);

      try (DurableDispatcher first = horae.durableDispatcher().owner("node-1").build();
          DurableDispatcher second = horae.durableDispatcher().owner("node-2").build()) {
        Optional<DurableDispatcher.Attempt> attempt = tick(first);
        p.agent().whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);

        assertThat(attempt).hasValueSatisfying(a -> assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE));
        assertThat(runs).hasValue(1);
        assertThat(lastTurnEnd(p.agent())).isEqualTo("completed");
        assertThat(horae.awaiting()).isEmpty();
        assertThat(p.queue().record(p.runId())).isEmpty();

        // single use: nothing is left to claim, reconcile finds no ticket, a direct perform is refused
        assertThat(tick(second)).isEmpty();
        assertThat(second.reconcile()).isZero();
        assertThat(tick(second)).isEmpty();
        ResumeOutcome again = horae.dispatchTarget().orElseThrow()
            .performScheduledAction(p.runId(), RunContext.of(p.queue().store()), START.toEpochMilli()).toCompletableFuture().get(20, TimeUnit.SECONDS);
        assertThat(again).isInstanceOfSatisfying(ResumeOutcome.Rejected.class, r -> assertThat(r.code()).isEqualTo("notAwaiting"));
      }
    }
    assertThat(runs).hasValue(1);
  }

  @Test
  void anAttemptWhoseClaimIsNotCurrentCommitsNothingRunsNoToolAndLeavesTheTurnParked() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = runtime(callThenDone("later"))) {
      Parked p = parked(horae, "s-fenced", runs);
      int length = p.agent().session().events().size();

      // a claim no dispatch record holds: another owner, a superseded epoch
      ClaimGuard stale = new ClaimGuard(new LeaseFence(p.runId(), "s-fenced", "intruder", 99), () -> true);
      ResumeOutcome fenced = horae.dispatchTarget().orElseThrow()
          .performScheduledAction(p.runId(), RunContext.of(p.queue().store()).withClaim(stale), START.toEpochMilli())
          .toCompletableFuture().get(20, TimeUnit.SECONDS);

      assertThat(fenced).isInstanceOfSatisfying(ResumeOutcome.Rejected.class, r -> assertThat(r.code()).isEqualTo("fenced"));
      assertThat(runs).hasValue(0);
      assertThat(p.agent().session().events()).hasSize(length);
      assertThat(horae.awaiting()).singleElement().satisfies(c -> assertThat(c.runId()).isEqualTo(p.runId()));

      // the record's own claim still performs it, once
      try (DurableDispatcher d = horae.durableDispatcher().owner("node-1").build()) {
        assertThat(tick(d)).hasValueSatisfying(a -> assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE));
      }
      p.agent().whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(runs).hasValue(1);
      assertThat(lastTurnEnd(p.agent())).isEqualTo("completed");
    }
  }

  @Test
  void aSpentRetryBudgetEndsARunWhoseToolNeverReturnedIndeterminateAndTheTurnAborted() throws Exception {
    ManualTimers time = new ManualTimers(START);
    Semaphore entered = new Semaphore(0);
    try (HoraeRuntime horae = HoraeRuntime.builder().store(new MemorySessionStore()).clock(time).timers(time)
        .model(callThenDone("hang")).dispatchQueue(SessionDispatchQueue::over).build()) {
      horae.tools().register(ToolDefinition.builder("hang").description("Never answers.").parameters(Json.parse("{\"type\":\"object\"}"))
          .body((args, exec) -> {
            entered.release();
            // it answers only when its call is cancelled, as a well-behaved long tool does
            CompletableFuture<com.fasterxml.jackson.databind.JsonNode> never = new CompletableFuture<>();
            var unused = exec.signal().onAbort(() -> never.completeExceptionally(new IllegalStateException("cancelled")));
            return never;
          }).build());
      scheduleEveryCall(horae);
      RuntimeAgent agent = TurnEngineRulesTest.parkedAgent(horae, "s-budget");
      String runId = horae.awaiting().get(0).runId();
      DispatchQueue queue = horae.dispatchQueue().orElseThrow();
      DispatcherOptions options = DispatcherOptions.withLease(900).recoveringAtMost(1);

      DurableDispatcher first = horae.durableDispatcher().executor(Runnable::run).options(options).owner("node-a").build();
      assertThat(first.tick().toCompletableFuture()).isNotDone();
      assertThat(entered.tryAcquire(20, TimeUnit.SECONDS)).isTrue();   // consumed: the tool runs and never returns
      first.close();                                                     // the owner dies
      time.advance(Duration.ofMillis(901));
      assertThat(queue.claim("dead", 900, time.millis(), 1)).isPresent(); // a recovery that dies too
      time.advance(Duration.ofMillis(901));
      try (DurableDispatcher last = horae.durableDispatcher().executor(Runnable::run).options(options).owner("node-z").build()) {
        assertThat(tick(last)).hasValueSatisfying(a -> assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE));
      }
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);

      assertThat(queue.store().view().runState(runId)).hasValue(RunState.ended(EndCause.indeterminate()));
      assertThat(lastTurnEnd(agent)).isEqualTo("aborted");
      assertThat(queue.record(runId)).isEmpty();
      assertThat(entered.availablePermits()).isZero();
    }
  }

  /**
   * A runtime on the manual clock with the session-log queue whose tool {@code slow} counts its
   * runs, tells {@code entered} and answers with {@code release}; every call is scheduled.
   */
  private static HoraeRuntime heldToolRuntime(ManualTimers time, AtomicInteger runs, Semaphore entered,
      CompletableFuture<com.fasterxml.jackson.databind.JsonNode> release) {
    HoraeRuntime horae = HoraeRuntime.builder().store(new MemorySessionStore()).clock(time).timers(time)
        .model(callThenDone("slow")).dispatchQueue(SessionDispatchQueue::over).warnings((m, c) -> { }).build();
    horae.tools().register(ToolDefinition.builder("slow").description("Waits.").parameters(Json.parse("{\"type\":\"object\"}"))
        .body((args, exec) -> {
          runs.incrementAndGet();
          entered.release();
          return release;
        }).build());
    scheduleEveryCall(horae);
    return horae;
  }

  @Test
  void anAttemptThatLostItsClaimAfterThePreCommitIsFencedAtItsEndAndARecoveryEndsTheRunInterrupted() throws Exception {
    ManualTimers time = new ManualTimers(START);
    Semaphore entered = new Semaphore(0);
    CompletableFuture<com.fasterxml.jackson.databind.JsonNode> release = new CompletableFuture<>();
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = heldToolRuntime(time, runs, entered, release)) {
      RuntimeAgent agent = TurnEngineRulesTest.parkedAgent(horae, "s-lost");
      String runId = horae.awaiting().get(0).runId();
      DispatchQueue queue = horae.dispatchQueue().orElseThrow();
      DispatcherOptions options = DispatcherOptions.withLease(900);

      DurableDispatcher first = horae.durableDispatcher().executor(Runnable::run).options(options).owner("node-a").build();
      assertThat(first.tick().toCompletableFuture()).isNotDone();
      assertThat(entered.tryAcquire(20, TimeUnit.SECONDS)).isTrue();   // pre-committed: the tool runs
      first.close();                                                     // its owner stops renewing
      time.advance(Duration.ofMillis(901));                              // and the claim lapses meanwhile
      try (DurableDispatcher second = horae.durableDispatcher().executor(Runnable::run).options(options).owner("node-b").build()) {
        // a recovery claim while the turn still runs here: refused, the turn is not run beside itself
        assertThat(second.tick().toCompletableFuture().get(20, TimeUnit.SECONDS))
            .hasValueSatisfying(a -> assertThat(a.result()).isNotEqualTo(DurableDispatcher.Result.DONE));
        release.complete(Json.parse("{\"ok\":true}"));
        agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
        // the first attempt's end was fenced: its turn is over, its Run is not
        assertThat(lastTurnEnd(agent)).isEqualTo("completed");
        assertThat(queue.store().view().runState(runId)).hasValueSatisfying(st -> assertThat(st).isInstanceOf(RunState.Running.class));

        time.advance(Duration.ofMillis(901));
        assertThat(tick(second)).hasValueSatisfying(a -> assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE));
      }
      assertThat(queue.store().view().runState(runId)).hasValue(RunState.ended(EndCause.stopped("interrupted")));
      assertThat(queue.record(runId)).isEmpty();
    }
    assertThat(runs).as("never run twice").hasValue(1);
  }

  @Test
  void aCancelIntentFoundAtARenewalEndsTheRunDrivenHereCancelledAndItsTurnStops() throws Exception {
    ManualTimers time = new ManualTimers(START);
    Semaphore entered = new Semaphore(0);
    CompletableFuture<com.fasterxml.jackson.databind.JsonNode> release = new CompletableFuture<>();
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = heldToolRuntime(time, runs, entered, release)) {
      RuntimeAgent agent = TurnEngineRulesTest.parkedAgent(horae, "s-intent");
      String runId = horae.awaiting().get(0).runId();
      DispatchQueue queue = horae.dispatchQueue().orElseThrow();

      try (DurableDispatcher d = horae.durableDispatcher().executor(Runnable::run).options(DispatcherOptions.withLease(900))
          .owner("node-a").build()) {
        CompletableFuture<Optional<DurableDispatcher.Attempt>> attempt = d.tick().toCompletableFuture();
        assertThat(entered.tryAcquire(20, TimeUnit.SECONDS)).isTrue();
        d.cancel(runId, "s-intent");
        assertThat(queue.store().view().runState(runId)).as("an intent alone ends nothing")
            .hasValueSatisfying(st -> assertThat(st).isInstanceOf(RunState.Running.class));

        time.advance(Duration.ofMillis(301));                              // the next renewal reads the intent
        assertThat(queue.store().view().runState(runId)).hasValue(RunState.ended(EndCause.cancelled()));
        release.complete(Json.parse("{\"ok\":true}"));
        assertThat(attempt.get(20, TimeUnit.SECONDS))
            .hasValueSatisfying(a -> assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE));
        agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      }
      assertThat(lastTurnEnd(agent)).isEqualTo("aborted");
      assertThat(queue.record(runId)).isEmpty();
    }
    assertThat(runs).hasValue(1);
  }

  @Test
  void anActivationIsRefusedAtSubmitAndNothingIsStored() throws Exception {
    try (HoraeRuntime horae = runtime(callThenDone("later"));
        DurableDispatcher d = horae.durableDispatcher().owner("node-1").build()) {
      assertThatThrownBy(() -> d.submit(new dev.horae.gate.runtime.RunActivation("run-x", "s-x", "snapshot", "go")))
          .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("prompt the agent of the session");
      assertThat(horae.dispatchQueue().orElseThrow().record("run-x")).isEmpty();
    }
  }

  @Test
  void aDispatcherOfAnotherStoreIsRefusedAndARuntimeWithoutAQueueHasNoDispatcher() throws Exception {
    try (HoraeRuntime plain = HoraeRuntime.builder().clock(InstantSource.fixed(START)).build()) {
      assertThat(plain.dispatchQueue()).isEmpty();
      assertThatThrownBy(plain::durableDispatcher).isInstanceOf(IllegalStateException.class).hasMessageContaining("dispatch queue");
    }
    assertThatThrownBy(() -> HoraeRuntime.builder().dispatchScheduledActions(true).dispatchQueue(SessionDispatchQueue::over).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("durable dispatcher");
    try (HoraeRuntime horae = runtime(callThenDone("later"))) {
      ResumeOutcome o = horae.dispatchTarget().orElseThrow()
          .performScheduledAction("s/turn-1", RunContext.of(dev.horae.gate.runtime.CommitStore.inMemory()), START.toEpochMilli())
          .toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(o).isInstanceOfSatisfying(ResumeOutcome.Rejected.class, r -> assertThat(r.code()).isEqualTo("storeMismatch"));
    }
  }
}

package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.gate.EndCause;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The resume ticket is single-use from the moment its pre-commit is made, not from the moment that
 * pre-commit is durable (gate specification §6.4 step 8, §9.2 step 4, §9.4 "concurrent perform lost
 * the race"): a perform whose pre-commit is still flushing has consumed the ticket, so a second
 * perform or answer meanwhile is {@code notAwaiting}, and the tool waits for the flush. The flush
 * is held by the store until the test releases it, so the interleaving is fixed, not raced.
 */
@Timeout(30)
class TicketFlushRulesTest {

  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

  /** A memory store whose next persist, once armed, waits for the test to release it. */
  private static final class HoldingStore extends InterceptedStore {
    private final AtomicReference<CompletableFuture<Void>> armed = new AtomicReference<>();
    private final CountDownLatch reached = new CountDownLatch(1);
    private volatile List<SessionEvent> heldLog = List.of();

    /** Holds the next persist; complete the returned future to let it reach the memory store. */
    CompletableFuture<Void> holdNext() {
      CompletableFuture<Void> release = new CompletableFuture<>();
      armed.set(release);
      return release;
    }

    boolean awaitHeld() throws InterruptedException {
      return reached.await(20, TimeUnit.SECONDS);
    }

    List<SessionEvent> heldLog() {
      return heldLog;
    }

    @Override
    CompletionStage<Void> intercept(SessionHeader header, List<SessionEvent> log) {
      CompletableFuture<Void> release = armed.getAndSet(null);
      if (release == null) {
        return inner.persist(header, log);
      }
      heldLog = List.copyOf(log);
      reached.countDown();
      return release.thenCompose(v -> inner.persist(header, log));
    }
  }

  private static ResumeOutcome get(CompletionStage<ResumeOutcome> stage) throws Exception {
    return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private static String code(ResumeOutcome o) {
    assertThat(o).isInstanceOf(ResumeOutcome.Rejected.class);
    return ((ResumeOutcome.Rejected) o).code();
  }

  @Test
  void aPerformWhosePreCommitIsStillFlushingHasConsumedTheTicketAndItsToolWaitsForTheFlush() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoldingStore store = new HoldingStore();
    try (HoraeRuntime horae = HoraeRuntime.builder().store(store).clock(InstantSource.fixed(START))
        .model(DurableDispatchRulesTest.callThenDone("later")).dispatchScheduledActions(false).build()) {
      horae.tools().register(TurnEngineRulesTest.counting("later", runs));
      var unused = horae.gates().register(ToolGate.named("later",
          (call, state) -> CompletableFuture.completedFuture(GateOutcome.schedule("sched-1"))));
      RuntimeAgent agent = TurnEngineRulesTest.parkedAgent(horae, "s-flush");
      String runId = horae.awaiting().get(0).runId();
      CompletableFuture<Void> release = store.holdNext();

      CompletableFuture<ResumeOutcome> first = horae.agents().perform(runId).toCompletableFuture();
      assertThat(store.awaitHeld()).isTrue();
      // what is held is the perform's pre-commit: the ticket's call moved to executing, audited approved
      SessionEvent held = store.heldLog().get(store.heldLog().size() - 1);
      assertThat(held.type()).isEqualTo("gate/commit");
      assertThat(held.data().path("commit").path("events").findValuesAsText("decision")).containsExactly("approved");
      assertThat(first).isNotDone();
      assertThat(runs).hasValue(0);

      // meanwhile every other way to use the ticket finds it consumed; none of them runs the tool
      assertThat(code(get(horae.agents().perform(runId)))).isEqualTo("notAwaiting");
      assertThat(code(get(horae.approve(runId)))).isEqualTo("notAwaiting");
      assertThat(horae.performScheduledActions().toCompletableFuture().get(20, TimeUnit.SECONDS)).isEmpty();
      assertThat(horae.awaiting()).isEmpty();
      assertThat(runs).hasValue(0);

      release.complete(null);
      assertThat(get(first)).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(runs).hasValue(1);
      assertThat(DurableDispatchRulesTest.lastTurnEnd(agent)).isEqualTo("completed");
      assertThat(DurableDispatchRulesTest.events(agent, EventTypes.TOOL_RESULT)).hasSize(1);
    }
    assertThat(runs).hasValue(1);
  }
}

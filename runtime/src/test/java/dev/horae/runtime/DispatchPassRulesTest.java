package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.gate.runtime.CommitStoreException;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One pass of {@link HoraeRuntime#performScheduledActions()} over several parked Runs: a Run whose
 * perform fails does not keep the others from being performed, and the pass still reports the
 * failure instead of a success (a failed persist is uncertain, never done).
 */
@Timeout(30)
class DispatchPassRulesTest {

  /** A memory store that fails every persist of one session once told which. */
  private static final class FailingStore extends InterceptedStore {
    private volatile @Nullable String failing;

    @Override
    CompletionStage<Void> intercept(SessionHeader header, List<SessionEvent> log) {
      if (header.id().equals(failing)) {
        return CompletableFuture.failedFuture(new IllegalStateException("disk gone for " + failing));
      }
      return inner.persist(header, log);
    }
  }

  @Test
  void aRunWhosePerformFailsDoesNotKeepTheOthersFromBeingPerformed() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    FailingStore store = new FailingStore();
    try (HoraeRuntime horae = HoraeRuntime.builder().store(store).clock(InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z")))
        .model(new HoraeRuntimeTest.Recording()
            // both agents' first steps call the tool; the healthy one's next step answers
            .then(ModelResponse.calls(new ToolCall("c1", "later", Json.parse("{}"))))
            .then(ModelResponse.calls(new ToolCall("c1", "later", Json.parse("{}"))))
            .then(ModelResponse.text("done"))
            .then(ModelResponse.text("done"))).dispatchScheduledActions(false).build()) {
      horae.tools().register(TurnEngineRulesTest.counting("later", runs));
      var unused = horae.gates().register(ToolGate.named("later",
          (call, state) -> CompletableFuture.completedFuture(GateOutcome.schedule("sched-1"))));
      RuntimeAgent a = TurnEngineRulesTest.parkedAgent(horae, "s-a");
      RuntimeAgent b = TurnEngineRulesTest.parkedAgent(horae, "s-b");
      assertThat(horae.awaiting()).hasSize(2);
      // the Run performed first in the pass is the one whose flushes fail
      String first = horae.awaiting().get(0).runId();
      RuntimeAgent healthy = first.startsWith("s-a") ? b : a;
      store.failing = first.startsWith("s-a") ? "s-a" : "s-b";

      CompletableFuture<List<dev.horae.gate.runtime.ResumeOutcome>> pass =
          horae.performScheduledActions().toCompletableFuture();
      // the failed Run's end is not durable, so the pass reports its uncertainty, never an end
      assertThatThrownBy(() -> pass.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
          .cause().isInstanceOf(CommitStoreException.class);
      healthy.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(runs).as("the healthy Run's tool ran in the same pass").hasValue(1);
      assertThat(DurableDispatchRulesTest.lastTurnEnd(healthy)).isEqualTo("completed");
    }
  }
}

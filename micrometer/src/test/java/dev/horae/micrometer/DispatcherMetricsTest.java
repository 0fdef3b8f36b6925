package dev.horae.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.gate.RunState;
import dev.horae.gate.runtime.DispatchQueue;
import dev.horae.gate.runtime.DispatcherOptions;
import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.gate.runtime.SessionDispatchQueue;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.testkit.time.ManualTime;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A durable dispatcher's meters after a scripted crash story on a manual clock, on the production
 * runtime's engine: a claimed scheduled action whose tool never returns, renewed while its owner
 * lives, recovered twice by dead owners, then ended indeterminate by the retry budget (gate
 * specification §12.5.5); then a fresh claim of another parked action.
 */
@Timeout(30)
class DispatcherMetricsTest {

  private static final long LEASE = 900;

  private final ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
  private final MeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, new MockClock());

  private double counter(String name, String... tags) {
    return registry.get(name).tags(tags).counter().count();
  }

  /** Opens a session's agent, prompts it and returns the Run its call parks, once the park is committed. */
  private static String parked(HoraeRuntime horae, String sessionId) throws InterruptedException {
    CountDownLatch parked = new CountDownLatch(1);
    var registration = horae.onAwaiting(c -> parked.countDown());
    RuntimeAgent agent = horae.openAgent(sessionId);
    horae.prompt(agent, "go");
    assertThat(parked.await(20, TimeUnit.SECONDS)).isTrue();
    registration.close();
    return horae.awaiting().stream().filter(c -> c.runId().startsWith(sessionId + "/")).findFirst().orElseThrow().runId();
  }

  @Test
  void claimsRenewalsRecoveriesAndAnIndeterminateEndReadExactly() throws Exception {
    Semaphore entered = new Semaphore(0);
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time)
        .model(r -> CompletableFuture.completedFuture(r.step() == 1
            ? ModelResponse.calls(new ToolCall("call-1", "echo", Json.mapper().createObjectNode()))
            : ModelResponse.text("done")))
        .dispatchQueue(SessionDispatchQueue::over).build()) {
      // the tool never returns: the owner "crashes" with the call in flight
      horae.tools().register(ToolDefinition.builder("echo").description("Never answers.")
          .parameters(Json.parse("{\"type\":\"object\"}"))
          .body((args, exec) -> {
            entered.release();
            return new CompletableFuture<>();
          }).build());
      var unused = horae.gates().register(ToolGate.named("later",
          (call, state) -> CompletableFuture.completedFuture(GateOutcome.schedule("sched-" + call.callId()))));
      DispatchQueue queue = horae.dispatchQueue().orElseThrow();
      DispatcherOptions options = DispatcherOptions.withLease(LEASE).recoveringAtMost(2);
      String run1 = parked(horae, "thread-1");

      DurableDispatcher dispatcher = horae.durableDispatcher().executor(Runnable::run).options(options).owner("node-a").build();
      DispatcherMetrics metrics = DispatcherMetrics.of(dispatcher, Optional.empty());
      metrics.bindTo(registry);
      assertThat(dispatcher.tick().toCompletableFuture()).isNotDone();
      assertThat(entered.tryAcquire(20, TimeUnit.SECONDS)).isTrue();  // the perform is in the tool
      time.advance(Duration.ofMillis(LEASE));                         // renewed at 300, 600 and 900 ms
      assertThat(counter(DispatcherMetrics.RENEWALS, "dispatcher", "durable", "outcome", "renewed")).isEqualTo(3.0);
      dispatcher.close();                                             // the owner dies; its lease lapses
      for (int i = 1; i <= 2; i++) {
        time.advance(Duration.ofMillis(LEASE + 1));
        assertThat(queue.claim("dead-" + i, LEASE, time.millis(), 2)).isPresent();
      }
      time.advance(Duration.ofMillis(LEASE + 1));
      DurableDispatcher last = horae.durableDispatcher().executor(Runnable::run).options(options).owner("node-z").build();
      DispatcherMetrics lastMetrics = DispatcherMetrics.of(last, Optional.empty());
      lastMetrics.bindTo(registry);
      assertThat(last.tick().toCompletableFuture().get(20, TimeUnit.SECONDS)).isPresent();

      assertThat(queue.store().view().runState(run1)).get().matches(RunState::isTerminal);
      // and a fresh parked action on the last dispatcher: a claim, not a recovery
      parked(horae, "thread-2");
      assertThat(last.tick().toCompletableFuture()).isNotDone();
      assertThat(counter(HoraeMetrics.DISPATCHER_CLAIMS, "dispatcher", "durable")).isEqualTo(3.0);
      assertThat(counter(DispatcherMetrics.RECOVERIES, "dispatcher", "durable")).isEqualTo(1.0);
      assertThat(counter(DispatcherMetrics.INDETERMINATE, "dispatcher", "durable")).isEqualTo(1.0);
      assertThat(counter(DispatcherMetrics.RENEWALS, "dispatcher", "durable", "outcome", "renewed")).isEqualTo(3.0);
      assertThat(counter(DispatcherMetrics.RENEWALS, "dispatcher", "durable", "outcome", "superseded")).isZero();
      assertThat(counter(DispatcherMetrics.RENEWALS, "dispatcher", "durable", "outcome", "failed")).isZero();
      assertThatThrownBy(() -> lastMetrics.bindTo(registry)).isInstanceOf(IllegalStateException.class)
          .hasMessage("these dispatcher metrics are already bound to a registry");
      metrics.close();
      lastMetrics.close();
      last.close();
      horae.agents().all().forEach(a -> a.cancelTurn("test over"));
    }
  }
}

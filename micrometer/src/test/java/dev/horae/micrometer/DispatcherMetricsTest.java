package dev.horae.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.gate.RunState;
import dev.horae.gate.runtime.AgentRuntime;
import dev.horae.gate.runtime.AgentSnapshot;
import dev.horae.gate.runtime.DispatcherOptions;
import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.gate.runtime.InMemoryDispatchQueue;
import dev.horae.gate.runtime.RunActivation;
import dev.horae.gate.runtime.ToolDescriptor;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import dev.horae.testkit.time.ManualTime;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A durable dispatcher's meters after a scripted crash story on a manual clock: a claim whose tool
 * never returns, renewed while its owner lives, recovered twice by dead owners, then ended
 * indeterminate by the retry budget (gate specification §12.5.5); then a fresh claim.
 */
class DispatcherMetricsTest {

  private static final long LEASE = 900;

  private final ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
  private final MeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, new MockClock());

  private double counter(String name, String... tags) {
    return registry.get(name).tags(tags).counter().count();
  }

  @Test
  void claimsRenewalsRecoveriesAndAnIndeterminateEndReadExactly() {
    InMemoryDispatchQueue queue = InMemoryDispatchQueue.create();
    AgentRuntime runtime = AgentRuntime.builder(
        r -> CompletableFuture.completedFuture(r.step() == 1
            ? ModelResponse.calls(new ToolCall("call-1", "echo", Json.mapper().createObjectNode()))
            : ModelResponse.text("done")),
        // the tool never returns: the owner "crashes" with the call in flight
        (call, ctx) -> new CompletableFuture<ToolOutput>()).build();
    runtime.registerSnapshot(AgentSnapshot.of("snapshot-1", Set.of(), List.of(ToolDescriptor.of("echo")), 16));
    DispatcherOptions options = DispatcherOptions.withLease(LEASE).recoveringAtMost(2);
    DurableDispatcher dispatcher = DurableDispatcher.builder(runtime, queue).clock(time).timers(time)
        .executor(Runnable::run).options(options).owner("node-a").build();
    DispatcherMetrics metrics = DispatcherMetrics.of(dispatcher, Optional.empty());
    metrics.bindTo(registry);

    assertThat(dispatcher.submit(new RunActivation("run-1", "thread-1", "snapshot-1", "go"))).isTrue();
    assertThat(dispatcher.tick().toCompletableFuture()).isNotDone();
    time.advance(Duration.ofMillis(LEASE));                         // renewed at 300, 600 and 900 ms
    assertThat(counter(DispatcherMetrics.RENEWALS, "dispatcher", "durable", "outcome", "renewed")).isEqualTo(3.0);
    dispatcher.close();                                             // the owner dies; its lease lapses
    for (int i = 1; i <= 2; i++) {
      time.advance(Duration.ofMillis(LEASE + 1));
      assertThat(queue.claim("dead-" + i, LEASE, time.millis(), 2)).isPresent();
    }
    time.advance(Duration.ofMillis(LEASE + 1));
    DurableDispatcher last = DurableDispatcher.builder(runtime, queue).clock(time).timers(time)
        .executor(Runnable::run).options(options).owner("node-z").build();
    DispatcherMetrics lastMetrics = DispatcherMetrics.of(last, Optional.empty());
    lastMetrics.bindTo(registry);
    assertThat(last.tick().toCompletableFuture().join()).isPresent();

    assertThat(queue.store().view().runState("run-1")).get().matches(RunState::isTerminal);
    // and a fresh Run on the last dispatcher: a claim, not a recovery
    assertThat(last.submit(new RunActivation("run-2", "thread-2", "snapshot-1", "go"))).isTrue();
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
  }
}

package dev.horae.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelResponse;
import dev.horae.store.MemorySessionStore;
import dev.horae.store.SessionLeaseException;
import dev.horae.testkit.time.ManualTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two runtimes ("nodes") on one store with session leases (docs/persistence.md, "Session
 * leases"): a session is open on one node at a time, a node whose lease was taken over cannot
 * write the session any more, and its agent there is closed.
 */
class LeasedRuntimeTest {

  private static final ModelPort OK = request -> CompletableFuture.completedFuture(ModelResponse.text("ok"));

  @Test
  void aSessionIsOpenOnOneNodeAndTheNodeThatLostItsLeaseClosesItsAgent() throws Exception {
    MemorySessionStore store = new MemorySessionStore();
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    // node A's timers never fire: it stops renewing, as a paused process would
    ManualTime pausedTimers = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    CountDownLatch closedOnA = new CountDownLatch(1);
    try (HoraeRuntime a = HoraeRuntime.builder().leases(store.leases("node-a", Duration.ofSeconds(30), time))
            .clock(time).timers(pausedTimers).model(OK)
            .warnings((message, cause) -> {
              if (message.contains("was lost; closing agent")) {
                closedOnA.countDown();
              }
            }).build();
        HoraeRuntime b = HoraeRuntime.builder().leases(store.leases("node-b", Duration.ofSeconds(30), time))
            .clock(time).timers(time).model(OK).build()) {
      RuntimeAgent onA = a.openAgent("s1");
      a.prompt(onA, "hello");
      onA.whenIdle().toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertThat(a.sessions().flush(onA.session()).toCompletableFuture().get(10, TimeUnit.SECONDS)).isTrue();

      assertThatThrownBy(() -> b.openAgent("s1")).isInstanceOfSatisfying(SessionLeaseException.class,
          e -> assertThat(e.code()).isEqualTo(SessionLeaseException.Code.LEASE_HELD));

      time.advance(Duration.ofSeconds(31));
      RuntimeAgent onB = b.openAgent("s1");
      int stored = store.load("s1").orElseThrow().events().size();
      assertThat(onB.session().events()).hasSize(stored);

      // A does not know yet: its next turn runs in memory, but its flush is refused and writes nothing
      a.prompt(onA, "are you still there?");
      assertThat(closedOnA.await(10, TimeUnit.SECONDS)).as("A closed its agent on the lost session").isTrue();
      assertThat(onA.disposed()).isTrue();
      assertThat(store.load("s1").orElseThrow().events()).hasSize(stored);
    }
  }
}

package dev.horae.runtime;

import static dev.horae.runtime.DurableDispatchRulesTest.START;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.gate.runtime.DispatchStatus;
import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.gate.runtime.JdbcDispatchQueue;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Session;
import dev.horae.store.JdbcSessionStore;
import dev.horae.store.Postgres;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The durable dispatcher over {@link JdbcDispatchQueue} on PostgreSQL performing a runtime's
 * scheduled action (docs/runtime.md, "The durable dispatcher"): node A parks a turn on a {@code
 * schedule} verdict and stops; node B, which never had the session open, claims the dispatch
 * record, opens the session, performs the action once and the turn ends; node C's dispatcher on
 * the same tables finds nothing left to claim.
 */
@Tag("slow")
@Tag("postgres")
@Timeout(120)
class DurableDispatchJdbcTest {

  private static final InstantSource CLOCK = InstantSource.fixed(START);

  private static HoraeRuntime node(JdbcSessionStore store, DataSource ds, String gatePrefix, HoraeRuntimeTest.Recording model,
      AtomicInteger runs) {
    HoraeRuntime horae = HoraeRuntime.builder().store(store).clock(CLOCK).model(model)
        .dispatchQueue((sessions, flush) -> JdbcDispatchQueue.over(ds, gatePrefix, CLOCK, sessions, flush)).build();
    horae.tools().register(TurnEngineRulesTest.counting("later", runs));
    DurableDispatchRulesTest.scheduleEveryCall(horae);
    return horae;
  }

  @Test
  void aNodeThatNeverOpenedTheSessionClaimsAndPerformsTheActionAStoppedNodeParkedOnce() throws Exception {
    DataSource ds = Postgres.started();
    JdbcSessionStore store = JdbcSessionStore.create(ds, Postgres.freshPrefix());
    store.migrate();
    String gatePrefix = "g" + Postgres.freshPrefix();
    JdbcDispatchQueue.over(ds, gatePrefix, CLOCK, id -> Optional.<Session>empty()).migrate();
    AtomicInteger runs = new AtomicInteger();
    String runId;
    try (HoraeRuntime a = node(store, ds, gatePrefix, DurableDispatchRulesTest.callThenDone("later"), runs)) {
      TurnEngineRulesTest.parkedAgent(a, "pg-durable");
      runId = a.awaiting().get(0).runId();
      assertThat(a.dispatchQueue().orElseThrow().record(runId))
          .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(DispatchStatus.PENDING));
    }
    assertThat(runs).hasValue(0);

    try (HoraeRuntime b = node(store, ds, gatePrefix, new HoraeRuntimeTest.Recording().then(ModelResponse.text("done")), runs);
        HoraeRuntime c = node(store, ds, gatePrefix, new HoraeRuntimeTest.Recording(), runs);
        DurableDispatcher onB = b.durableDispatcher().owner("node-b").build();
        DurableDispatcher onC = c.durableDispatcher().owner("node-c").build()) {
      assertThat(b.agents().all()).isEmpty();

      assertThat(DurableDispatchRulesTest.tick(onB))
          .hasValueSatisfying(at -> assertThat(at.result()).isEqualTo(DurableDispatcher.Result.DONE));
      RuntimeAgent agent = (RuntimeAgent) b.agents().get("pg-durable").orElseThrow();
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);

      assertThat(runs).hasValue(1);
      assertThat(DurableDispatchRulesTest.lastTurnEnd(agent)).isEqualTo("completed");
      assertThat(b.dispatchQueue().orElseThrow().record(runId)).isEmpty();
      assertThat(DurableDispatchRulesTest.tick(onC)).isEmpty();
      assertThat(DurableDispatchRulesTest.tick(onB)).isEmpty();
    }
    assertThat(runs).hasValue(1);
  }
}

package dev.horae.runtime;

import static dev.horae.runtime.ActionNodes.START;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.gate.TurnRun;
import dev.horae.spi.session.SessionEvent;
import dev.horae.store.DueIndex;
import dev.horae.store.JdbcSessionStore;
import dev.horae.store.Postgres;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Committed scheduled actions in a cluster on PostgreSQL (docs/runtime.md, "Durable gates"): node A
 * commits an action in each of six sessions under its leases and stops before performing any; nodes
 * B and C, leased runtimes serving due sessions on the same database, claim the due sessions with
 * {@code SKIP LOCKED}, so each action is performed once, by whichever node claimed its session,
 * each Run gets one terminal fact, every index row clears and both nodes close what they opened.
 */
@Tag("slow")
@Tag("postgres")
@Timeout(120)
class ScheduledActionsJdbcTest {

  private static final int SESSIONS = 6;

  @Test
  void twoLeasedNodesPerformEveryActionAStoppedNodeCommittedOnce() throws Exception {
    ManualTimers time = new ManualTimers(START);
    JdbcSessionStore store = JdbcSessionStore.create(Postgres.started(), Postgres.freshPrefix(), HoraeRuntime.dueIndexer());
    store.migrate();
    DueIndex index = store.dueIndex().orElseThrow();
    ActionNodes nodes = new ActionNodes();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < SESSIONS; i++) {
      ids.add("pg-action-" + i);
    }
    try (HoraeRuntime a = nodes.node(HoraeRuntime.builder().leases(store.leases("node-a", Duration.ofSeconds(30), time))
        .dispatchScheduledActions(false), time)) {
      ActionNodes.commitActions(a, ids);
    }
    assertThat(index.dueBy(time.millis(), 100)).hasSize(SESSIONS);

    DueSessions.Settings settings = DueSessions.Settings.DEFAULTS.withMaxOpen(3).withKeepOpenWithin(Duration.ZERO);
    Set<String> byB = Collections.synchronizedSet(new HashSet<>());
    Set<String> byC = Collections.synchronizedSet(new HashSet<>());
    try (HoraeRuntime b = nodes.node(HoraeRuntime.builder().leases(store.leases("node-b", Duration.ofSeconds(30), time))
            .dueSessions(settings), time);
        HoraeRuntime c = nodes.node(HoraeRuntime.builder().leases(store.leases("node-c", Duration.ofSeconds(30), time))
            .dueSessions(settings), time)) {
      BlockingQueue<DueSessions.Pass> passesB = new LinkedBlockingQueue<>();
      BlockingQueue<DueSessions.Pass> passesC = new LinkedBlockingQueue<>();
      var rb = b.startDueSessions().onPass(passesB::add);
      var rc = c.startDueSessions().onPass(passesC::add);
      time.advance(Duration.ZERO);
      int closed = 0;
      for (int step = 0; step < 30 && closed < SESSIONS; step++) {
        DueSessions.Pass pb = passesB.poll(30, TimeUnit.SECONDS);
        DueSessions.Pass pc = passesC.poll(30, TimeUnit.SECONDS);
        assertThat(pb).isNotNull();
        assertThat(pc).isNotNull();
        assertThat(Collections.disjoint(pb.opened(), pc.opened())).isTrue();
        assertThat(pb.open()).isLessThanOrEqualTo(3);
        assertThat(pc.open()).isLessThanOrEqualTo(3);
        closed += pb.closed().size() + pc.closed().size();
        byB.addAll(pb.opened());
        byC.addAll(pc.opened());
        for (String id : pb.opened()) {
          ActionNodes.awaitIdle((RuntimeAgent) b.agents().get(id).orElseThrow());
        }
        for (String id : pc.opened()) {
          ActionNodes.awaitIdle((RuntimeAgent) c.agents().get(id).orElseThrow());
        }
        time.advance(Duration.ofSeconds(1));
      }
      assertThat(closed).isEqualTo(SESSIONS);
      assertThat(b.sessions().list()).isEmpty();
      assertThat(c.sessions().list()).isEmpty();
      rb.close();
      rc.close();
    }
    assertThat(Collections.disjoint(byB, byC)).isTrue();
    assertThat(byB.size() + byC.size()).isEqualTo(SESSIONS);
    assertThat(byB).isNotEmpty();
    assertThat(byC).isNotEmpty();
    for (String id : ids) {
      List<SessionEvent> log = store.load(id).orElseThrow().events();
      assertThat(nodes.sendsOf(id)).as(id).isEqualTo(1);
      assertThat(ActionNodes.runFacts(log, TurnRun.runId(id, 1))).as(id).containsExactly("awaiting", "running", "ended(naturalEnd)");
    }
    assertThat(index.earliest()).isEmpty();
    assertThat(index.rebuild()).isZero();
  }
}

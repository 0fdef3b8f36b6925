package dev.horae.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * Two nodes, each a leased {@link LogSessions}, on one shared store and one manual clock: a session
 * is live and writable on one of them at a time.
 */
class LeasedLogSessionsTest {

  private static final Instant T0 = SessionLeasesContract.T0;
  private static final Duration LEASE = Duration.ofSeconds(30);

  private final ManualClock clock = new ManualClock(T0);
  private final MemorySessionStore store = new MemorySessionStore();
  private final Node a = new Node("node-a");
  private final Node b = new Node("node-b");

  /** One node: its timers, keeper, sessions and what it was told. */
  private final class Node {
    final ManualClock.NodeTimers timers = clock.timers();
    final List<String> warnings = new ArrayList<>();
    final WarningSink sink = (message, cause) -> warnings.add(message);
    final SessionLeaseKeeper keeper;
    final LogSessions sessions;
    final List<String> lostSessions = new ArrayList<>();

    Node(String owner) {
      this(owner, Runnable::run);
    }

    Node(String owner, Executor executor) {
      keeper = SessionLeaseKeeper.of(store.leases(owner, LEASE, clock), timers, executor, sink);
      sessions = LogSessions.leased(keeper, clock, sink);
      // what a runtime registers to close the agents of a lost session
      keeper.onLost((lease, why) -> lostSessions.add(lease.sessionId()));
    }

    Session create(String id) {
      return sessions.create(new CreateOptions(Optional.of(id), Optional.empty(), Optional.empty()));
    }
  }

  private static void append(Session s, int n) {
    for (int i = 0; i < n; i++) {
      s.append("test/event", JsonNodeFactory.instance.objectNode().put("n", i));
    }
  }

  private static boolean flushed(LogSessions sessions, Session s) {
    return sessions.flush(s).toCompletableFuture().join();
  }

  /** The code of a flush's refusal: the flush fails, so the library reads persistence as uncertain. */
  private static SessionLeaseException.Code refusedFlush(LogSessions sessions, Session s) {
    Throwable t = Logs.failure(sessions.flush(s));
    assertThat(t).isInstanceOf(SessionLeaseException.class);
    return ((SessionLeaseException) t).code();
  }

  private List<SessionEvent> stored(String id) {
    return store.load(id).orElseThrow().events();
  }

  @Test
  void aSessionLiveOnOneNodeIsRefusedOnTheOther() {
    Session s = a.create("s");
    append(s, 2);
    assertThat(flushed(a.sessions, s)).isTrue();

    assertThatThrownBy(() -> b.sessions.resume("s"))
        .isInstanceOfSatisfying(SessionLeaseException.class,
            e -> assertThat(e.code()).isEqualTo(SessionLeaseException.Code.LEASE_HELD))
        .hasMessageStartingWith("session s is leased by owner node-a (epoch 1)");
    assertThatThrownBy(() -> b.create("s")).isInstanceOf(SessionLeaseException.class);
    assertThat(b.sessions.get("s")).isEmpty();
    assertThat(b.keeper.lease("s")).isEmpty();
    assertThat(a.sessions.leaseKeeper()).containsSame(a.keeper);
  }

  @Test
  void afterTheLeaseExpiresTheOtherNodeResumesAndTheStaleNodesFlushIsRefusedWritingNothing() {
    Session onA = a.create("s");
    append(onA, 2);
    assertThat(flushed(a.sessions, onA)).isTrue();
    // node A pauses past its lease: its timers do not run
    clock.advance(LEASE.plusMillis(1));

    Session onB = b.sessions.resume("s");
    assertThat(onB.events()).isEqualTo(stored("s"));
    append(onB, 1);
    assertThat(flushed(b.sessions, onB)).isTrue();

    // A wakes up still believing it owns the session
    append(onA, 1);
    assertThat(refusedFlush(a.sessions, onA)).isEqualTo(SessionLeaseException.Code.STALE_EPOCH);
    assertThat(stored("s")).isEqualTo(onB.events()).hasSize(3);
    assertThat(a.sessions.get("s")).isEmpty();
    assertThat(a.lostSessions).containsExactly("s");
    assertThat(a.warnings).singleElement().asString()
        .startsWith("session \"s\" lost its lease and is detached: stale epoch: session s was written under epoch 1");
    assertThatThrownBy(() -> append(onA, 1)).isInstanceOf(IllegalStateException.class);
    a.timers.runDue();
    assertThat(a.lostSessions).hasSize(1);
  }

  @Test
  void aRenewalThatFindsTheLeaseTakenDetachesTheSession() {
    Session onA = a.create("s");
    assertThat(flushed(a.sessions, onA)).isTrue();
    clock.advance(LEASE.plusMillis(1));
    var onB = b.sessions.resume("s");

    a.timers.runDue();
    assertThat(a.lostSessions).containsExactly("s");
    assertThat(a.sessions.get("s")).isEmpty();
    assertThat(a.sessions.flush(onA).toCompletableFuture()).isCompletedExceptionally();
    assertThat(b.sessions.get("s")).containsSame(onB);
  }

  @Test
  void anAwakeNodeKeepsItsSessionForAsLongAsItRuns() {
    Session onA = a.create("s");
    for (int i = 0; i < 9; i++) {
      clock.advance(Duration.ofSeconds(10));
      a.timers.runDue();
      assertThatThrownBy(() -> b.sessions.resume("s")).isInstanceOf(SessionLeaseException.class);
    }
    append(onA, 1);
    assertThat(flushed(a.sessions, onA)).isTrue();
    assertThat(a.lostSessions).isEmpty();
  }

  @Test
  void detachReleasesTheLeaseSoTheOtherNodeResumesAtOnce() {
    Session s = a.create("s");
    Session t = a.create("t");
    assertThat(flushed(a.sessions, s)).isTrue();
    assertThat(flushed(a.sessions, t)).isTrue();
    a.sessions.detach(s);
    assertThat(b.sessions.resume("s").id()).isEqualTo("s");
    a.sessions.detachAll();
    assertThat(b.sessions.resume("t").id()).isEqualTo("t");
    assertThat(a.keeper.lease("s")).isEmpty();
    assertThat(a.keeper.lease("t")).isEmpty();
    assertThat(a.lostSessions).isEmpty();
  }

  @Test
  void aFailedOpenReleasesTheLeaseItTook() {
    assertThatThrownBy(() -> a.sessions.resume("missing")).isInstanceOf(NoSuchElementException.class);
    assertThat(a.keeper.lease("missing")).isEmpty();
    var unused = a.sessions.onSessionCreated((header, log) -> {
      throw new IllegalStateException("refused by a listener");
    });
    assertThatThrownBy(() -> a.create("s")).hasMessage("refused by a listener");
    assertThat(a.keeper.lease("s")).isEmpty();
    assertThat(b.create("s").id()).isEqualTo("s");
  }

  @Test
  void aLiveSessionIsNeitherAcquiredAgainNorReleasedByARefusedResume() {
    Session s = a.create("s");
    SessionLease held = a.keeper.lease("s").orElseThrow();
    assertThat(a.create("s")).isSameAs(s);
    assertThatThrownBy(() -> a.sessions.resume("s")).isInstanceOf(IllegalStateException.class);
    assertThat(a.keeper.lease("s")).contains(held);
    assertThat(((SessionLease.Fenced) held).epoch()).isEqualTo(1);
  }

  @Test
  void aForkIsLeasedUnderItsOwnId() {
    Session parent = a.create("s");
    append(parent, 2);
    Session child = a.sessions.fork(parent, 2, true);
    assertThat(a.keeper.lease(child.id())).isPresent();
    assertThat(flushed(a.sessions, child)).isTrue();
    assertThatThrownBy(() -> b.sessions.resume(child.id())).isInstanceOf(SessionLeaseException.class);
  }

  @Test
  void aLossReportedAfterTheSessionWasOpenedAgainLeavesTheNewOpenAlone() {
    List<Runnable> queued = new ArrayList<>();
    Node c = new Node("node-c", queued::add);
    Session first = c.create("s");
    assertThat(flushed(c.sessions, first)).isTrue();
    clock.advance(LEASE.plusMillis(1));
    Session onB = b.sessions.resume("s");
    append(first, 1);
    assertThat(refusedFlush(c.sessions, first)).isEqualTo(SessionLeaseException.Code.STALE_EPOCH);
    // the loss is queued on C's executor; meanwhile B lets go and C opens the session again
    b.sessions.detach(onB);
    c.sessions.detach(first);
    Session second = c.sessions.resume("s");
    assertThat(((SessionLease.Fenced) c.keeper.lease("s").orElseThrow()).epoch()).isEqualTo(3);
    queued.forEach(Runnable::run);
    assertThat(c.lostSessions).containsExactly("s");
    assertThat(c.sessions.get("s")).containsSame(second);
    assertThat(flushed(c.sessions, second)).isTrue();
  }

  @Test
  void anUnleasedServiceHasNoKeeper() {
    assertThat(LogSessions.over(store, clock, (m, c) -> { }).leaseKeeper()).isEmpty();
  }
}

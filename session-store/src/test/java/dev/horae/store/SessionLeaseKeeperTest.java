package dev.horae.store;

import static dev.horae.store.Logs.failure;
import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node's lease keeper on a manual clock: renewal at a third of the lease, loss found by renewal,
 * by a stale persist or by renewals failing past the expiry, each reported once.
 */
class SessionLeaseKeeperTest {

  private static final Instant T0 = SessionLeasesContract.T0;
  private static final Duration LEASE = Duration.ofSeconds(30);

  private final ManualClock clock = new ManualClock(T0);
  private final MemorySessionStore store = new MemorySessionStore();
  private final ManualClock.NodeTimers timersA = clock.timers();
  private final List<String> warnings = new ArrayList<>();
  private final WarningSink sink = (message, cause) -> warnings.add(message + cause.map(c -> " / " + c.getMessage()).orElse(""));
  private final List<String> lost = new ArrayList<>();
  private final Executor direct = Runnable::run;
  private final SessionLeases nodeB = store.leases("node-b", LEASE, clock);

  private SessionLeaseKeeper keeperA(SessionLeases leases, Executor executor) {
    SessionLeaseKeeper keeper = SessionLeaseKeeper.of(leases, timersA, executor, sink);
    keeper.onLost((lease, why) -> lost.add(lease + ": " + why));
    return keeper;
  }

  private SessionLeaseKeeper keeperA() {
    return keeperA(store.leases("node-a", LEASE, clock), direct);
  }

  private void advance(Duration by) {
    clock.advance(by);
    timersA.runDue();
  }

  @Test
  void anAwakeNodeRenewsEveryThirdOfTheLeaseAndKeepsItsEpoch() {
    SessionLeaseKeeper keeper = keeperA();
    SessionLease held = keeper.hold("s");
    assertThat(timersA.dues()).containsExactly(T0.plusSeconds(10));
    for (int third = 1; third <= 12; third++) {
      advance(Duration.ofSeconds(10));
      assertThat(keeper.lease("s")).contains(new SessionLease.Fenced("s", "node-a", 1, T0.plusSeconds(10L * third + 30)));
      assertThatThrownBy(() -> nodeB.acquire("s")).isInstanceOf(SessionLeaseException.class);
    }
    assertThat(timersA.dues()).containsExactly(T0.plusSeconds(130));
    assertThat(keeper.hold("s")).as("held, not acquired again").isEqualTo(keeper.lease("s").orElseThrow());
    assertThat(((SessionLease.Fenced) held).epoch()).isEqualTo(1);
    assertThat(lost).isEmpty();
    assertThat(warnings).isEmpty();
  }

  @Test
  void aPausedNodeFindsItsLeaseTakenAtItsNextRenewalAndHearsItOnce() {
    SessionLeaseKeeper keeper = keeperA();
    SessionLease held = keeper.hold("s");
    // paused: the clock moves, node A's timers do not run
    clock.advance(LEASE.plusMillis(1));
    assertThat(keeper.owns("s")).isFalse();
    SessionLease taken = nodeB.acquire("s");
    assertThat(taken).isEqualTo(new SessionLease.Fenced("s", "node-b", 2, T0.plus(LEASE).plusMillis(1).plus(LEASE)));

    timersA.runDue();
    assertThat(lost).containsExactly(held + ": lease of session s (owner node-a, epoch 1, expires 2026-12-01T10:00:30Z) "
        + "is no longer current: another owner acquired the session or it was released");
    assertThat(keeper.lease("s")).isEmpty();
    assertThat(timersA.dues()).isEmpty();
    advance(LEASE.multipliedBy(3));
    assertThat(refused(keeper.persist(header("s"), log(1)))).isEqualTo(SessionLeaseException.Code.NOT_LEASED);
    assertThat(lost).hasSize(1);
    assertThat(nodeB.current("s")).contains(taken);
  }

  @Test
  void aStalePersistMarksTheLeaseLostOnceAndWritesNothing() {
    SessionLeaseKeeper keeper = keeperA();
    keeper.hold("s");
    keeper.persist(header("s"), log(1)).toCompletableFuture().join();
    clock.advance(LEASE.plusMillis(1));
    var unused = nodeB.acquire("s");

    assertThat(refused(keeper.persist(header("s"), log(2)))).isEqualTo(SessionLeaseException.Code.STALE_EPOCH);
    assertThat(lost).singleElement().asString().endsWith(
        ": stale epoch: session s was written under epoch 1 of owner node-a, but its lease is now epoch 2 of owner node-b; "
            + "nothing was written");
    assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(1));
    timersA.runDue();
    assertThat(refused(keeper.persist(header("s"), log(2)))).isEqualTo(SessionLeaseException.Code.NOT_LEASED);
    assertThat(lost).hasSize(1);
  }

  @Test
  void ownsTurnsFalseWhenTheLeaseExpiresUnrenewedAndTrueAgainWhenARenewalStillFindsItCurrent() {
    SessionLeaseKeeper keeper = keeperA();
    keeper.hold("s");
    assertThat(keeper.owns("s")).isTrue();
    clock.advance(LEASE);
    assertThat(keeper.owns("s")).as("live up to and including its expiry").isTrue();
    clock.advance(Duration.ofMillis(1));
    assertThat(keeper.owns("s")).isFalse();
    assertThat(keeper.lease("s")).isPresent();
    timersA.runDue();
    assertThat(keeper.owns("s")).isTrue();
    assertThat(lost).isEmpty();
    assertThat(keeper.owns("other")).isFalse();
  }

  @Test
  void renewalFailuresAreRetriedAndEndTheLeaseJustPastItsExpiry() {
    Flaky flaky = new Flaky(store.leases("node-a", LEASE, clock));
    SessionLeaseKeeper keeper = keeperA(flaky, direct);
    SessionLease held = keeper.hold("s");
    flaky.failing = true;
    advance(Duration.ofSeconds(10));
    advance(Duration.ofSeconds(10));
    assertThat(warnings).hasSize(2).allMatch(w -> w.equals("renewing the lease of session s (owner node-a, epoch 1, "
        + "expires 2026-12-01T10:00:30Z) failed; retrying / database unreachable"));
    assertThat(timersA.dues()).containsExactly(T0.plusSeconds(30));
    advance(Duration.ofSeconds(10));
    assertThat(lost).as("still live at its expiry").isEmpty();
    assertThat(timersA.dues()).containsExactly(T0.plusSeconds(30).plusMillis(1));
    advance(Duration.ofMillis(1));
    assertThat(lost).containsExactly(held + ": lease of session s (owner node-a, epoch 1, expires 2026-12-01T10:00:30Z) "
        + "expired before it could be renewed: database unreachable");
    assertThat(keeper.lease("s")).isEmpty();
    assertThat(timersA.dues()).isEmpty();
  }

  @Test
  void aRenewalThatSucceedsAfterFailuresKeepsTheLease() {
    Flaky flaky = new Flaky(store.leases("node-a", LEASE, clock));
    SessionLeaseKeeper keeper = keeperA(flaky, direct);
    keeper.hold("s");
    flaky.failing = true;
    advance(Duration.ofSeconds(10));
    flaky.failing = false;
    advance(Duration.ofSeconds(10));
    assertThat(keeper.lease("s")).contains(new SessionLease.Fenced("s", "node-a", 1, T0.plusSeconds(50)));
    assertThat(lost).isEmpty();
  }

  @Test
  void renewalListenersHearEachExtensionAndEachFailedRenewalButNotTheLoss() {
    Flaky flaky = new Flaky(store.leases("node-a", LEASE, clock));
    SessionLeaseKeeper keeper = keeperA(flaky, direct);
    List<String> renewals = new ArrayList<>();
    keeper.onRenewal((lease, renewed) -> renewals.add((renewed ? "renewed " : "failed ") + lease));
    keeper.onRenewal((lease, renewed) -> {
      throw new IllegalStateException("listener broke");
    });
    SessionLease held = keeper.hold("s");
    advance(Duration.ofSeconds(10));
    SessionLease extended = keeper.lease("s").orElseThrow();
    flaky.failing = true;
    advance(Duration.ofSeconds(10));
    assertThat(renewals).containsExactly("renewed " + extended, "failed " + extended);
    assertThat(held).isNotEqualTo(extended);
    // the lease is taken over: the next renewal shows it lost, which is the lost listeners' news
    flaky.failing = false;
    clock.advance(LEASE);
    var unused = nodeB.acquire("s");
    advance(Duration.ofSeconds(1));
    assertThat(lost).hasSize(1);
    assertThat(renewals).hasSize(2);
    assertThat(warnings).filteredOn(w -> w.startsWith("a lease renewal listener failed for session s")).hasSize(2);
  }

  @Test
  void releaseFreesTheSessionAtOnceAndStopsRenewing() {
    SessionLeaseKeeper keeper = keeperA();
    keeper.hold("s");
    assertThat(keeper.release("s")).isTrue();
    assertThat(keeper.release("s")).isFalse();
    assertThat(timersA.dues()).isEmpty();
    assertThat(nodeB.acquire("s")).isEqualTo(new SessionLease.Fenced("s", "node-b", 2, T0.plus(LEASE)));
    advance(LEASE.multipliedBy(2));
    assertThat(lost).isEmpty();
  }

  @Test
  void aPersistWithoutAHeldLeaseIsRefusedAndWritesNothing() {
    SessionLeaseKeeper keeper = keeperA();
    assertThat(failure(keeper.persist(header("x"), log(1))))
        .hasMessage("session x is not leased by owner node-a here; nothing was written");
    assertThat(store.ids()).isEmpty();
    assertThat(lost).isEmpty();
  }

  @Test
  void closeReleasesEveryLeaseAndRefusesLaterHolds() {
    SessionLeaseKeeper keeper = keeperA();
    keeper.hold("s");
    keeper.hold("t");
    keeper.close();
    assertThat(nodeB.acquire("s").owner()).isEqualTo("node-b");
    assertThat(nodeB.acquire("t").owner()).isEqualTo("node-b");
    assertThat(timersA.dues()).isEmpty();
    assertThatThrownBy(() -> keeper.hold("u"))
        .isInstanceOf(IllegalStateException.class).hasMessage("the lease keeper of node-a is closed");
  }

  @Test
  void lostListenersRunOnTheExecutorAndAFailingOneIsReported() {
    List<Runnable> queued = new ArrayList<>();
    SessionLeaseKeeper keeper = keeperA(store.leases("node-a", LEASE, clock), queued::add);
    keeper.onLost((lease, why) -> {
      throw new IllegalStateException("listener broke");
    });
    keeper.hold("s");
    clock.advance(LEASE.plusMillis(1));
    var unused = nodeB.acquire("s");
    assertThat(refused(keeper.persist(header("s"), log(1)))).isEqualTo(SessionLeaseException.Code.STALE_EPOCH);
    assertThat(lost).as("not on the persisting thread").isEmpty();
    assertThat(queued).hasSize(1);
    queued.remove(0).run();
    assertThat(lost).hasSize(1);
    assertThat(warnings).containsExactly("a lost-lease listener failed for session s / listener broke");
  }

  @Test
  void exclusiveLeasesOfTheFileStoreNeedNoRenewal(@TempDir Path root) {
    try (FileSessionStore files = FileSessionStore.open(root, SyncMode.NEVER)) {
      SessionLeaseKeeper keeper = keeperA(files.leases("node-a"), direct);
      SessionLease held = keeper.hold("s");
      assertThat(held).isInstanceOf(SessionLease.Exclusive.class);
      assertThat(timersA.dues()).isEmpty();
      assertThat(keeper.owns("s")).isTrue();
      keeper.persist(header("s"), log(2)).toCompletableFuture().join();
      assertThat(keeper.load("s").orElseThrow().events()).isEqualTo(log(2));
      assertThat(keeper.ids()).containsExactly("s");
      assertThat(keeper.contains("s")).isTrue();
      assertThat(keeper.contains("t")).isFalse();
      keeper.close();
      assertThat(files.leases("node-b").acquire("s").owner()).isEqualTo("node-b");
    }
  }

  @Test
  void holdingAHeldSessionAgainNeitherAcquiresNorFencesTheFirstLease() {
    SessionLeaseKeeper keeper = keeperA();
    SessionLease first = keeper.hold("s");
    SessionLease again = keeper.hold("s");
    assertThat(again).isEqualTo(first);
    assertThat(((SessionLease.Fenced) again).epoch()).isEqualTo(1);
    assertThat(store.leases("node-a", LEASE, clock).current("s")).contains(first);
    assertThat(timersA.dues()).as("one renewal, not two").containsExactly(T0.plusSeconds(10));
    keeper.persist(header("s"), log(1)).toCompletableFuture().join();
    assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(1));
  }

  @Test
  void aStalePersistCancelsTheLeasesRenewal() {
    SessionLeaseKeeper keeper = keeperA();
    keeper.hold("s");
    clock.advance(LEASE.plusMillis(1));
    var unused = nodeB.acquire("s");
    assertThat(timersA.dues()).hasSize(1);
    assertThat(refused(keeper.persist(header("s"), log(1)))).isEqualTo(SessionLeaseException.Code.STALE_EPOCH);
    assertThat(timersA.dues()).isEmpty();
  }

  @Test
  void aRefusalThatArrivesThroughADependentStageMarksTheLeaseLostToo() {
    Flaky flaky = new Flaky(store.leases("node-a", LEASE, clock));
    flaky.persistAsync = true;
    SessionLeaseKeeper keeper = keeperA(flaky, direct);
    keeper.hold("s");
    clock.advance(LEASE.plusMillis(1));
    var unused = nodeB.acquire("s");
    assertThat(refused(keeper.persist(header("s"), log(1)))).isEqualTo(SessionLeaseException.Code.STALE_EPOCH);
    assertThat(lost).singleElement().asString().contains(": stale epoch: session s was written under epoch 1");
    assertThat(keeper.lease("s")).isEmpty();
  }

  @Test
  void aPersistThatFailsForAnotherReasonKeepsTheLease() {
    Flaky flaky = new Flaky(store.leases("node-a", LEASE, clock));
    SessionLeaseKeeper keeper = keeperA(flaky, direct);
    SessionLease held = keeper.hold("s");
    flaky.persistFailing = true;
    assertThat(failure(keeper.persist(header("s"), log(1)))).hasMessage("database unreachable");
    flaky.persistFailing = false;
    flaky.persistThrowing = true;
    // a store that throws instead of failing its stage still gives the caller a failed stage
    assertThat(failure(keeper.persist(header("s"), log(1)))).hasMessage("store broke");
    assertThat(lost).isEmpty();
    assertThat(keeper.lease("s")).contains(held);
    flaky.persistThrowing = false;
    keeper.persist(header("s"), log(1)).toCompletableFuture().join();
    assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(1));
  }

  @Test
  void twoRefusedPersistsInFlightReportTheLossOnce() {
    Flaky flaky = new Flaky(store.leases("node-a", LEASE, clock));
    flaky.persistPending = true;
    SessionLeaseKeeper keeper = keeperA(flaky, direct);
    keeper.hold("s");
    CompletionStage<Void> first = keeper.persist(header("s"), log(1));
    CompletionStage<Void> second = keeper.persist(header("s"), log(2));
    assertThat(flaky.pending).hasSize(2);
    for (var stage : flaky.pending) {
      stage.completeExceptionally(new SessionLeaseException(SessionLeaseException.Code.STALE_EPOCH, "s", "stale epoch: s"));
    }
    assertThat(refused(first)).isEqualTo(SessionLeaseException.Code.STALE_EPOCH);
    assertThat(refused(second)).isEqualTo(SessionLeaseException.Code.STALE_EPOCH);
    assertThat(lost).singleElement().asString().endsWith(": stale epoch: s");
  }

  @Test
  void releasesTheStoreRefusesAtCloseAreEachReportedAndTheLeasesDropped() {
    Flaky flaky = new Flaky(store.leases("node-a", LEASE, clock));
    SessionLeaseKeeper keeper = keeperA(flaky, direct);
    keeper.hold("s");
    keeper.hold("t");
    flaky.releaseFailing = true;
    keeper.close();
    assertThat(warnings).containsExactlyInAnyOrder(
        "releasing the lease of session s failed; it expires on its own / database gone",
        "releasing the lease of session t failed; it expires on its own / database gone");
    assertThat(keeper.lease("s")).isEmpty();
    assertThat(keeper.lease("t")).isEmpty();
    assertThat(timersA.dues()).isEmpty();
  }

  @Test
  void aRenewalTheExecutorRefusesIsReportedAndTheLeaseRunsOut() {
    Executor refusing = task -> {
      throw new java.util.concurrent.RejectedExecutionException("pool shut down");
    };
    SessionLeaseKeeper keeper = keeperA(store.leases("node-a", LEASE, clock), refusing);
    keeper.hold("s");
    advance(Duration.ofSeconds(10));
    assertThat(warnings).containsExactly("cannot renew the lease of session s: its executor refused / pool shut down");
    assertThat(timersA.dues()).isEmpty();
    clock.advance(Duration.ofSeconds(20).plusMillis(1));
    assertThat(keeper.owns("s")).isFalse();
  }

  @Test
  void aLossTheExecutorCannotReportIsWarnedAndStillDropsTheLease(@TempDir Path root) {
    Executor refusing = task -> {
      throw new java.util.concurrent.RejectedExecutionException("pool shut down");
    };
    try (FileSessionStore files = FileSessionStore.open(root, SyncMode.NEVER)) {
      SessionLeaseKeeper keeper = keeperA(files.leases("node-a"), refusing);
      keeper.hold("s");
      // released behind the keeper's back: its next persist is refused and the lease is lost
      assertThat(files.release("s")).isTrue();
      assertThat(refused(keeper.persist(header("s"), log(1)))).isEqualTo(SessionLeaseException.Code.NOT_LEASED);
      assertThat(warnings).containsExactly("cannot report the lost lease of session s (owner node-a): its executor refused"
          + " / pool shut down");
      assertThat(keeper.lease("s")).isEmpty();
      assertThat(lost).isEmpty();
    }
  }

  private static SessionLeaseException.Code refused(CompletionStage<Void> stage) {
    Throwable t = failure(stage);
    assertThat(t).isInstanceOf(SessionLeaseException.class);
    return ((SessionLeaseException) t).code();
  }

  /** Leases whose renewals fail while {@link #failing}, as an unreachable database's would. */
  private static final class Flaky implements SessionLeases {
    private final SessionLeases delegate;
    volatile boolean failing;
    /** Releases fail, as a database gone during shutdown would. */
    volatile boolean releaseFailing;
    /** Persists throw instead of returning a stage. */
    volatile boolean persistThrowing;
    /** Persists answer through a dependent stage, as an asynchronous store's would. */
    volatile boolean persistAsync;
    /** Persists fail with a database error. */
    volatile boolean persistFailing;
    /** Persists stay pending until the test completes them. */
    final List<java.util.concurrent.CompletableFuture<Void>> pending = new ArrayList<>();
    volatile boolean persistPending;

    Flaky(SessionLeases delegate) {
      this.delegate = delegate;
    }

    @Override
    public String owner() {
      return delegate.owner();
    }

    @Override
    public Optional<Duration> duration() {
      return delegate.duration();
    }

    @Override
    public SessionStore store() {
      return delegate.store();
    }

    @Override
    public SessionLease acquire(String sessionId) {
      return delegate.acquire(sessionId);
    }

    @Override
    public Optional<SessionLease> renew(SessionLease lease) {
      if (failing) {
        throw new SessionStoreException("database unreachable");
      }
      return delegate.renew(lease);
    }

    @Override
    public boolean release(SessionLease lease) {
      if (releaseFailing) {
        throw new SessionStoreException("database gone");
      }
      return delegate.release(lease);
    }

    @Override
    public Optional<SessionLease> current(String sessionId) {
      return delegate.current(sessionId);
    }

    @Override
    public Optional<Duration> remaining(SessionLease lease) {
      return delegate.remaining(lease);
    }

    @Override
    public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log, SessionLease lease) {
      if (persistThrowing) {
        throw new IllegalStateException("store broke");
      }
      if (persistFailing) {
        return java.util.concurrent.CompletableFuture.failedFuture(new SessionStoreException("database unreachable"));
      }
      if (persistPending) {
        java.util.concurrent.CompletableFuture<Void> later = new java.util.concurrent.CompletableFuture<>();
        pending.add(later);
        return later;
      }
      CompletionStage<Void> stage = delegate.persist(header, log, lease);
      return persistAsync ? stage.thenApply(v -> null) : stage;
    }
  }
}

package dev.horae.store;

import static dev.horae.store.Logs.failure;
import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.SessionStore;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The rules every store with fenced session leases keeps (the in-memory store, PostgreSQL), run
 * against each: two owners ("nodes") on one store, timed by a manual clock.
 */
abstract class SessionLeasesContract {

  static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  static final Duration LEASE = Duration.ofSeconds(30);

  final ManualClock clock = new ManualClock(T0);

  /** One owner's leases on the store under test (every call shares that one store). */
  abstract SessionLeases leases(String owner, Duration duration, InstantSource clock);

  /** How many events the store holds for a session, counted where it keeps them. */
  abstract long storedEvents(String id);

  /**
   * Holds every acquisition back until closed, so that concurrent acquisitions really overlap
   * ({@link Gate#awaitWaiting} returns once that many wait); by default there is nothing to hold.
   */
  Gate acquisitionGate() throws Exception {
    return new Gate() {
      @Override
      public void awaitWaiting(int acquisitions) {}

      @Override
      public void close() {}
    };
  }

  /** See {@link #acquisitionGate}. */
  interface Gate extends AutoCloseable {
    void awaitWaiting(int acquisitions) throws Exception;

    @Override
    void close() throws SQLException;
  }

  SessionLeases leases(String owner) {
    return leases(owner, LEASE, clock);
  }

  private static SessionLeaseException refusal(Throwable t, SessionLeaseException.Code code) {
    assertThat(t).isInstanceOf(SessionLeaseException.class);
    SessionLeaseException e = (SessionLeaseException) t;
    assertThat(e.code()).isEqualTo(code);
    return e;
  }

  @Test
  void aLiveLeaseRefusesAnotherOwnerUntilItHasExpired() {
    SessionLeases a = leases("node-a");
    SessionLeases b = leases("node-b");
    SessionLease la = a.acquire("s");
    assertThat(la).isEqualTo(new SessionLease.Fenced("s", "node-a", 1, T0.plus(LEASE)));
    // a lease ends strictly after its expiry
    clock.advance(LEASE);
    assertThatThrownBy(() -> b.acquire("s"))
        .isInstanceOfSatisfying(SessionLeaseException.class, e -> {
          assertThat(e.code()).isEqualTo(SessionLeaseException.Code.LEASE_HELD);
          assertThat(e.code().text()).isEqualTo("lease-held");
          assertThat(e.sessionId()).isEqualTo("s");
        })
        .hasMessage("session s is leased by owner node-a (epoch 1) until 2026-12-01T10:00:30Z; owner node-b cannot acquire it");
    assertThat(b.current("s")).contains(la);
    clock.advance(Duration.ofMillis(1));
    SessionLease lb = b.acquire("s");
    assertThat(lb).isEqualTo(new SessionLease.Fenced("s", "node-b", 2, T0.plus(LEASE).plusMillis(1).plus(LEASE)));
    assertThat(a.current("s")).contains(lb);
  }

  @Test
  void aStaleEpochIsRefusedAndWritesNothing() {
    SessionLeases a = leases("node-a");
    SessionLeases b = leases("node-b");
    SessionLease la = a.acquire("s");
    a.persist(header("s"), log(2), la).toCompletableFuture().join();
    clock.advance(LEASE.plusMillis(1));
    SessionLease lb = b.acquire("s");

    SessionLeaseException stale = refusal(failure(a.persist(header("s"), log(4), la)), SessionLeaseException.Code.STALE_EPOCH);
    assertThat(stale.code().text()).isEqualTo("stale-epoch");
    assertThat(stale).hasMessage("stale epoch: session s was written under epoch 1 of owner node-a, but its lease is now "
        + "epoch 2 of owner node-b; nothing was written");
    assertThat(storedEvents("s")).isEqualTo(2);
    assertThat(a.store().load("s").orElseThrow().events()).isEqualTo(log(2));

    b.persist(header("s"), log(3), lb).toCompletableFuture().join();
    assertThat(storedEvents("s")).isEqualTo(3);
  }

  @Test
  void aNewSessionIsLeasedBeforeItExistsAndAStaleFirstPersistCreatesNothing() {
    SessionLeases a = leases("node-a");
    SessionLeases b = leases("node-b");
    SessionLease la = a.acquire("new");
    assertThat(a.store().ids()).doesNotContain("new");
    clock.advance(LEASE.plusMillis(1));
    var unused = b.acquire("new");
    refusal(failure(a.persist(header("new"), log(3), la)), SessionLeaseException.Code.STALE_EPOCH);
    assertThat(a.store().ids()).doesNotContain("new");
    assertThat(a.store().load("new")).isEmpty();
    assertThat(storedEvents("new")).isZero();
  }

  @Test
  void aWriteWithoutItsLeaseIsRefusedWhileALeaseIsRecorded() {
    SessionLeases a = leases("node-a");
    SessionStore store = a.store();
    store.persist(header("s"), log(1)).toCompletableFuture().join();
    SessionLease la = a.acquire("s");
    assertThat(refusal(failure(store.persist(header("s"), log(2))), SessionLeaseException.Code.NOT_LEASED))
        .hasMessage("session s is leased by owner node-a (epoch 1); a write without its lease is refused and nothing was written");
    assertThat(storedEvents("s")).isEqualTo(1);
    assertThat(a.release(la)).isTrue();
    store.persist(header("s"), log(2)).toCompletableFuture().join();
    assertThat(storedEvents("s")).isEqualTo(2);
  }

  @Test
  void renewalExtendsTheLeaseAndKeepsItsEpoch() {
    SessionLeases a = leases("node-a");
    SessionLeases b = leases("node-b");
    SessionLease la = a.acquire("s");
    clock.advance(Duration.ofSeconds(10));
    SessionLease renewed = a.renew(la).orElseThrow();
    assertThat(renewed).isEqualTo(new SessionLease.Fenced("s", "node-a", 1, T0.plusSeconds(40)));
    assertThat(a.remaining(renewed)).contains(LEASE);
    // past the first expiry, before the renewed one
    clock.advance(Duration.ofSeconds(25));
    assertThat(a.remaining(la)).contains(Duration.ofSeconds(-5));
    assertThatThrownBy(() -> b.acquire("s")).isInstanceOf(SessionLeaseException.class);
    a.persist(header("s"), log(1), renewed).toCompletableFuture().join();
    assertThat(storedEvents("s")).isEqualTo(1);
  }

  @Test
  void anExpiredLeaseNobodyTookStillRenewsAndWrites() {
    SessionLeases a = leases("node-a");
    SessionLease la = a.acquire("s");
    clock.advance(LEASE.multipliedBy(3));
    a.persist(header("s"), log(1), la).toCompletableFuture().join();
    assertThat(a.renew(la)).contains(new SessionLease.Fenced("s", "node-a", 1, T0.plus(LEASE.multipliedBy(4))));
  }

  @Test
  void renewalFindsALeaseAnotherOwnerTook() {
    SessionLeases a = leases("node-a");
    SessionLeases b = leases("node-b");
    SessionLease la = a.acquire("s");
    clock.advance(LEASE.plusMillis(1));
    SessionLease lb = b.acquire("s");
    assertThat(a.renew(la)).isEmpty();
    assertThat(a.release(la)).isFalse();
    assertThat(b.current("s")).contains(lb);
  }

  @Test
  void releaseLetsAnotherOwnerAcquireAtOnce() {
    SessionLeases a = leases("node-a");
    SessionLeases b = leases("node-b");
    SessionLease la = a.acquire("s");
    assertThat(a.release(la)).isTrue();
    assertThat(a.release(la)).isFalse();
    assertThat(a.current("s")).isEmpty();
    assertThat(a.renew(la)).isEmpty();
    assertThat(refusal(failure(a.persist(header("s"), log(1), la)), SessionLeaseException.Code.STALE_EPOCH))
        .hasMessage("stale epoch: session s was written under epoch 1 of owner node-a, but its lease was released; nothing was written");
    // no time has passed
    SessionLease lb = b.acquire("s");
    assertThat(lb).isEqualTo(new SessionLease.Fenced("s", "node-b", 2, T0.plus(LEASE)));
    assertThat(storedEvents("s")).isZero();
  }

  @Test
  void theSameOwnerReacquiresWithANewEpochThatFencesItsOlderLease() {
    SessionLeases a = leases("node-a");
    SessionLease first = a.acquire("s");
    SessionLease second = a.acquire("s");
    assertThat(second).isEqualTo(new SessionLease.Fenced("s", "node-a", 2, T0.plus(LEASE)));
    refusal(failure(a.persist(header("s"), log(1), first)), SessionLeaseException.Code.STALE_EPOCH);
    a.persist(header("s"), log(1), second).toCompletableFuture().join();
    assertThat(storedEvents("s")).isEqualTo(1);
  }

  @Test
  void twoConcurrentAcquisitionsYieldExactlyOneOwner() throws Exception {
    List<SessionLeases> nodes = List.of(leases("node-a"), leases("node-b"));
    CountDownLatch ready = new CountDownLatch(2);
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<Object>> outcomes = new ArrayList<>();
      try (Gate gate = acquisitionGate()) {
        for (SessionLeases node : nodes) {
          outcomes.add(pool.submit(() -> {
            ready.countDown();
            go.await();
            try {
              return node.acquire("s");
            } catch (SessionLeaseException e) {
              return e;
            }
          }));
        }
        assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
        go.countDown();
        gate.awaitWaiting(2);
      }
      List<Object> results = new ArrayList<>();
      for (Future<Object> outcome : outcomes) {
        results.add(outcome.get(30, TimeUnit.SECONDS));
      }
      List<SessionLease> won = results.stream().filter(SessionLease.class::isInstance).map(SessionLease.class::cast).toList();
      assertThat(won).hasSize(1);
      assertThat(((SessionLease.Fenced) won.get(0)).epoch()).isEqualTo(1);
      assertThat(results).filteredOn(SessionLeaseException.class::isInstance)
          .singleElement()
          .satisfies(e -> assertThat(((SessionLeaseException) e).code()).isEqualTo(SessionLeaseException.Code.LEASE_HELD));
      assertThat(nodes.get(0).current("s")).contains(won.get(0));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void badInputGetsClearErrorsAndChangesNothing() {
    assertThatThrownBy(() -> leases("", LEASE, clock))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("a lease owner must be a non-blank id, got \"\"");
    assertThatThrownBy(() -> leases(" ", LEASE, clock))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("a lease owner must be a non-blank id, got \" \"");
    assertThatThrownBy(() -> leases("node-a", Duration.ZERO, clock))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("a lease duration must be positive (at least 1 ms), got PT0S");
    assertThatThrownBy(() -> leases("node-a", Duration.ofSeconds(-1), clock))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("a lease duration must be positive (at least 1 ms), got PT-1S");
    assertThatThrownBy(() -> leases("node-a", Duration.ofNanos(999_999), clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a lease duration must be positive (at least 1 ms), got PT0.000999999S");

    SessionLeases a = leases("node-a");
    assertThatThrownBy(() -> a.acquire(""))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("a leased session id must not be blank");
    assertThatThrownBy(() -> a.acquire("  "))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("a leased session id must not be blank");
    SessionLease la = a.acquire("s");
    assertThat(failure(a.persist(header("t"), log(1), la)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("lease " + la + " is for session s, not t");
    SessionLease exclusive = new SessionLease.Exclusive("s", "node-a", Path.of("gate.lock"));
    assertThat(failure(a.persist(header("s"), log(1), exclusive)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith(" is not a fenced lease");
    assertThatThrownBy(() -> a.renew(exclusive)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> a.release(exclusive)).isInstanceOf(IllegalArgumentException.class);
    assertThat(storedEvents("s")).isZero();
    assertThat(storedEvents("t")).isZero();
    assertThat(a.current("t")).isEmpty();
    assertThat(a.current("s")).contains(la);
  }
}

package dev.horae.store;

import dev.horae.spi.Registration;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.StoredSession;
import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * The session leases one node holds, kept alive: a {@link SessionStore} whose {@link #persist}
 * writes each session under the lease held for it, so every flush of a {@link LogSessions} over
 * it carries the lease's epoch.
 *
 * <ul>
 *   <li>{@link #hold} acquires a session's lease (or returns the one held) and renews it every
 *       third of the lease duration ({@code spec/gate.md} §15 D-10) on the injected timers; the
 *       renewal itself (a store round trip) runs on the injected executor, never on the timer
 *       thread.
 *   <li>A lease is <em>lost</em> when a renewal finds it no longer current (another owner acquired
 *       the session, or it was released behind the keeper's back), when a persist under it is
 *       refused as stale, or when renewals keep failing until it has expired on the leases' clock.
 *       Each lost lease is dropped and reported once to every {@link #onLost} listener, on the
 *       executor; the node must then stop working on that session.
 *   <li>{@link #persist} of a session the keeper holds no lease for fails with {@link
 *       SessionLeaseException.Code#NOT_LEASED} and writes nothing.
 * </ul>
 *
 * <p>Thread-safe. {@link #close} cancels the renewals and releases every held lease.
 */
public final class SessionLeaseKeeper implements SessionStore, AutoCloseable {

  /** Told that a lease this keeper held is lost. */
  @FunctionalInterface
  public interface LostListener {

    /**
     * The node no longer holds {@code lease}: close what works on its session. Runs on the keeper's
     * executor; a throwing listener is reported to the warning sink.
     *
     * @param lease the lost lease
     * @param why what showed the loss
     */
    void onLost(SessionLease lease, String why);
  }

  /** Told of each renewal of a held lease that reached a verdict other than a loss. */
  @FunctionalInterface
  public interface RenewalListener {

    /**
     * A renewal ran: {@code renewed} when the store extended the lease, false when the store
     * failed and the keeper retries (a renewal that shows the lease lost goes to {@link
     * LostListener} instead). Runs on the keeper's executor; a throwing listener is reported to
     * the warning sink.
     *
     * @param lease the lease as renewed, or the one whose renewal failed
     * @param renewed whether the store extended it
     */
    void onRenewal(SessionLease lease, boolean renewed);
  }

  private final SessionLeases leases;
  private final Timers timers;
  private final Executor executor;
  private final WarningSink warnings;
  private final Hooks<LostListener> lostListeners = new Hooks<>();
  private final Hooks<RenewalListener> renewalListeners = new Hooks<>();
  /** Entries change under {@code this}; reads need no lock. */
  private final Map<String, Held> held = new ConcurrentHashMap<>();
  /** Serialises acquisitions, so one session is never acquired twice (which would fence itself). */
  private final Object acquiring = new Object();
  private volatile boolean closed;

  private SessionLeaseKeeper(SessionLeases leases, Timers timers, Executor executor, WarningSink warnings) {
    this.leases = leases;
    this.timers = timers;
    this.executor = executor;
    this.warnings = warnings;
  }

  /**
   * A keeper of one owner's leases.
   *
   * @param leases the owner's leases on a store
   * @param timers the timers that pace renewals
   * @param executor where renewals and lost-lease listeners run
   * @param warnings where failed renewals and failing listeners are reported
   * @return the keeper, holding nothing yet
   */
  public static SessionLeaseKeeper of(SessionLeases leases, Timers timers, Executor executor, WarningSink warnings) {
    return new SessionLeaseKeeper(
        Objects.requireNonNull(leases, "leases"), Objects.requireNonNull(timers, "timers"),
        Objects.requireNonNull(executor, "executor"), Objects.requireNonNull(warnings, "warnings"));
  }

  /**
   * The leases this keeper holds through.
   *
   * @return the owner's leases
   */
  public SessionLeases leases() {
    return leases;
  }

  /**
   * Holds a session's lease: the lease already held, or a new acquisition, renewed from then on.
   *
   * @param sessionId the session
   * @return the held lease
   * @throws SessionLeaseException code {@code lease-held} when another owner holds it
   * @throws IllegalStateException when the keeper is closed
   * @throws SessionStoreException when the store fails
   */
  public SessionLease hold(String sessionId) {
    synchronized (acquiring) {
      requireOpen();
      Held current = held.get(sessionId);
      if (current != null) {
        return current.lease;
      }
      Held acquired = new Held(leases.acquire(sessionId));
      synchronized (this) {
        held.put(sessionId, acquired);
        scheduleRenewal(acquired, renewInterval());
      }
      return acquired.lease;
    }
  }

  /**
   * The lease held for a session.
   *
   * @param sessionId the session
   * @return the lease, or empty when none is held (never held, released or lost)
   */
  public Optional<SessionLease> lease(String sessionId) {
    Held h = held.get(sessionId);
    return h == null ? Optional.empty() : Optional.of(h.lease);
  }

  /**
   * Whether the node may still act for a session: a lease is held and has not expired on the
   * leases' clock. Check it before an external effect (a delivered reminder, a tool call), as a
   * dispatch claim is checked ({@code spec/gate.md} §12.5.3, LEASE-06).
   *
   * @param sessionId the session
   * @return whether this node owns it now
   */
  public boolean owns(String sessionId) {
    Held h = held.get(sessionId);
    return h != null && leases.remaining(h.lease).map(left -> !left.isNegative()).orElse(true);
  }

  /**
   * Stops holding a session's lease and frees it in the store, so another node may acquire it at
   * once.
   *
   * @param sessionId the session
   * @return whether a lease was held (and, the store permitting, is now released)
   * @throws SessionStoreException when the store fails; the lease is dropped here all the same and
   *     expires on its own
   */
  public boolean release(String sessionId) {
    Held h;
    synchronized (this) {
      h = held.remove(sessionId);
      if (h == null) {
        return false;
      }
      h.cancel();
    }
    var unused = leases.release(h.lease);
    return true;
  }

  /**
   * Listens for lost leases.
   *
   * @param listener told once per lost lease, on the executor
   * @return a handle that removes it
   */
  public Registration onLost(LostListener listener) {
    return lostListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Listens for renewals (metrics): each renewal that extended a lease, and each that failed and
   * will be retried.
   *
   * @param listener told on the executor, after the renewal
   * @return a handle that removes it
   */
  public Registration onRenewal(RenewalListener listener) {
    return renewalListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Persists under the lease held for the session ({@link SessionLeases#persist}). A refusal as
   * stale (or as not leased by the store) also marks the lease lost.
   *
   * @param header the session's header
   * @param log the whole raw log
   * @return the store's stage; failed with {@link SessionLeaseException} ({@code not-leased}) when
   *     no lease is held for the session
   */
  @Override
  public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log) {
    Held h = held.get(header.id());
    if (h == null) {
      return CompletableFuture.failedFuture(new SessionLeaseException(SessionLeaseException.Code.NOT_LEASED, header.id(),
          "session " + header.id() + " is not leased by owner " + leases.owner() + " here; nothing was written"));
    }
    CompletionStage<Void> stage;
    try {
      stage = leases.persist(header, log, h.lease);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return stage.whenComplete((ignored, failure) -> {
      Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
      if (cause instanceof SessionLeaseException refused) {
        lost(h, String.valueOf(refused.getMessage()));
      }
    });
  }

  /** The sessions of the store, held or not. */
  @Override
  public Optional<StoredSession> load(String id) {
    return leases.store().load(id);
  }

  /** The ids of the store's sessions, held or not. */
  @Override
  public Set<String> ids() {
    return leases.store().ids();
  }

  /**
   * Whether the store holds the session (no lease needed to ask).
   *
   * @param id the session id
   * @return true when it is stored
   */
  @Override
  public boolean contains(String id) {
    return leases.store().contains(id);
  }

  /**
   * Cancels every renewal and releases every held lease; a release the store refuses is reported
   * to the warning sink (that lease expires on its own). Later {@link #hold} calls fail.
   */
  @Override
  public void close() {
    closed = true;
    for (String id : List.copyOf(held.keySet())) {
      try {
        var unused = release(id);
      } catch (RuntimeException e) {
        warnings.warn("releasing the lease of session " + id + " failed; it expires on its own", Optional.of(e));
      }
    }
  }

  // ---- renewal ------------------------------------------------------------------------------

  /** A third of the lease, or empty for leases that never expire. */
  private Optional<Duration> renewInterval() {
    return leases.duration().map(d -> d.dividedBy(3));
  }

  /** Caller holds {@code this}. */
  private void scheduleRenewal(Held h, Optional<Duration> delay) {
    if (delay.isEmpty() || closed || held.get(h.lease.sessionId()) != h) {
      return;
    }
    h.timer = timers.schedule(delay.get(), () -> {
      try {
        executor.execute(() -> renew(h));
      } catch (RejectedExecutionException e) {
        warnings.warn("cannot renew the lease of session " + h.lease.sessionId() + ": its executor refused", Optional.of(e));
      }
    });
  }

  private void renew(Held h) {
    String id = h.lease.sessionId();
    if (held.get(id) != h) {
      return;
    }
    Optional<SessionLease> renewed;
    try {
      renewed = leases.renew(h.lease);
    } catch (RuntimeException e) {
      Duration left = leases.remaining(h.lease).orElse(Duration.ZERO);
      if (left.isNegative()) {
        lost(h, "lease " + describe(h.lease) + " expired before it could be renewed: " + e.getMessage());
        return;
      }
      warnings.warn("renewing the lease " + describe(h.lease) + " failed; retrying", Optional.of(e));
      renewed(h.lease, false);
      // retry at the next third, but no later than just past the expiry, so a store that stays
      // unreachable ends the lease here when it ends for everyone else
      Duration retry = renewInterval().orElseThrow();
      Duration pastExpiry = left.plusMillis(1);
      synchronized (this) {
        scheduleRenewal(h, Optional.of(pastExpiry.compareTo(retry) < 0 ? pastExpiry : retry));
      }
      return;
    }
    if (renewed.isEmpty()) {
      lost(h, "lease " + describe(h.lease) + " is no longer current: another owner acquired the session or it was released");
      return;
    }
    Held next = new Held(renewed.get());
    synchronized (this) {
      if (held.replace(id, h, next)) {
        scheduleRenewal(next, renewInterval());
      }
    }
    renewed(next.lease, true);
  }

  /** Runs on the executor already: renewals do. */
  private void renewed(SessionLease lease, boolean extended) {
    for (RenewalListener listener : renewalListeners.snapshot()) {
      try {
        listener.onRenewal(lease, extended);
      } catch (RuntimeException e) {
        warnings.warn("a lease renewal listener failed for session " + lease.sessionId(), Optional.of(e));
      }
    }
  }

  private void lost(Held h, String why) {
    synchronized (this) {
      if (!held.remove(h.lease.sessionId(), h)) {
        // released, or already reported lost
        return;
      }
      h.cancel();
    }
    Runnable tell = () -> {
      for (LostListener listener : lostListeners.snapshot()) {
        try {
          listener.onLost(h.lease, why);
        } catch (RuntimeException e) {
          warnings.warn("a lost-lease listener failed for session " + h.lease.sessionId(), Optional.of(e));
        }
      }
    };
    try {
      executor.execute(tell);
    } catch (RejectedExecutionException e) {
      warnings.warn("cannot report the lost lease " + describe(h.lease) + ": its executor refused", Optional.of(e));
    }
  }

  private static String describe(SessionLease lease) {
    if (lease instanceof SessionLease.Fenced f) {
      return "of session " + f.sessionId() + " (owner " + f.owner() + ", epoch " + f.epoch() + ", expires " + f.expiresAt() + ")";
    }
    return "of session " + lease.sessionId() + " (owner " + lease.owner() + ")";
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the lease keeper of " + leases.owner() + " is closed");
    }
  }

  /** One held lease and its pending renewal. */
  private static final class Held {
    final SessionLease lease;
    /** Guarded by the keeper. */
    @Nullable Cancellable timer;

    Held(SessionLease lease) {
      this.lease = lease;
    }

    void cancel() {
      Cancellable t = timer;
      if (t != null) {
        t.cancel();
      }
    }
  }
}

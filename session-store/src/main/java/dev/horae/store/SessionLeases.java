package dev.horae.store;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * One owner's view of a store's session leases: a session is writable by one owner at a time. Get
 * one from {@link JdbcSessionStore#leases}, {@link MemorySessionStore#leases} or {@link
 * FileSessionStore#leases}; {@link SessionLeaseKeeper} holds and renews the leases of a node and
 * {@link LogSessions#leased} opens sessions under them.
 *
 * <p>The rules ({@code docs/persistence.md}, "Session leases"):
 *
 * <ul>
 *   <li>{@link #acquire} takes a session that is free (never leased, or released) or whose lease
 *       has expired, and increments its epoch; a live lease of another owner refuses it with
 *       {@link SessionLeaseException.Code#LEASE_HELD}.
 *   <li>{@link #persist} writes only while the lease it carries is the recorded one (same owner and
 *       epoch), checked in the same transaction as the insert; otherwise it fails with {@link
 *       SessionLeaseException.Code#STALE_EPOCH} and writes nothing. The store's plain {@code
 *       persist} refuses a session on which a lease is recorded with {@link
 *       SessionLeaseException.Code#NOT_LEASED}.
 *   <li>{@link #renew} extends a lease whose owner and epoch are still recorded (also after it
 *       expired, as long as nobody acquired it since); {@link #release} frees it.
 * </ul>
 *
 * <p>Times come from the clock given to the store's {@code leases} method, never from a database:
 * nodes must have loosely synchronised clocks, and the lease duration must exceed the worst clock
 * skew between them by a wide margin.
 */
public interface SessionLeases {

  /**
   * Who acquires through this view.
   *
   * @return the owner id
   */
  String owner();

  /**
   * How long an acquired or renewed lease lasts.
   *
   * @return the duration, or empty when leases never expire (the file store's exclusive lock)
   */
  Optional<Duration> duration();

  /**
   * The store these leases guard, for reading ({@code load}, {@code ids}).
   *
   * @return the store
   */
  SessionStore store();

  /**
   * Takes the lease of a session for {@link #owner()}: when it is free or expired (or already this
   * owner's), in one transaction, with the epoch incremented.
   *
   * @param sessionId the session, stored or not yet
   * @return the new lease
   * @throws SessionLeaseException code {@code lease-held} when another owner's lease is live
   * @throws IllegalArgumentException when the id is blank
   * @throws SessionStoreException when the store fails
   */
  SessionLease acquire(String sessionId);

  /**
   * Extends a lease by {@link #duration()} from now, if its owner and epoch are still the recorded
   * ones.
   *
   * @param lease a lease this view acquired
   * @return the renewed lease (same epoch, later expiry), or empty when it is no longer current:
   *     another owner acquired the session, or the lease was released
   * @throws SessionStoreException when the store fails (the lease's fate is then unknown)
   */
  Optional<SessionLease> renew(SessionLease lease);

  /**
   * Frees a lease, so any owner may acquire the session at once. Releasing a lease that is no
   * longer current changes nothing.
   *
   * @param lease a lease this view acquired
   * @return whether it was current and is now released
   * @throws SessionStoreException when the store fails
   */
  boolean release(SessionLease lease);

  /**
   * The lease recorded for a session, live or expired, for operators and diagnostics.
   *
   * @param sessionId the session
   * @return the recorded lease, or empty when none is (never leased, or released)
   * @throws SessionStoreException when the store fails
   */
  Optional<SessionLease> current(String sessionId);

  /**
   * How long a lease has left on this view's clock: {@code expiresAt - now}, negative once it has
   * expired. It reads no store: a lease with time left may still have been lost through a release,
   * and an expired one still writes until someone acquires the session.
   *
   * @param lease a lease
   * @return the time left, or empty for a lease that never expires (an exclusive lease)
   */
  Optional<Duration> remaining(SessionLease lease);

  /**
   * Persists a session's log under a lease: the same contract as {@link SessionStore#persist}, and
   * in the same transaction the check that the lease is still the recorded one.
   *
   * @param header the session's header
   * @param log the whole raw log, an atomic snapshot
   * @param lease the lease the write claims; its session must be the header's
   * @return a completed stage: normally once the log is durable, exceptionally with {@link
   *     SessionLeaseException} ({@code stale-epoch} or {@code not-leased}) when the lease is not
   *     current, having written nothing, or with the store's own errors
   */
  CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log, SessionLease lease);
}

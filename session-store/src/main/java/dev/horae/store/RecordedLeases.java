package dev.horae.store;

import dev.horae.store.internal.LeaseRules;
import dev.horae.store.internal.LeaseRules.LeaseRecord;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Fenced leases of a store that records one {@link LeaseRecord} per session (PostgreSQL, the
 * in-memory store): acquisition, renewal and release decided once here with {@link LeaseRules},
 * each on a record the store holds locked for the whole decision.
 */
abstract class RecordedLeases implements SessionLeases {

  /**
   * What an operation decided on a locked record.
   *
   * @param write the record to store, or null to leave it as it is
   * @param result what the operation returns
   */
  record Decision<T>(@Nullable LeaseRecord write, T result) {}

  private final String owner;
  private final Duration duration;
  private final long durationMs;
  private final InstantSource clock;

  RecordedLeases(String owner, Duration duration, InstantSource clock) {
    this.owner = LeaseRules.owner(owner);
    this.durationMs = LeaseRules.durationMillis(duration);
    this.duration = duration;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The time on this view's clock, as every lease decision of it reads it. */
  final long nowMs() {
    return clock.millis();
  }

  /** The lease duration in milliseconds. */
  final long durationMs() {
    return durationMs;
  }

  /** The store's name, for error texts. */
  abstract String storeName();

  /**
   * Runs {@code decide} on the session's record, locked until the decision is stored (one
   * transaction); a decision that throws changes nothing.
   *
   * @param create whether a missing record is created (free, epoch 0) first, so that concurrent
   *     first acquisitions lock the same record
   */
  abstract <T> T locked(String sessionId, boolean create, Function<LeaseRecord, Decision<T>> decide);

  /** The session's record as committed, without locking it. */
  abstract LeaseRecord read(String sessionId);

  @Override
  public final String owner() {
    return owner;
  }

  @Override
  public final Optional<Duration> duration() {
    return Optional.of(duration);
  }

  @Override
  public final SessionLease acquire(String sessionId) {
    LeaseRules.sessionId(sessionId);
    long now = clock.millis();
    return locked(sessionId, true, current -> {
      LeaseRecord next = LeaseRules.acquire(current, owner, now, durationMs)
          .orElseThrow(() -> Leases.held(sessionId, owner, current));
      return new Decision<>(next, Leases.held(sessionId, next));
    });
  }

  @Override
  public final Optional<SessionLease> renew(SessionLease lease) {
    SessionLease.Fenced mine = Leases.fenced(lease, lease.sessionId(), storeName());
    long now = clock.millis();
    return locked(mine.sessionId(), false, current -> {
      if (!LeaseRules.current(current, mine.owner(), mine.epoch())) {
        return new Decision<Optional<SessionLease>>(null, Optional.empty());
      }
      LeaseRecord next = LeaseRules.renewed(current, now, durationMs);
      return new Decision<>(next, Optional.of(Leases.held(mine.sessionId(), next)));
    });
  }

  @Override
  public final boolean release(SessionLease lease) {
    SessionLease.Fenced mine = Leases.fenced(lease, lease.sessionId(), storeName());
    return locked(mine.sessionId(), false, current -> LeaseRules.current(current, mine.owner(), mine.epoch())
        ? new Decision<>(LeaseRules.released(current), true)
        : new Decision<>(null, false));
  }

  @Override
  public final Optional<SessionLease> current(String sessionId) {
    return Leases.of(sessionId, read(sessionId));
  }

  @Override
  public final Optional<Duration> remaining(SessionLease lease) {
    return Leases.remaining(lease, clock);
  }

  @Override
  public String toString() {
    return "leases of " + owner + " on " + storeName();
  }
}

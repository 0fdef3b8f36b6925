package dev.horae.store;

import dev.horae.spi.session.SessionHeader;
import dev.horae.store.internal.LeaseRules;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** Conversions and refusals shared by the stores that record fenced leases. */
final class Leases {

  private Leases() {}

  /**
   * The fenced lease a write or renewal of a recording store claims.
   *
   * @throws IllegalArgumentException when the lease is of the other kind, or for another session
   */
  static SessionLease.Fenced fenced(SessionLease lease, String sessionId, String store) {
    Objects.requireNonNull(lease, "lease");
    if (!(lease instanceof SessionLease.Fenced fenced)) {
      throw new IllegalArgumentException(store + " fences writes by epoch; " + lease + " is not a fenced lease");
    }
    if (!fenced.sessionId().equals(sessionId)) {
      throw new IllegalArgumentException("lease " + lease + " is for session " + fenced.sessionId() + ", not " + sessionId);
    }
    return fenced;
  }

  /** The lease a write of {@code header} claims. */
  static SessionLease.Fenced fenced(SessionLease lease, SessionHeader header, String store) {
    return fenced(lease, header.id(), store);
  }

  /** The recorded lease of a record, or empty when it is free. */
  static Optional<SessionLease> of(String sessionId, LeaseRules.LeaseRecord record) {
    LeaseRules.Holder h = record.holder();
    return h == null
        ? Optional.empty()
        : Optional.of(new SessionLease.Fenced(sessionId, h.owner(), record.epoch(), Instant.ofEpochMilli(h.expiresAtMs())));
  }

  /** The lease of a record that was just acquired or renewed. */
  static SessionLease.Fenced held(String sessionId, LeaseRules.LeaseRecord record) {
    return (SessionLease.Fenced) of(sessionId, record).orElseThrow();
  }

  /**
   * Why a write is refused, or empty when it may go ahead: a write with a lease must carry the
   * recorded owner and epoch; a write without one is refused while a lease is recorded.
   */
  static Optional<SessionLeaseException> refusal(
      String sessionId, LeaseRules.LeaseRecord record, SessionLease.@Nullable Fenced lease) {
    if (lease == null) {
      return record.holder() == null
          ? Optional.empty()
          : Optional.of(new SessionLeaseException(
              SessionLeaseException.Code.NOT_LEASED, sessionId, LeaseRules.unleasedMessage(sessionId, record)));
    }
    return LeaseRules.current(record, lease.owner(), lease.epoch())
        ? Optional.empty()
        : Optional.of(new SessionLeaseException(SessionLeaseException.Code.STALE_EPOCH, sessionId,
            LeaseRules.staleMessage(sessionId, lease.owner(), lease.epoch(), record)));
  }

  /** The refusal of an acquisition. */
  static SessionLeaseException held(String sessionId, String owner, LeaseRules.LeaseRecord record) {
    return new SessionLeaseException(
        SessionLeaseException.Code.LEASE_HELD, sessionId, LeaseRules.heldMessage(sessionId, owner, record));
  }

  /** The time a lease has left on {@code clock}; an exclusive lease never expires. */
  static Optional<Duration> remaining(SessionLease lease, InstantSource clock) {
    return lease instanceof SessionLease.Fenced fenced
        // in whole milliseconds, as the store records and compares lease times
        ? Optional.of(Duration.ofMillis(fenced.expiresAt().toEpochMilli() - clock.millis()))
        : Optional.empty();
  }
}

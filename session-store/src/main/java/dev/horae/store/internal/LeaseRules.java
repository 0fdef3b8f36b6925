package dev.horae.store.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The session-lease rules shared by every store that records leases (PostgreSQL and in-memory), so
 * each store only reads and writes a {@link LeaseRecord} while holding the session's lease row locked.
 * Times are milliseconds of the caller's clock; nothing here reads one.
 */
public final class LeaseRules {

  private LeaseRules() {}

  /**
   * One session's lease record.
   *
   * @param epoch the epoch of the latest acquisition (0 when never acquired)
   * @param holder the current holder, or null when the session is free (never leased, or released)
   */
  public record LeaseRecord(long epoch, @Nullable Holder holder) {

    /** A session nobody has acquired yet. */
    public static final LeaseRecord NEVER_LEASED = new LeaseRecord(0, null);
  }

  /**
   * Who holds a lease and until when.
   *
   * @param owner the holder
   * @param acquiredAtMs when the epoch was acquired
   * @param expiresAtMs when the lease ends unless renewed
   */
  public record Holder(String owner, long acquiredAtMs, long expiresAtMs) {}

  /**
   * Checks an owner id.
   *
   * @param owner the owner
   * @return the owner
   * @throws IllegalArgumentException when it is blank
   */
  public static String owner(String owner) {
    Objects.requireNonNull(owner, "owner");
    if (owner.isBlank()) {
      throw new IllegalArgumentException("a lease owner must be a non-blank id, got \"" + owner + "\"");
    }
    return owner;
  }

  /**
   * Checks a lease duration.
   *
   * @param duration the duration
   * @return it in milliseconds
   * @throws IllegalArgumentException when it is shorter than 1 ms (zero or negative included)
   */
  public static long durationMillis(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative() || duration.compareTo(Duration.ofMillis(1)) < 0) {
      throw new IllegalArgumentException("a lease duration must be positive (at least 1 ms), got " + duration);
    }
    return duration.toMillis();
  }

  /**
   * Checks a session id given to a lease operation.
   *
   * @param sessionId the id
   * @return the id
   * @throws IllegalArgumentException when it is blank
   */
  public static String sessionId(String sessionId) {
    Objects.requireNonNull(sessionId, "sessionId");
    if (sessionId.isBlank()) {
      throw new IllegalArgumentException("a leased session id must not be blank");
    }
    return sessionId;
  }

  /**
   * Whether a lease is live at {@code nowMs}: it ends strictly after its expiry, as a dispatch
   * claim's does ({@code spec/gate.md} §12.5.2, LEASE-01).
   *
   * @param expiresAtMs the lease's expiry
   * @param nowMs the caller's time
   * @return whether it is live
   */
  public static boolean live(long expiresAtMs, long nowMs) {
    return nowMs <= expiresAtMs;
  }

  /**
   * Acquisition: a free or expired record, or one this owner holds, goes to {@code owner} with the
   * next epoch; a live lease of another owner refuses it.
   *
   * @param current the locked record
   * @param owner who acquires
   * @param nowMs the caller's time
   * @param durationMs the lease duration
   * @return the new record, or empty when another owner's live lease refuses it
   */
  public static Optional<LeaseRecord> acquire(LeaseRecord current, String owner, long nowMs, long durationMs) {
    Holder h = current.holder();
    if (h != null && !h.owner().equals(owner) && live(h.expiresAtMs(), nowMs)) {
      return Optional.empty();
    }
    return Optional.of(new LeaseRecord(current.epoch() + 1, new Holder(owner, nowMs, expiry(nowMs, durationMs))));
  }

  /**
   * Whether a write or renewal claiming {@code owner} and {@code epoch} is still the recorded lease.
   * Expiry alone does not end it: only another acquisition (which raises the epoch) or a release
   * does, so a holder that nobody displaced keeps its session.
   *
   * @param current the locked record
   * @param owner the claimed owner
   * @param epoch the claimed epoch
   * @return whether the claim is current
   */
  public static boolean current(LeaseRecord current, String owner, long epoch) {
    Holder h = current.holder();
    return h != null && h.owner().equals(owner) && current.epoch() == epoch;
  }

  /**
   * The record after a renewal of a current lease.
   *
   * @param current the locked record, current for the renewing lease
   * @param nowMs the caller's time
   * @param durationMs the lease duration
   * @return the record with a later expiry, same epoch and owner
   */
  public static LeaseRecord renewed(LeaseRecord current, long nowMs, long durationMs) {
    Holder h = Objects.requireNonNull(current.holder(), "a renewed record has a holder");
    return new LeaseRecord(current.epoch(), new Holder(h.owner(), h.acquiredAtMs(), expiry(nowMs, durationMs)));
  }

  /**
   * The record after a release: free, the epoch kept so the next acquisition still raises it.
   *
   * @param current the locked record
   * @return the free record
   */
  public static LeaseRecord released(LeaseRecord current) {
    return new LeaseRecord(current.epoch(), null);
  }

  /**
   * The refusal text of an acquisition.
   *
   * @param sessionId the session
   * @param owner who tried
   * @param current the record that refused it
   * @return the message
   */
  public static String heldMessage(String sessionId, String owner, LeaseRecord current) {
    Holder h = Objects.requireNonNull(current.holder(), "a held record has a holder");
    return "session " + sessionId + " is leased by owner " + h.owner() + " (epoch " + current.epoch() + ") until "
        + Instant.ofEpochMilli(h.expiresAtMs()) + "; owner " + owner + " cannot acquire it";
  }

  /**
   * The refusal text of a write whose lease is no longer current.
   *
   * @param sessionId the session
   * @param owner the write's owner
   * @param epoch the write's epoch
   * @param current the recorded lease
   * @return the message
   */
  public static String staleMessage(String sessionId, String owner, long epoch, LeaseRecord current) {
    Holder h = current.holder();
    String now = h == null
        ? "its lease was released"
        : "its lease is now epoch " + current.epoch() + " of owner " + h.owner();
    return "stale epoch: session " + sessionId + " was written under epoch " + epoch + " of owner " + owner + ", but "
        + now + "; nothing was written";
  }

  /**
   * The refusal text of a write without a lease on a leased session.
   *
   * @param sessionId the session
   * @param current the recorded lease
   * @return the message
   */
  public static String unleasedMessage(String sessionId, LeaseRecord current) {
    Holder h = Objects.requireNonNull(current.holder(), "a leased record has a holder");
    return "session " + sessionId + " is leased by owner " + h.owner() + " (epoch " + current.epoch()
        + "); a write without its lease is refused and nothing was written";
  }

  private static long expiry(long nowMs, long durationMs) {
    long sum = nowMs + durationMs;
    // a clock near Long.MAX_VALUE must not wrap a lease into the past
    return ((nowMs ^ sum) & (durationMs ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}

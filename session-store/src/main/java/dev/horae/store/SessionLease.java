package dev.horae.store;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;

/**
 * The right of one owner to write one session. Two kinds exist because the stores fence writers in
 * two different ways, and pretending otherwise would mean inventing epochs that fence nothing:
 *
 * <ul>
 *   <li>{@link Fenced}: a shared store (PostgreSQL, or one in-memory store several nodes of a test
 *       share) records the owner and an epoch per session; the lease expires unless renewed, and
 *       every persist made under it is checked against the recorded owner and epoch in the same
 *       transaction as its insert.
 *   <li>{@link Exclusive}: the file store holds an exclusive OS lock on the session's folder for as
 *       long as it has the session open, so no other process can write it at all; the lease is held
 *       until released and never expires.
 * </ul>
 *
 * <p>Leases come from {@link SessionLeases#acquire}; {@link SessionLeaseKeeper} holds and renews
 * them for a node.
 */
public sealed interface SessionLease permits SessionLease.Fenced, SessionLease.Exclusive {

  /**
   * The leased session.
   *
   * @return its id
   */
  String sessionId();

  /**
   * Who holds the lease: a node (process) id, unique per running instance.
   *
   * @return the owner
   */
  String owner();

  /**
   * A lease recorded in a shared store: owner, epoch and expiry of one session.
   *
   * @param sessionId the leased session
   * @param owner who holds it
   * @param epoch incremented by every acquisition of the session, never by a renewal; a persist
   *     carrying an older epoch is refused
   * @param expiresAt when the lease ends unless renewed, on the clock of the node that acquired or
   *     renewed it
   */
  record Fenced(String sessionId, String owner, long epoch, Instant expiresAt) implements SessionLease {

    /**
     * Checks the components.
     *
     * @throws IllegalArgumentException when the epoch is below 1 (the first acquisition has epoch 1)
     */
    public Fenced {
      Objects.requireNonNull(sessionId, "sessionId");
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(expiresAt, "expiresAt");
      if (epoch < 1) {
        throw new IllegalArgumentException("a lease epoch is at least 1, got " + epoch);
      }
    }
  }

  /**
   * A lease that is the exclusive OS lock of the file store on the session's folder: held from
   * acquisition until released or until the store closes; no epoch, no expiry.
   *
   * @param sessionId the leased session
   * @param owner who holds it
   * @param lockFile the locked file ({@code gate.lock} in the session's folder)
   */
  record Exclusive(String sessionId, String owner, Path lockFile) implements SessionLease {

    /** Checks the components. */
    public Exclusive {
      Objects.requireNonNull(sessionId, "sessionId");
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(lockFile, "lockFile");
    }
  }
}

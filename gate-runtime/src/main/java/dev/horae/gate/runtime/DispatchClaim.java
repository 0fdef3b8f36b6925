package dev.horae.gate.runtime;

import java.util.Objects;
import java.util.Optional;

/**
 * A claim on one dispatch record (gate specification §12.5.2): what the worker reads to decide,
 * and the identity every commit and settle of the attempt is fenced with.
 *
 * @param runId the Run
 * @param threadId its thread
 * @param owner the claiming dispatcher
 * @param epoch the record's epoch after the claim
 * @param leaseExpiresMs the lease granted
 * @param attemptCount recovery claims so far, this one included
 * @param recovery whether the claim took a running record whose lease had expired
 * @param activation the stored input of a fresh submission, if any
 * @param cancelRequested whether a cancel intent is recorded
 */
public record DispatchClaim(
    String runId,
    String threadId,
    String owner,
    long epoch,
    long leaseExpiresMs,
    int attemptCount,
    boolean recovery,
    Optional<RunActivation> activation,
    boolean cancelRequested) {

  /** Rejects missing parts. */
  public DispatchClaim {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(threadId, "threadId");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(activation, "activation");
  }

  /**
   * The fence the attempt's commits carry.
   *
   * @return the fence
   */
  public LeaseFence fence() {
    return new LeaseFence(runId, threadId, owner, epoch);
  }
}

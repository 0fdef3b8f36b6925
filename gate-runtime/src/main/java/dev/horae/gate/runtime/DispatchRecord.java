package dev.horae.gate.runtime;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One Run's dispatch record (gate specification §12.5.1). A settled-done record no longer exists.
 *
 * @param runId the Run
 * @param threadId its thread
 * @param status where it stands
 * @param owner the claiming dispatcher, when claimed
 * @param epoch monotonic per record; every claim increments it
 * @param leaseExpiresMs the lease of a running record; empty when none is known (a record found
 *     running when a session log was opened counts as expired)
 * @param attemptCount recovery claims since the record last settled awaiting
 * @param availableAtMs the earliest time a pending record may be claimed
 * @param activation the input of a fresh submission, if any
 * @param cancelRequested a durable cancel intent
 */
public record DispatchRecord(
    String runId,
    String threadId,
    DispatchStatus status,
    Optional<String> owner,
    long epoch,
    OptionalLong leaseExpiresMs,
    int attemptCount,
    long availableAtMs,
    Optional<RunActivation> activation,
    boolean cancelRequested) {

  /** Rejects missing parts. */
  public DispatchRecord {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(threadId, "threadId");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(leaseExpiresMs, "leaseExpiresMs");
    Objects.requireNonNull(activation, "activation");
  }

  /**
   * The fence rule of §12.5.3, the one every backend applies inside its commit step: a commit
   * carrying {@code fence} for {@code runId} on {@code threadId} is admitted only when this record
   * is that Run's, on that thread, and carries the fence's owner and epoch. A missing record
   * admits nothing.
   *
   * @param fence the commit's fence
   * @param commitRunId the Run the commit is about
   * @param commitThreadId the thread it commits to
   * @return whether the commit may land
   */
  boolean admits(LeaseFence fence, String commitRunId, String commitThreadId) {
    return fence.runId().equals(commitRunId) && fence.threadId().equals(commitThreadId)
        && runId.equals(fence.runId()) && threadId.equals(fence.threadId())
        && owner.map(fence.owner()::equals).orElse(false) && epoch == fence.epoch();
  }
}

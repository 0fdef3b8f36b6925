package dev.horae.gate.runtime;

import dev.horae.gate.AwaitReason;
import dev.horae.gate.ResumeCommand;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The durable dispatcher's queue of dispatch records and resume inbox (gate specification
 * §12.5.1–§12.5.2, §12.5.5). It owns delivery only: run truth stays in the commit store the
 * queue is paired with, whose commits run this queue's outbox and fence rules inside their atomic
 * step. Every method is one atomic step over the queue (one transaction in a JDBC backend); times
 * are the caller's clock readings.
 */
public interface DispatchQueue {

  /** What a settle records (§12.5.2). */
  enum Settlement {
    /** The Run awaits an answer: status awaiting, lease cleared, attempt count reset. */
    AWAITING,
    /** The Run has ended (or was released): the record and its resume commands are deleted. */
    DONE
  }

  /** Whether a settle landed. */
  enum SettleResult {
    /** The record changed as asked. */
    SETTLED,
    /** The claim's epoch or owner is no longer current (or the record is gone): nothing changed. */
    FENCED
  }

  /**
   * Folds a session that was opened again (a restarted node's resumed session) into the queue and
   * its commit store, so claims, reconciliation and the view know its Runs and dispatch facts.
   * The default does nothing: a queue whose records live elsewhere needs no log.
   *
   * @param session a live session whose id is a thread id
   */
  default void track(dev.horae.spi.session.Session session) {}

  /**
   * Claims one record: {@code pending} with {@code availableAtMs <= nowMs}, or {@code running}
   * with a strictly expired lease and {@code attemptCount < maxRecoveryAttempts} — the latter is
   * a recovery and increments the attempt count. Ordered by {@code availableAtMs}, then run id.
   *
   * @param owner the claiming dispatcher
   * @param leaseMs the lease length
   * @param nowMs the claimer's clock
   * @param maxRecoveryAttempts the retry budget
   * @return the claim, or empty when nothing is claimable
   */
  Optional<DispatchClaim> claim(String owner, long leaseMs, long nowMs, int maxRecoveryAttempts);

  /**
   * Claims one strictly expired running record whose attempt count has reached the budget
   * (§12.5.5), so the worker can end its Run indeterminate. The attempt count is not incremented.
   *
   * @param owner the claiming dispatcher
   * @param leaseMs the lease length
   * @param maxRecoveryAttempts the retry budget
   * @param nowMs the claimer's clock
   * @return the claim, or empty
   */
  Optional<DispatchClaim> claimRetryExhausted(String owner, long leaseMs, int maxRecoveryAttempts, long nowMs);

  /**
   * Extends a claim's lease to {@code nowMs + leaseMs} iff its owner and epoch are still current.
   *
   * @param claim the claim
   * @param leaseMs the lease length
   * @param nowMs the renewer's clock
   * @return whether the lease was extended
   */
  boolean renew(DispatchClaim claim, long leaseMs, long nowMs);

  /**
   * Settles a claim. Awaiting becomes {@code pending} instead when a resume command or a cancel
   * arrived while the record was running. The delivered (or dropped) resume commands are removed
   * in the same step; other commands stay.
   *
   * @param claim the claim
   * @param settlement what to record
   * @param consumed inbox ids the attempt delivered or dropped
   * @return {@link SettleResult#FENCED} (nothing changed) when the claim is stale
   */
  SettleResult settle(DispatchClaim claim, Settlement settlement, Collection<Long> consumed);

  /**
   * Submits a fresh Run: a pending record carrying the activation.
   *
   * @param activation the input
   * @param availableAtMs the earliest claim time
   * @return false (nothing changed) when the Run already has a record
   */
  boolean submit(RunActivation activation, long availableAtMs);

  /**
   * Stores an answer in the resume inbox: an awaiting record becomes pending, a running one only
   * remembers that its settle must make it pending, a missing one is created pending.
   *
   * @param command the answer
   * @param nowMs the submitter's clock (the record's availability)
   * @return the command's inbox id
   */
  long submitResume(ResumeCommand command, long nowMs);

  /**
   * Records a durable cancel intent: an awaiting record becomes pending, a missing one is created.
   *
   * @param runId the Run
   * @param threadId its thread
   * @param nowMs the caller's clock
   */
  void cancel(String runId, String threadId, long nowMs);

  /**
   * The reconciliation upsert (§12.5.1): creates a pending record for a Run lacking one;
   * idempotent.
   *
   * @param runId the Run
   * @param threadId its thread
   * @param nowMs the caller's clock
   * @return whether a record was created
   */
  boolean reconcile(String runId, String threadId, long nowMs);

  /**
   * A Run's record.
   *
   * @param runId the Run
   * @return the record, or empty when none exists
   */
  Optional<DispatchRecord> record(String runId);

  /**
   * A Run's waiting resume commands, oldest first.
   *
   * @param runId the Run
   * @return the commands
   */
  List<PendingResume> resumes(String runId);

  /**
   * The outbox rule of §12.5.1, the one every backend applies inside its commit step: a commit
   * whose disposition is awaiting with a scheduled-action ticket makes the Run's record pending
   * (creating it when absent; a running record is left to its worker).
   *
   * @param commit the commit about to land
   * @return whether it wakes dispatch
   */
  static boolean wakesOnCommit(ThreadCommit commit) {
    return commit.run() instanceof RunDisposition.Awaiting a
        && a.ticket().reason() == AwaitReason.SCHEDULED_ACTION;
  }

  /**
   * The commit store this queue's outbox and fence are wired into; the runtime must commit
   * through it.
   *
   * @return the store
   */
  CommitStore store();
}

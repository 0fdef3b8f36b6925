package dev.horae.jobs.registry.internal;

import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@code await} (jobs spec §2.9): a terminal job answers at once and counts as reported; a live
 * one gets a {@link Waiter} that the settlement, the timeout timer or the abort handler ends —
 * whichever removes it from the record under the lock.
 *
 * @param store the registry state
 * @param timers the injected monotonic timers (wait timeouts)
 */
public record Waits(RecordStore store, Timers timers) {

  // far beyond any real wait; keeps Duration arithmetic of host timers from overflowing
  private static final double MAX_WAIT_MS = 1e15;

  /**
   * Waits for a job to end, for a timeout, or for an abort.
   *
   * @param id the id
   * @param timeoutMs a positive finite number of milliseconds; fractions round up
   * @param caller the calling agent, or empty for host code
   * @param abort ends the wait with {@code wait_aborted}
   * @return the snapshot at the end of the wait
   * @throws JobsException {@code unknown_job}, {@code foreign_job} or {@code invalid_wait_timeout}
   */
  public CompletionStage<JobSnapshot> await(
      JobId id, double timeoutMs, Optional<Agent> caller, AbortSignal abort) {
    Waiter waiter = new Waiter();
    JobRecord r;
    List<JobRecord.Notice> withdraw = List.of();
    JobSnapshot terminal = null;
    synchronized (store.lock()) {
      r = store.lookupLocked(id, caller);
      if (!(timeoutMs > 0) || Double.isInfinite(timeoutMs)) {
        throw new JobsException(
            JobsException.INVALID_WAIT_TIMEOUT,
            "invalid wait timeout: expected a positive number of milliseconds, got "
                + (Double.isFinite(timeoutMs) ? EcmaNumbers.toString(timeoutMs) : "null"));
      }
      if (r.status.isTerminal()) {
        withdraw = r.markReported();
        terminal = r.snapshot();
      } else if (abort.aborted()) {
        return CompletableFuture.failedFuture(aborted());
      } else {
        r.waiters.add(waiter);
      }
    }
    if (terminal != null) {
      store.callbacks().withdraw(withdraw);
      return CompletableFuture.completedFuture(terminal);
    }
    JobRecord record = r;
    long ms = (long) Math.min(Math.ceil(timeoutMs), MAX_WAIT_MS);
    Cancellable timer = timers.schedule(Duration.ofMillis(ms), () -> timeOut(record, waiter));
    Registration abortHook = abort.onAbort(() -> abortWait(record, waiter));
    waiter.arm(timer, abortHook);
    return waiter.result.copy();
  }

  private void timeOut(JobRecord r, Waiter w) {
    JobSnapshot snapshot;
    synchronized (store.lock()) {
      if (!r.waiters.remove(w)) {
        return;
      }
      snapshot = r.snapshot();
    }
    w.release();
    w.result.complete(snapshot);
  }

  private void abortWait(JobRecord r, Waiter w) {
    synchronized (store.lock()) {
      // only the handler that removes the waiter may fail it (race rule b)
      if (!r.waiters.remove(w)) {
        return;
      }
    }
    w.release();
    w.result.completeExceptionally(aborted());
  }

  private static JobsException aborted() {
    return new JobsException(JobsException.WAIT_ABORTED, "wait aborted");
  }
}

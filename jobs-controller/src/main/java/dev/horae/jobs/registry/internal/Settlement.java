package dev.horae.jobs.registry.internal;

import dev.horae.jobs.errors.internal.Errors;
import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobReporter;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.jobs.JobsChangedObserver;
import dev.horae.spi.plugin.Scope;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * Settlement (jobs spec §2.11): a producer's {@code done} completing is handed to the serial
 * settlement executor, never settled inside the producer's completing call; the critical section
 * commits the terminal state once, then waiters are released, the settled signal completes, the
 * change observers run, and — unless the service is closing — the routed controller and the plain
 * listeners are told, all outside the lock.
 *
 * @param store the registry state
 * @param wallClock the injected wall clock (finish times)
 * @param executor the serial settlement executor
 */
public record Settlement(RecordStore store, InstantSource wallClock, Executor executor) {

  /**
   * Hands a completion to the settlement executor; a rejecting executor is reported as a warning.
   *
   * @param r the record
   * @param outcome the producer's outcome, or null when {@code done} failed
   * @param failure the failure of {@code done}, or null
   */
  public void submit(JobRecord r, @Nullable JobOutcome outcome, @Nullable Throwable failure) {
    try {
      executor.execute(() -> settle(r, outcome, failure));
    } catch (RejectedExecutionException e) {
      store
          .warnings()
          .warn("jobs: settlement of " + r.id.value() + " was rejected", Optional.of(e));
    }
  }

  private void settle(JobRecord r, @Nullable JobOutcome outcome, @Nullable Throwable failure) {
    List<Scope> chain = store.chainOf(r.owner);
    List<Waiter> taken;
    JobSnapshot snapshot;
    boolean reporting;
    Optional<JobReporter> reporter;
    List<JobDoneListener> listeners;
    List<JobsChangedObserver> observers;
    String contractWarning = null;
    synchronized (store.lock()) {
      if (r.settled) {
        return;
      }
      if (outcome == null) {
        Throwable cause =
            failure != null ? failure : new IllegalStateException("done completed without outcome");
        String error = Errors.render(cause);
        r.status = JobStatus.FAILED;
        r.detail = Optional.of(error);
        contractWarning =
            "jobs: job " + r.id.value() + " producer done failed (producer contract violation): "
                + error;
      } else {
        r.status = outcome.status();
        r.detail = outcome.detail();
        r.output = outcome.output();
      }
      r.finishedAt = OptionalLong.of(Math.max(r.startedAt, wallClock.millis()));
      if (!r.waiters.isEmpty()) {
        r.reported = true;
      }
      taken = List.copyOf(r.waiters);
      r.waiters.clear();
      r.settled = true;
      snapshot = r.snapshot();
      reporting = !store.closingLocked();
      boolean owned = r.owner.isPresent();
      Routing routing = store.routing();
      reporter = routing.routedReporter(chain, owned);
      listeners = routing.listeners(chain, owned);
      observers = routing.observers(chain, owned);
    }
    if (contractWarning != null) {
      store.warnings().warn(contractWarning, Optional.ofNullable(failure));
    }
    for (Waiter w : taken) {
      w.release();
      w.result.complete(snapshot);
    }
    r.settledSignal.complete(null);
    store.callbacks().changed(observers, r.owner);
    if (!reporting) {
      return;
    }
    store.callbacks().done(reporter, listeners, snapshot, r.owner);
  }
}

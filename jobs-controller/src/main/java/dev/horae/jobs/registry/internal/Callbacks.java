package dev.horae.jobs.registry.internal;

import dev.horae.jobs.errors.internal.Errors;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobReporter;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobsChangedObserver;
import dev.horae.spi.plugin.WarningSink;
import java.util.List;
import java.util.Optional;

/**
 * Contained calls out of the registry (jobs spec §2.11 step 7, §2.12, §2.10): reporters,
 * completion listeners, change observers and notice withdrawals. Every failure becomes a warning;
 * later callbacks still run. Always called outside the registry lock.
 */
public final class Callbacks {

  private final WarningSink warnings;

  /**
   * Creates the helper.
   *
   * @param warnings where contained failures go
   */
  public Callbacks(WarningSink warnings) {
    this.warnings = warnings;
  }

  /**
   * Tells change observers that an owner's visible set changed.
   *
   * @param observers the observers, in call order
   * @param owner the owner, or empty for an unowned job
   */
  public void changed(List<JobsChangedObserver> observers, Optional<Agent> owner) {
    for (JobsChangedObserver o : observers) {
      try {
        o.onJobsChanged(owner);
      } catch (RuntimeException e) {
        warnings.warn("jobs: onJobsChanged listener threw: " + Errors.render(e), Optional.of(e));
      }
    }
  }

  /**
   * Reports a settlement: first the routed controller, then every plain listener; returned
   * stages are not awaited, their failures are logged.
   *
   * @param reporter the routed controller, if any
   * @param listeners plain listeners in routing order
   * @param snapshot the committed terminal record
   * @param owner the exact owner object, or empty
   */
  public void done(
      Optional<JobReporter> reporter,
      List<JobDoneListener> listeners,
      JobSnapshot snapshot,
      Optional<Agent> owner) {
    String id = snapshot.id().value();
    reporter.ifPresent(
        rep -> {
          try {
            rep.report(snapshot, owner);
          } catch (RuntimeException e) {
            threw(id, e);
          }
        });
    for (JobDoneListener l : listeners) {
      try {
        var unused =
            l.onJobDone(snapshot, owner)
                .whenComplete(
                    (v, e) -> {
                      if (e != null) {
                        warnings.warn(
                            "jobs: onJobDone listener failed for " + id + ": " + Errors.render(e),
                            Optional.of(e));
                      }
                    });
      } catch (RuntimeException e) {
        threw(id, e);
      }
    }
  }

  /**
   * Withdraws delivered notices the owner has not claimed yet.
   *
   * @param notices the notices
   */
  public void withdraw(List<JobRecord.Notice> notices) {
    for (JobRecord.Notice n : notices) {
      try {
        n.owner().withdraw(n.messageId());
      } catch (RuntimeException e) {
        warnings.warn(
            "jobs: withdrawing notice " + n.messageId() + " threw: " + Errors.render(e),
            Optional.of(e));
      }
    }
  }

  private void threw(String id, RuntimeException e) {
    warnings.warn(
        "jobs: onJobDone listener threw for " + id + ": " + Errors.render(e), Optional.of(e));
  }
}

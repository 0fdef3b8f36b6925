package dev.horae.jobs.fakes;

import dev.horae.spi.jobs.JobHooks;
import dev.horae.spi.jobs.JobOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** A hand-driven producer: tests append output and complete {@code done} themselves. */
public final class TestJob {

  /** Completion of the work. */
  public final CompletableFuture<JobOutcome> done = new CompletableFuture<>();

  private final StringBuilder pending = new StringBuilder();
  private final List<Optional<String>> cancels = new ArrayList<>();
  private RuntimeException cancelFailure;

  /**
   * Appends output for the next read.
   *
   * @param text output
   * @return this job
   */
  public synchronized TestJob write(String text) {
    pending.append(text);
    return this;
  }

  /**
   * Makes every later cancel throw.
   *
   * @param failure what cancel throws
   */
  public synchronized void failCancel(RuntimeException failure) {
    cancelFailure = failure;
  }

  /**
   * Reasons of every cancel call, in order.
   *
   * @return the reasons
   */
  public synchronized List<Optional<String>> cancels() {
    return List.copyOf(cancels);
  }

  private synchronized void cancel(Optional<String> reason) {
    cancels.add(reason);
    if (cancelFailure != null) {
      throw cancelFailure;
    }
  }

  private synchronized String read() {
    String out = pending.toString();
    pending.setLength(0);
    return out;
  }

  /**
   * Stream hooks over this job.
   *
   * @return the hooks
   */
  public JobHooks stream() {
    return JobHooks.stream(this::cancel, done, this::read);
  }

  /**
   * Final-output hooks over this job.
   *
   * @return the hooks
   */
  public JobHooks finalOutput() {
    return JobHooks.finalOutput(this::cancel, done);
  }
}

package dev.horae.spi.jobs;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The producer's hooks (jobs spec §2.2), two closed variants: a stream job offers a consuming
 * reader, a final-output job does not.
 */
public sealed interface JobHooks permits JobHooks.Stream, JobHooks.FinalOutput {

  /**
   * Returns the cancel hook.
   *
   * @return the canceller
   */
  Canceller canceller();

  /**
   * Returns the completion of the work; it completes only after the producer released its
   * resources.
   *
   * @return the terminal outcome stage
   */
  CompletionStage<JobOutcome> done();

  /**
   * Builds stream hooks.
   *
   * @param canceller cancel hook
   * @param done completion of the work
   * @param reader consuming output reader
   * @return the hooks
   */
  static JobHooks stream(Canceller canceller, CompletionStage<JobOutcome> done, Reader reader) {
    return new Stream(canceller, done, reader);
  }

  /**
   * Builds final-output hooks.
   *
   * @param canceller cancel hook
   * @param done completion of the work; its outcome's output is the job's result
   * @return the hooks
   */
  static JobHooks finalOutput(Canceller canceller, CompletionStage<JobOutcome> done) {
    return new FinalOutput(canceller, done);
  }

  /**
   * A synchronous, idempotent, non-blocking request to stop. It runs under the service lock and
   * must not call back into the service. An exception propagates to the caller of {@code kill}.
   */
  @FunctionalInterface
  interface Canceller {
    /**
     * Requests the work to stop; it must eventually lead {@code done} to complete.
     *
     * @param reason the caller's reason, forwarded verbatim; empty when none was given
     */
    void cancel(Optional<String> reason);
  }

  /** The one consuming output cursor of a stream job; non-blocking, runs under the service lock. */
  @FunctionalInterface
  interface Reader {
    /**
     * Returns the text produced since the previous call.
     *
     * @return new text, {@code ""} when nothing new
     */
    String readOutput();
  }

  /**
   * Hooks of a stream job.
   *
   * @param canceller cancel hook
   * @param done completion of the work
   * @param reader consuming output reader
   */
  record Stream(Canceller canceller, CompletionStage<JobOutcome> done, Reader reader)
      implements JobHooks {
    /** Checks presence of every member. */
    public Stream {
      Objects.requireNonNull(canceller, "canceller");
      Objects.requireNonNull(done, "done");
      Objects.requireNonNull(reader, "reader");
    }
  }

  /**
   * Hooks of a final-output job.
   *
   * @param canceller cancel hook
   * @param done completion of the work
   */
  record FinalOutput(Canceller canceller, CompletionStage<JobOutcome> done) implements JobHooks {
    /** Checks presence of every member. */
    public FinalOutput {
      Objects.requireNonNull(canceller, "canceller");
      Objects.requireNonNull(done, "done");
    }
  }
}

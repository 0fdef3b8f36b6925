package dev.horae.spi.jobs;

import dev.horae.spi.AbortController;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.plugin.Scope;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/**
 * The host's one registry of background jobs (jobs spec §2). It does not run work: producers
 * register jobs, callers read, kill and wait through the session fence, and controllers and
 * listeners learn about settlements. Thread-safe. Found through {@code
 * host.service(JobService.class)}.
 *
 * <p>The fence (get, read, kill, await): an owned job is accessible only to a caller whose id
 * equals the owner's id; unowned jobs are open to every caller, including an absent one. Unknown
 * ids fail first with {@code unknown job <id>}, then the fence with {@code job <id> belongs to
 * another session}.
 */
public interface JobService extends AutoCloseable {

  /**
   * Registers a job after the preflight checks of §2.4 (controller, kind, label, output limit,
   * owner registry, live owner, admission), then calls the producer.
   *
   * @param start the start request
   * @return the minted id {@code <kind>-<N>}
   * @throws JobsException with the first failing check's code and message; no record, no id
   *     consumed, producer not called
   */
  JobId start(JobStart start);

  /**
   * Lists every record visible to the caller, terminal history included, in registration order.
   *
   * @param caller the calling agent; empty for host code (sees unowned jobs only)
   * @return fresh snapshots
   */
  List<JobSnapshot> list(Optional<Agent> caller);

  /**
   * Returns a non-consuming snapshot; never touches the read cursor or the reported bit.
   *
   * @param id the job id
   * @param caller the calling agent, or empty
   * @return the snapshot
   * @throws JobsException {@code unknown_job} or {@code foreign_job}
   */
  JobSnapshot get(JobId id, Optional<Agent> caller);

  /**
   * Reads a job (§2.7): the next delta of a stream job, or the final output of a terminal
   * final-output job. A read of a terminal job marks it reported.
   *
   * @param id the job id
   * @param caller the calling agent, or empty
   * @return the text and the snapshot after the read
   * @throws JobsException {@code unknown_job} or {@code foreign_job}
   */
  JobRead read(JobId id, Optional<Agent> caller);

  /**
   * Requests cancellation (§2.8), forwarding the reason verbatim.
   *
   * @param id the job id
   * @param caller the calling agent, or empty
   * @param reason the caller's reason, or empty
   * @return {@code REQUESTED} for a live job, {@code ALREADY_FINISHED} for a terminal one
   * @throws JobsException {@code unknown_job} or {@code foreign_job}
   * @throws RuntimeException whatever the producer's cancel threw; nothing changed then
   */
  KillOutcome kill(JobId id, Optional<Agent> caller, Optional<String> reason);

  /**
   * Waits for settlement (§2.9): completes with the terminal snapshot, or with the live snapshot
   * on timeout (not an error); fails with {@code wait aborted} when {@code abort} fires first.
   * Waiting never cancels the job.
   *
   * @param id the job id
   * @param timeoutMs a positive, finite number of milliseconds (fractions round up)
   * @param caller the calling agent, or empty
   * @param abort aborts the wait
   * @return the snapshot after the wait
   * @throws JobsException synchronously: {@code unknown_job}, {@code foreign_job} or {@code
   *     invalid_wait_timeout}
   */
  CompletionStage<JobSnapshot> await(
      JobId id, double timeoutMs, Optional<Agent> caller, AbortSignal abort);

  /**
   * Blocking form of {@link #await}: interruption of the calling thread aborts the wait.
   *
   * @param id the job id
   * @param timeoutMs a positive, finite number of milliseconds
   * @param caller the calling agent, or empty
   * @return the snapshot after the wait
   * @throws JobsException as {@link #await}, or {@code wait_aborted} on interruption (the
   *     interrupt flag is restored)
   */
  default JobSnapshot awaitBlocking(JobId id, double timeoutMs, Optional<Agent> caller) {
    AbortController abort = new AbortController();
    CompletionStage<JobSnapshot> stage = await(id, timeoutMs, caller, abort.signal());
    try {
      return stage.toCompletableFuture().get();
    } catch (InterruptedException e) {
      abort.abort(e);
      Thread.currentThread().interrupt();
      throw new JobsException(JobsException.WAIT_ABORTED, "wait aborted", e);
    } catch (ExecutionException e) {
      throw rethrow(e);
    }
  }

  /**
   * Attaches a controller (§2.12, §2.14): it serves the owners whose scope chain reaches its
   * layer (a global controller serves everyone) and reports their settlements when it is the
   * nearest.
   *
   * @param scope the layer's scope; empty for the global layer
   * @param name diagnostic name, e.g. {@code tool-jobs}
   * @param reporter receives routed settlements
   * @return a handle that detaches it
   */
  Registration attachController(Optional<Scope> scope, String name, JobReporter reporter);

  /**
   * Adds a plain completion listener to a layer.
   *
   * @param scope the layer's scope; empty for the global layer
   * @param listener the listener
   * @return a handle that removes it
   */
  Registration onJobDone(Optional<Scope> scope, JobDoneListener listener);

  /**
   * Adds a change observer to a layer.
   *
   * @param scope the layer's scope; empty for the global layer
   * @param observer the observer
   * @return a handle that removes it
   */
  Registration onJobsChanged(Optional<Scope> scope, JobsChangedObserver observer);

  /**
   * Registers a delivered completion notice (§2.10): when the job becomes reported after
   * settlement, the registry withdraws every registered notice the owner has not claimed yet. A
   * notice registered for an already reported job is withdrawn at once.
   *
   * @param id the job id
   * @param owner the agent whose inbox holds the notice
   * @param messageId the notice message id
   */
  void attachNotice(JobId id, Agent owner, String messageId);

  /**
   * Whether {@code start} would find a controller for this owner (§2.14).
   *
   * @param owner the prospective owner, or empty for an unowned job
   * @return true when a controller serves it
   */
  boolean serves(Optional<Agent> owner);

  /**
   * Disposes the registry (§2.13): stops completion reporting, cancels every live job with reason
   * {@code jobs service disposed}, awaits every settlement, clears the store. Idempotent.
   *
   * @return a stage completing when disposal finished
   */
  CompletionStage<Void> closeAsync();

  /** Disposes the registry and blocks until disposal finished. */
  @Override
  default void close() {
    closeAsync().toCompletableFuture().join();
  }

  private static RuntimeException rethrow(Throwable failure) {
    Throwable t = failure;
    for (Throwable c = t.getCause();
        (t instanceof CompletionException || t instanceof ExecutionException) && c != null;
        c = t.getCause()) {
      t = c;
    }
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new CompletionException(t);
  }
}

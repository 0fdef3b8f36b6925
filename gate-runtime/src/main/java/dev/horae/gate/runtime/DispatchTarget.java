package dev.horae.gate.runtime;

import dev.horae.gate.ResumeCommand;
import dev.horae.gate.RunState;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The engine a {@link DurableDispatcher} drives its claimed Runs through (gate specification
 * §12.5.4): the worker's decision procedure reads run truth from the queue's commit store and
 * calls one of these operations, so the dispatcher is independent of which engine executes the
 * Runs. The production runtime ({@code dev.horae.runtime.HoraeRuntime} with a dispatch queue) is
 * the one this project ships.
 *
 * <p>Every implementation must guarantee, for every operation:
 *
 * <ul>
 *   <li>it commits through {@link RunContext#store()} — the queue's store, where the outbox and
 *       the fence live — and conditions every commit on {@link RunContext#claim()}'s fence, so an
 *       attempt whose claim was superseded writes nothing;
 *   <li>the ticket is single-use: a perform or resume consumes it by a commit conditioned on the
 *       Run's head before any tool runs, so of two attempts on one ticket at most one runs the
 *       tool, and the other is rejected ({@code notAwaiting}) without running it;
 *   <li>a rejection is a {@link ResumeOutcome.Rejected} value that commits nothing;
 *   <li>a commit whose durability is uncertain fails the stage (it is never reported as done), so
 *       the dispatcher leaves the record for a recovery claim rather than settling it.
 * </ul>
 */
public interface DispatchTarget {

  /**
   * Makes a thread's committed truth readable through the queue's store before the dispatcher
   * reads it for a claim: an engine whose store only knows the threads it has open (a session
   * commit store) opens the thread here. The default does nothing, for engines whose store sees
   * every thread.
   *
   * @param threadId the claimed Run's thread
   * @return a stage completing when the thread is readable; it fails when the thread cannot be
   *     opened here (the claim is then left for its lease to lapse)
   */
  default CompletionStage<Void> openThread(String threadId) {
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Whether {@link #execute} starts Runs; false makes {@link DurableDispatcher#submit} refuse an
   * activation before anything is stored.
   *
   * @return true by default
   */
  default boolean executesActivations() {
    return true;
  }

  /**
   * How Runs of this target start instead, for the refusal of a submitted activation when {@link
   * #executesActivations()} is false.
   *
   * @return a short instruction
   */
  default String howRunsStart() {
    return "submit activations only to a target that executes them";
  }

  /**
   * Starts a Run submitted with {@link DurableDispatcher#submit}.
   *
   * @param activation the input
   * @param context store, claim, cancellation
   * @return a stage with the Run's state once it awaits or ends
   */
  CompletionStage<RunState> execute(RunActivation activation, RunContext context);

  /**
   * Performs a Run's committed scheduled action (gate specification §9.2).
   *
   * @param runId the Run
   * @param context store, claim, cancellation
   * @param nowMs the dispatcher's clock reading, for the ticket deadline
   * @return a stage with the outcome
   */
  CompletionStage<ResumeOutcome> performScheduledAction(String runId, RunContext context, long nowMs);

  /**
   * Delivers an answer from the resume inbox (gate specification §6.4).
   *
   * @param command the answer
   * @param context store, claim, cancellation
   * @return a stage with the outcome
   */
  CompletionStage<ResumeOutcome> resume(ResumeCommand command, RunContext context);

  /**
   * Continues a running Run whose attempt was lost (a lapsed lease, §7.5); an awaiting or ended
   * Run is returned unchanged.
   *
   * @param runId the Run
   * @param context store, claim, cancellation
   * @return a stage with the Run's state
   */
  CompletionStage<RunState> recover(String runId, RunContext context);

  /**
   * Ends a Run {@code cancelled} on a durable cancel intent; an ended Run is returned unchanged.
   *
   * @param runId the Run
   * @param threadId its thread
   * @param context store, claim
   * @return a stage with the Run's state
   */
  CompletionStage<RunState> cancelRun(String runId, String threadId, RunContext context);

  /**
   * Ends a Run {@code stopped(reason)} (a scheduled action past its deadline, §11); an ended Run is
   * returned unchanged.
   *
   * @param runId the Run
   * @param threadId its thread
   * @param reason why
   * @param context store, claim
   * @return a stage with the Run's state
   */
  CompletionStage<RunState> stopRun(String runId, String threadId, String reason, RunContext context);

  /**
   * Ends a Run whose retry budget is spent {@code indeterminate} (§12.5.5), sealing every unsettled
   * call with {@code sealReason}; an ended Run is returned unchanged.
   *
   * @param runId the Run
   * @param threadId its thread
   * @param sealReason why its calls are sealed
   * @param context store, claim
   * @return a stage with the Run's state
   */
  CompletionStage<RunState> endIndeterminate(String runId, String threadId, String sealReason, RunContext context);
}

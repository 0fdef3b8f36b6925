package dev.horae.runtime;

import dev.horae.gate.ResumeCommand;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.CommitStore;
import dev.horae.gate.runtime.DispatchTarget;
import dev.horae.gate.runtime.GateRuntimeException;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.gate.runtime.RunActivation;
import dev.horae.gate.runtime.RunContext;
import dev.horae.gate.runtime.RunRecord;
import dev.horae.runtime.agent.RuntimeAgents;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The runtime's turn engine as a durable dispatcher's {@link DispatchTarget}: a claimed Run is a
 * turn of the agent of its session, parked on a committed ticket. Every operation goes through
 * the runtime's run-id paths ({@link RuntimeAgents#perform(String, long, Optional)}, {@code
 * resume}, {@code cancel}, {@code stop}, {@code endIndeterminate}) with the attempt's claim, so
 * the perform is the same one {@link HoraeRuntime#performScheduledActions()} runs, fenced.
 *
 * <p>A Run of this runtime starts with a turn of an open agent, never from a submitted
 * activation, so {@code execute} is refused with a failed stage. A running Run whose turn is still
 * open here is being driven by it (a turn a stopped process cut is ended {@code interrupted} when
 * its session is opened again), so its recovery is refused too and the dispatcher leaves the claim
 * for its lease; one whose turn has ended — its end was fenced after its attempt lost the claim —
 * is recovered by ending it {@code stopped("interrupted")}.
 */
final class RuntimeDispatchTarget implements DispatchTarget {

  /** Why an operation of a dispatcher committing elsewhere is refused: its outbox and fence would miss every commit. */
  private static final String STORE_MISMATCH =
      "the dispatcher commits through another store than this runtime; build it with HoraeRuntime.durableDispatcher()";

  private final RuntimeAgents agents;
  private final CommitStore commits;
  private final Function<String, CompletionStage<Void>> open;

  /**
   * @param agents the runtime's agents
   * @param commits the store the engine commits through: the dispatch queue's
   * @param open opens the agent of a stored session that is not open here
   */
  RuntimeDispatchTarget(RuntimeAgents agents, CommitStore commits, Function<String, CompletionStage<Void>> open) {
    this.agents = agents;
    this.commits = commits;
    this.open = open;
  }

  @Override
  public CompletionStage<Void> openThread(String threadId) {
    return open.apply(threadId);
  }

  @Override
  public boolean executesActivations() {
    return false;
  }

  @Override
  public String howRunsStart() {
    return "a Run of the runtime starts with a turn of an open agent: prompt the agent of the session";
  }

  @Override
  public CompletionStage<RunState> execute(RunActivation activation, RunContext context) {
    return CompletableFuture.failedFuture(new GateRuntimeException.Resolution(
        "run " + activation.runId() + ": the runtime starts a Run with a turn of an open agent; prompt the agent of session "
            + activation.threadId() + " instead of submitting an activation"));
  }

  @Override
  public CompletionStage<ResumeOutcome> performScheduledAction(String runId, RunContext context, long nowMs) {
    return checked(context).orElseGet(() -> cancellable(runId, context, agents.perform(runId, nowMs, context.claim())));
  }

  @Override
  public CompletionStage<ResumeOutcome> resume(ResumeCommand command, RunContext context) {
    return checked(context).orElseGet(() -> cancellable(command.runId(), context, agents.resume(command, context.claim())));
  }

  /**
   * Lets the attempt's cancellation reach the Run its drive continues: the dispatcher fires it when
   * it finds a durable cancel intent at a renewal, and the Run, driven here, ends {@code cancelled}
   * at once while its turn stops at its next boundary (gate specification §9.5).
   */
  private CompletionStage<ResumeOutcome> cancellable(String runId, RunContext context, CompletionStage<ResumeOutcome> drive) {
    if (drive.toCompletableFuture().isDone()) {
      return drive;
    }
    var registration = context.cancellation().onAbort(() -> {
      var unused = agents.cancel(runId, context.claim());
    });
    return drive.whenComplete((outcome, failure) -> registration.close());
  }

  @Override
  public CompletionStage<RunState> recover(String runId, RunContext context) {
    Optional<RunRecord> record = commits.view().run(runId);
    if (record.isPresent() && !(record.get().state() instanceof RunState.Running)) {
      return CompletableFuture.completedFuture(record.get().state());
    }
    if (record.isEmpty()) {
      return CompletableFuture.failedFuture(new GateRuntimeException.Execution("run " + runId + " has no committed state", null));
    }
    if (context.store() != commits) {
      return CompletableFuture.failedFuture(new GateRuntimeException.Execution(STORE_MISMATCH, null));
    }
    return agents.recover(runId, context.claim());
  }

  @Override
  public CompletionStage<RunState> cancelRun(String runId, String threadId, RunContext context) {
    return ended(runId, context, () -> agents.cancel(runId, context.claim()));
  }

  @Override
  public CompletionStage<RunState> stopRun(String runId, String threadId, String reason, RunContext context) {
    return ended(runId, context, () -> agents.stop(runId, reason, context.claim()));
  }

  @Override
  public CompletionStage<RunState> endIndeterminate(String runId, String threadId, String sealReason, RunContext context) {
    return ended(runId, context, () -> agents.endIndeterminate(runId, sealReason, context.claim()));
  }

  /** A refusal when the dispatcher commits elsewhere than this engine: its outbox and fence would miss every commit. */
  private Optional<CompletionStage<ResumeOutcome>> checked(RunContext context) {
    if (context.store() == commits) {
      return Optional.empty();
    }
    return Optional.of(CompletableFuture.completedFuture(new ResumeOutcome.Rejected("storeMismatch", STORE_MISMATCH,
        GateRuntimeException.Category.EXECUTION)));
  }

  /** An ending as the dispatcher needs it: the terminal state, or a failure it leaves the claim on. */
  private CompletionStage<RunState> ended(String runId, RunContext context,
      java.util.function.Supplier<CompletionStage<ResumeOutcome>> end) {
    Optional<RunRecord> record = commits.view().run(runId);
    if (record.isPresent() && record.get().state().isTerminal()) {
      return CompletableFuture.completedFuture(record.get().state());
    }
    return checked(context).orElseGet(end).thenCompose(outcome -> {
      if (outcome instanceof ResumeOutcome.Advanced a) {
        return CompletableFuture.completedFuture(a.state());
      }
      return CompletableFuture.failedFuture(new GateRuntimeException.Execution(
          "run " + runId + " could not be ended: " + ((ResumeOutcome.Rejected) outcome).display(), null));
    });
  }
}

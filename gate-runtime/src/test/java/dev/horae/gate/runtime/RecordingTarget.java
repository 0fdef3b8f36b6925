package dev.horae.gate.runtime;

import dev.horae.gate.ResumeCommand;
import dev.horae.gate.RunState;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;

/**
 * A dispatch target for the queue-level suites of this module: it records each operation the
 * dispatcher asks of it ({@code "execute run-1"}, {@code "perform run-1"} …) and commits nothing,
 * failing every stage, so a test sees which Runs a dispatcher drove without any engine. The
 * production engine's dispatch rules are tested with the runtime module's own rig; this module
 * ships no engine.
 */
final class RecordingTarget implements DispatchTarget {

  /** The operations asked for, oldest first. */
  final List<String> calls = new CopyOnWriteArrayList<>();
  /** One permit per operation asked for, so a test waits for one on a bound. */
  final Semaphore asked = new Semaphore(0);

  private <T> CompletionStage<T> record(String operation, String runId) {
    calls.add(operation + " " + runId);
    asked.release();
    return CompletableFuture.failedFuture(new IllegalStateException("the recording target drives no Run"));
  }

  @Override
  public CompletionStage<RunState> execute(RunActivation activation, RunContext context) {
    return record("execute", activation.runId());
  }

  @Override
  public CompletionStage<ResumeOutcome> performScheduledAction(String runId, RunContext context, long nowMs) {
    return record("perform", runId);
  }

  @Override
  public CompletionStage<ResumeOutcome> resume(ResumeCommand command, RunContext context) {
    return record("resume", command.runId());
  }

  @Override
  public CompletionStage<RunState> recover(String runId, RunContext context) {
    return record("recover", runId);
  }

  @Override
  public CompletionStage<RunState> cancelRun(String runId, String threadId, RunContext context) {
    return record("cancel", runId);
  }

  @Override
  public CompletionStage<RunState> stopRun(String runId, String threadId, String reason, RunContext context) {
    return record("stop", runId);
  }

  @Override
  public CompletionStage<RunState> endIndeterminate(String runId, String threadId, String sealReason,
      RunContext context) {
    return record("endIndeterminate", runId);
  }
}

package dev.horae.gate.runtime.internal;

import dev.horae.gate.AwaitTarget;
import dev.horae.gate.ResumeTicket;
import dev.horae.spi.gate.ToolOutput;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The tool calls of one inference step and their phases (gate specification §7). Lives in Run
 * state under {@link #STATE_KEY} and is committed through the ordinary commit log. Immutable:
 * every transition returns a new batch or throws {@link BatchException}.
 *
 * @param runId the Run
 * @param step the 1-based inference step that issued the calls
 * @param finalized whether the batch is finalized (JSON {@code phase}: {@code finalized} or
 *     {@code open})
 * @param calls the calls, in model order
 */
public record ToolBatch(String runId, int step, boolean finalized, List<DurableToolCall> calls) {

  /** The Run-scoped state key of the active batch. */
  public static final String STATE_KEY = "runtime.active_tool_batch.v1";

  /**
   * Validates the batch.
   *
   * @throws BatchException {@code invalidBatch} for no calls or repeated call ids; {@code
   *     multipleAwaitingCalls} for two awaiting calls
   */
  public ToolBatch {
    Objects.requireNonNull(runId, "runId");
    calls = List.copyOf(calls);
    Set<String> ids = new HashSet<>();
    int awaiting = 0;
    for (DurableToolCall c : calls) {
      if (!ids.add(c.call().callId())) {
        throw invalid();
      }
      if (c.phase() instanceof ToolCallPhase.Awaiting) {
        awaiting++;
      }
    }
    if (calls.isEmpty()) {
      throw invalid();
    }
    if (awaiting > 1) {
      throw new BatchException("multipleAwaitingCalls", "a tool batch may hold only one awaiting call");
    }
  }

  private static BatchException invalid() {
    return new BatchException("invalidBatch", "a tool batch needs at least one call with unique call ids");
  }

  /**
   * An open batch with every call requested.
   *
   * @param runId the Run
   * @param step the issuing step
   * @param calls the calls with their pinned policies, in model order
   * @return the batch
   */
  public static ToolBatch open(String runId, int step, List<DurableToolCall> calls) {
    return new ToolBatch(runId, step, false, calls);
  }

  /**
   * The batch id {@code tool-batch:{runId}:{step}}.
   *
   * @return the id
   */
  String id() {
    return "tool-batch:" + runId + ":" + step;
  }

  /**
   * The stable operation id of one call, {@code tool-batch:{runId}:{step}:{callId}}.
   *
   * @param callId the call
   * @return the operation id
   */
  String operationId(String callId) {
    return id() + ":" + callId;
  }

  /**
   * The call with this id.
   *
   * @param callId the call id
   * @return the call, if present
   */
  public Optional<DurableToolCall> call(String callId) {
    return calls.stream().filter(c -> c.call().callId().equals(callId)).findFirst();
  }

  /**
   * The awaiting call, if any (at most one exists).
   *
   * @return the awaiting call
   */
  Optional<DurableToolCall> awaitingCall() {
    return calls.stream().filter(c -> c.phase() instanceof ToolCallPhase.Awaiting).findFirst();
  }

  /**
   * Whether every call is settled.
   *
   * @return true when all calls are completed or indeterminate
   */
  boolean allSettled() {
    return calls.stream().allMatch(c -> c.phase().isTerminal());
  }

  /**
   * Enters the executor for a requested call (attempt 1) or re-executes an executing one (next
   * attempt), bounded by the pinned policy.
   *
   * @param callId the call
   * @return the new batch
   * @throws BatchException {@code illegalTransition}, {@code attemptsExhausted}, {@code finalized}
   */
  ToolBatch markExecuting(String callId) {
    DurableToolCall c = require(callId);
    ToolCallPhase p = c.phase();
    int attempt;
    if (p instanceof ToolCallPhase.Requested) {
      attempt = 1;
    } else if (p instanceof ToolCallPhase.Executing e) {
      attempt = e.attempt() + 1;
    } else {
      throw illegal(callId, p, "executing");
    }
    if (attempt > c.recoveryPolicy().maxAttempts()) {
      throw new BatchException("attemptsExhausted",
          "tool call " + callId + " exhausted its " + c.recoveryPolicy().maxAttempts() + " attempts");
    }
    return replace(c.with(new ToolCallPhase.Executing(attempt)));
  }

  /**
   * Parks a requested or executing call.
   *
   * @param callId the call
   * @param kind the wait kind
   * @param correlationId the wait correlation; non-empty
   * @return the new batch
   * @throws BatchException {@code emptyWaitCorrelation}, {@code illegalTransition}, {@code
   *     multipleAwaitingCalls}, {@code finalized}
   */
  public ToolBatch markAwaiting(String callId, ToolWaitKind kind, String correlationId) {
    if (correlationId.isEmpty()) {
      throw new BatchException("emptyWaitCorrelation", "a tool wait needs a non-empty correlation id");
    }
    DurableToolCall c = require(callId);
    if (!(c.phase() instanceof ToolCallPhase.Requested || c.phase() instanceof ToolCallPhase.Executing)) {
      throw illegal(callId, c.phase(), "awaiting");
    }
    return replace(c.with(new ToolCallPhase.Awaiting(kind, correlationId)));
  }

  /**
   * The only way from awaiting to executing: needs the exact wait kind and correlation.
   *
   * @param callId the call
   * @param kind the expected wait kind
   * @param correlationId the expected correlation
   * @return the new batch, the call executing attempt 1
   * @throws BatchException {@code waitMismatch}, {@code finalized}
   */
  public ToolBatch resumeExecuting(String callId, ToolWaitKind kind, String correlationId) {
    DurableToolCall c = require(callId);
    if (!(c.phase() instanceof ToolCallPhase.Awaiting a)
        || a.kind() != kind
        || !a.correlationId().equals(correlationId)) {
      throw new BatchException("waitMismatch", "tool wait kind or correlation does not match");
    }
    return replace(c.with(new ToolCallPhase.Executing(1)));
  }

  /**
   * Settles a call with its result.
   *
   * @param callId the call
   * @param output the result
   * @return the new batch
   * @throws BatchException {@code illegalTransition} for a settled call, {@code finalized}
   */
  public ToolBatch complete(String callId, ToolOutput output) {
    DurableToolCall c = require(callId);
    if (c.phase().isTerminal()) {
      throw illegal(callId, c.phase(), "completed");
    }
    return replace(c.with(new ToolCallPhase.Completed(output)));
  }

  /**
   * Marks a call's outcome unknown.
   *
   * @param callId the call
   * @param reason why
   * @return the new batch
   * @throws BatchException {@code illegalTransition} for a settled call, {@code finalized}
   */
  ToolBatch markIndeterminate(String callId, String reason) {
    DurableToolCall c = require(callId);
    if (c.phase().isTerminal()) {
      throw illegal(callId, c.phase(), "indeterminate");
    }
    return replace(c.with(new ToolCallPhase.Indeterminate(reason)));
  }

  /**
   * Finalizes a batch whose calls are all settled.
   *
   * @return the finalized batch
   * @throws BatchException {@code incomplete}, {@code finalized}
   */
  ToolBatch finalizeBatch() {
    requireOpen();
    if (!allSettled()) {
      throw new BatchException("incomplete", "a tool batch cannot finalize while calls are unsettled");
    }
    return new ToolBatch(runId, step, true, calls);
  }

  /**
   * Turns every unsettled call indeterminate with the reason and finalizes. Idempotent: a
   * finalized batch is returned unchanged.
   *
   * @param reason why the Run ended
   * @return the sealed batch
   */
  public ToolBatch sealOnRunEnd(String reason) {
    if (finalized) {
      return this;
    }
    List<DurableToolCall> out = new ArrayList<>();
    for (DurableToolCall c : calls) {
      out.add(c.phase().isTerminal() ? c : c.with(new ToolCallPhase.Indeterminate(reason)));
    }
    return new ToolBatch(runId, step, true, out);
  }

  /**
   * Cross-checks a committed ticket against this batch (§7.4). Errors in order: {@code
   * finalized}, {@code runMismatch}, {@code threadMismatch}, {@code notToolCall}, {@code
   * missingAwaitingCall}, {@code callMismatch}, {@code kindMismatch}, {@code correlationMismatch},
   * {@code toolMismatch}.
   *
   * @param threadId the thread the batch belongs to
   * @param ticket the committed ticket
   * @return the error code, or empty when they agree
   */
  public Optional<String> validateAwaitingTicket(String threadId, ResumeTicket ticket) {
    if (finalized) {
      return Optional.of("finalized");
    }
    if (!runId.equals(ticket.runId())) {
      return Optional.of("runMismatch");
    }
    if (!threadId.equals(ticket.threadId())) {
      return Optional.of("threadMismatch");
    }
    if (!(ticket.target() instanceof AwaitTarget.ToolCallTarget t)) {
      return Optional.of("notToolCall");
    }
    Optional<DurableToolCall> waiting = awaitingCall();
    if (waiting.isEmpty()) {
      return Optional.of("missingAwaitingCall");
    }
    DurableToolCall c = waiting.get();
    ToolCallPhase.Awaiting a = (ToolCallPhase.Awaiting) c.phase();
    if (!c.call().callId().equals(t.id())) {
      return Optional.of("callMismatch");
    }
    if (a.kind() != ToolWaitKind.of(t.kind())) {
      return Optional.of("kindMismatch");
    }
    if (!a.correlationId().equals(ticket.correlationId())) {
      return Optional.of("correlationMismatch");
    }
    if (!c.call().toolId().equals(t.tool().toolId()) || !c.call().arguments().equals(t.tool().arguments())) {
      return Optional.of("toolMismatch");
    }
    return Optional.empty();
  }

  private DurableToolCall require(String callId) {
    requireOpen();
    return call(callId).orElseThrow(() ->
        new BatchException("invalidBatch", "a tool batch needs at least one call with unique call ids"));
  }

  private void requireOpen() {
    if (finalized) {
      throw new BatchException("finalized", "the tool batch is finalized");
    }
  }

  private ToolBatch replace(DurableToolCall next) {
    List<DurableToolCall> out = new ArrayList<>(calls);
    for (int i = 0; i < out.size(); i++) {
      if (out.get(i).call().callId().equals(next.call().callId())) {
        out.set(i, next);
      }
    }
    return new ToolBatch(runId, step, false, out);
  }

  private static BatchException illegal(String callId, ToolCallPhase from, String to) {
    return new BatchException("illegalTransition",
        "tool call " + callId + " cannot move from " + from.type() + " to " + to);
  }
}

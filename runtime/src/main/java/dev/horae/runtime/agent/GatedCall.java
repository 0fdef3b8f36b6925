package dev.horae.runtime.agent;

import dev.horae.gate.ResolvedExecutionEnv;
import dev.horae.spi.gate.GateChain;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.StateView;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.session.Session;
import dev.horae.spi.tool.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * One tool call of a turn, the runtime's way — the one home of it, for the turn engine's own turns
 * and for the turns a framework's loop drives ({@link RecordedTurn}): {@code tool/call} appended,
 * the gate chain evaluated (gate specification §1.3: the host's {@code ToolGates} — host gate,
 * then registered gates — and then the gate plugins' gates in dependency order), Allow runs the call, Block and SetResult
 * answer the gate's result (gate specification §8.1), and the {@code tool/result} is appended.
 * What a turn does with a verdict that parks the call ({@code requireConfirmation}, a {@code
 * schedule} without an action kind or with one the runtime's environment permits) or refuses it (a
 * {@code schedule} with an action kind the environment does not permit, gate specification §10.4)
 * is the turn's own: the runtime's turn commits or
 * refuses, a borrowed loop cannot park at all.
 */
final class GatedCall {

  private GatedCall() {}

  /**
   * What a turn does at each point of a call.
   *
   * @param <T> what the call completes with for the turn
   */
  interface Steps<T> {
    /** Runs an allowed call. */
    CompletionStage<ToolResult> run(ToolCall call);

    /** The call's {@code tool/result} is in the log. */
    T answered(ToolCall call, ToolResult result);

    /** A gate parks the call ({@code requireConfirmation}, {@code schedule}); nothing of it ran or was answered. */
    CompletionStage<T> park(ToolCall call, GateOutcome outcome);

    /** A gate schedules the call under an action kind that no environment permits; nothing ran or was answered. */
    CompletionStage<T> refuse(ToolCall call, GateOutcome.Schedule outcome, String refusal);

    /**
     * The result to record for an allowed call whose run failed, before the failure goes on; empty
     * leaves the call unanswered for the turn's end.
     */
    Optional<ToolResult> failedRun(Throwable cause);
  }

  static <T> CompletionStage<T> call(Session session, long turn, long step, ToolCall call, List<ToolGate> gates,
      StateView view, ResolvedExecutionEnv environment, Steps<T> steps) {
    TurnEvents.toolCall(session, turn, step, call);
    // the host's chain (its host gate first) and then the gate plugins' gates in the environment's
    // dependency order (gate specification §1.3): a later gate only restricts, never widens
    List<ToolGate> chain = new ArrayList<>(gates);
    chain.addAll(environment.gates());
    return GateChain.evaluate(chain, call, view).thenCompose(outcome -> {
      if (outcome instanceof GateOutcome.RequireConfirmation) {
        return steps.park(call, outcome);
      }
      if (outcome instanceof GateOutcome.Schedule s) {
        if (s.actionKind().isPresent() && !environment.permitsActionKind(s.actionKind().get())) {
          // absence is denial (gate specification §10.4): only a kind the runtime's gate plugins contribute runs
          return steps.refuse(call, s, "action kind " + s.actionKind().get() + " is not permitted for tool " + call.toolId());
        }
        return steps.park(call, outcome);
      }
      CompletionStage<ToolResult> result;
      if (outcome.isAllow()) {
        try {
          result = steps.run(call);
        } catch (RuntimeException e) {
          result = CompletableFuture.failedFuture(e);
        }
      } else {
        result = CompletableFuture.completedFuture(ToolResult.ofGate(outcome));
      }
      return result.handle((r, failure) -> {
        if (failure != null) {
          Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
          steps.failedRun(cause).ifPresent(error -> TurnEvents.toolResult(session, turn, step, call.callId(), call.toolId(), error));
          throw failure instanceof CompletionException ce ? ce : new CompletionException(failure);
        }
        TurnEvents.toolResult(session, turn, step, call.callId(), call.toolId(), r);
        return steps.answered(call, r);
      });
    });
  }
}

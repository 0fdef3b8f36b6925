package dev.horae.spi.gate;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Evaluates an ordered list of gates with the chain rule of gate specification §1.3: the first
 * non-Allow outcome wins, otherwise Allow.
 */
public final class GateChain {

  private GateChain() {}

  /**
   * Evaluates {@code gates} in order for one call. Later gates run only after earlier ones
   * returned Allow. A gate that throws synchronously yields a failed stage, never Allow.
   *
   * @param gates the chain, in evaluation order
   * @param call the complete call
   * @param state the read-only Run view
   * @return a stage with the first non-Allow outcome, or Allow
   */
  public static CompletionStage<GateOutcome> evaluate(
      List<ToolGate> gates, ToolCall call, StateView state) {
    return step(List.copyOf(gates), 0, call, state);
  }

  private static CompletionStage<GateOutcome> step(
      List<ToolGate> gates, int index, ToolCall call, StateView state) {
    if (index >= gates.size()) {
      return CompletableFuture.completedFuture(GateOutcome.allow());
    }
    CompletionStage<GateOutcome> decided;
    try {
      decided = gates.get(index).gate(call, state);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (decided == null) {
      return CompletableFuture.failedFuture(
          new IllegalStateException(
              "tool gate " + gates.get(index).id() + " returned no outcome stage"));
    }
    return decided.thenCompose(
        outcome -> {
          if (outcome == null) {
            return CompletableFuture.failedFuture(
                new IllegalStateException(
                    "tool gate " + gates.get(index).id() + " completed without an outcome"));
          }
          return outcome.isAllow()
              ? step(gates, index + 1, call, state)
              : CompletableFuture.completedFuture(outcome);
        });
  }
}

package dev.horae.gate.runtime;

import dev.horae.spi.gate.GateChain;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.StateView;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The gate chain of one Run (gate specification §1.3): the per-Run policy or narrowing, then the
 * host's gates, then the selected plugins' gates in dependency order; the first non-Allow wins.
 */
final class RunGateChain {

  private RunGateChain() {}

  /**
   * Evaluates the chain for one call.
   *
   * @return empty when nothing evaluated the call (no policy, no gate: Allow without audit),
   *     otherwise the decided outcome; a policy or gate that throws fails the stage with {@link
   *     GateRuntimeException.Execution}, never Allow
   */
  static CompletionStage<Optional<GateOutcome>> evaluate(Optional<PermissionPolicy> policy,
      List<ToolGate> hostGates, List<ToolGate> pluginGates, ToolCall call, StateView view) {
    if (policy.isEmpty() && hostGates.isEmpty() && pluginGates.isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    if (policy.isPresent()) {
      GateOutcome projected;
      try {
        projected = policy.get().decide(call, view).toGateOutcome();
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(
            new GateRuntimeException.Execution("permission policy failed: " + e.getMessage(), e));
      }
      if (!projected.isAllow()) {
        return CompletableFuture.completedFuture(Optional.of(projected));
      }
    }
    List<ToolGate> chain = new ArrayList<>(hostGates);
    chain.addAll(pluginGates);
    return GateChain.evaluate(chain, call, view).handle((o, err) -> {
      if (err != null) {
        Throwable c = RunDriver.unwrap(err);
        throw new CompletionException(
            new GateRuntimeException.Execution("tool gate failed: " + c.getMessage(), c));
      }
      return Optional.of(o);
    });
  }
}

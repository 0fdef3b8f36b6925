package dev.horae.spi.gate;

import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * Decides what happens to one complete tool call before the tool executor may run it (gate
 * specification §1.1). A gate must not execute the tool itself, and must not block the calling
 * thread: anything that waits is expressed through the returned stage.
 *
 * <p>A gate that throws, or whose stage fails, fails the evaluation of the call; the runtime
 * reports that as an execution failure, never as Allow.
 */
@FunctionalInterface
public interface ToolGate {

  /**
   * The gate's id, used in audits and capability bounds. A plugin's gate id must be inside its
   * declared {@code CapabilityBound.toolGates}.
   *
   * @return the id; {@code gate} unless overridden
   */
  default String id() {
    return "gate";
  }

  /**
   * Decides on one call.
   *
   * @param call the complete call (canonical tool id, call id, arguments)
   * @param state a read-only view of the Run that issued the call
   * @return a stage completing with exactly one outcome
   */
  CompletionStage<GateOutcome> gate(ToolCall call, StateView state);

  /**
   * Gives a gate an explicit id.
   *
   * @param id the id; non-empty
   * @param gate the decision function
   * @return a gate whose {@link #id()} is {@code id}
   * @throws IllegalArgumentException when the id is empty
   */
  static ToolGate named(String id, ToolGate gate) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(gate, "gate");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("tool gate id must be non-empty");
    }
    return new ToolGate() {
      @Override
      public String id() {
        return id;
      }

      @Override
      public CompletionStage<GateOutcome> gate(ToolCall call, StateView state) {
        return gate.gate(call, state);
      }
    };
  }
}

package dev.horae.spi.gate;

import dev.horae.spi.Registration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The host's ordered gate chain (host contract §9, gate specification §1.3).
 *
 * <p>Evaluation order: the host gate, when one is set (absent counts as Allow), then every
 * registered plugin gate in registration order — plugins register in the environment's
 * dependency order — and otherwise Allow. The first non-Allow outcome is final; later gates are
 * not consulted, so a plugin gate can restrict but never widen an earlier decision. The per-Run
 * permission policy runs before this chain and is applied by the run engine.
 */
public interface ToolGates {

  /**
   * Appends a plugin gate to the end of the chain.
   *
   * @param gate the gate
   * @return a handle whose {@code close()} removes the gate; closing twice is harmless
   */
  Registration register(ToolGate gate);

  /**
   * Sets the host gate, which runs before every plugin gate.
   *
   * @param gate the host gate
   * @return a handle whose {@code close()} clears it again
   * @throws IllegalStateException when a host gate is already set
   */
  Registration registerHostGate(ToolGate gate);

  /**
   * A snapshot of the chain in evaluation order (the host gate first, when set).
   *
   * @return the gates
   */
  List<ToolGate> gates();

  /**
   * Evaluates the chain for one call: the first non-Allow outcome wins, otherwise Allow.
   *
   * @param call the complete call
   * @param state the read-only Run view
   * @return a stage with the outcome; it fails when a gate throws or its stage fails
   */
  default CompletionStage<GateOutcome> evaluate(ToolCall call, StateView state) {
    return GateChain.evaluate(gates(), call, state);
  }

  /**
   * Creates a thread-safe, in-process chain, suitable for hosts without their own registry.
   *
   * @return an empty chain
   */
  static ToolGates create() {
    return new SimpleToolGates();
  }
}

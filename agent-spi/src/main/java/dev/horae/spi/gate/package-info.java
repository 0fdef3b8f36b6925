/**
 * The tool-gate hook point of the host contract (host contract §9, gate specification §1).
 *
 * <p>Between the model's tool call and the tool registry's execution, the host runs an ordered
 * chain of {@link dev.horae.spi.gate.ToolGate}s. Each gate sees the complete call ({@link
 * dev.horae.spi.gate.ToolCall}: tool id, call id, arguments) and a read-only view of the Run
 * ({@link dev.horae.spi.gate.StateView}), and answers with exactly one {@link
 * dev.horae.spi.gate.GateOutcome}: allow, block with a reason, set a result, require a person's
 * confirmation, or schedule the very same call for the system to perform later in the same Run.
 *
 * <p>{@link dev.horae.spi.gate.ToolGates} is the registry the host exposes: a host gate first,
 * then plugin gates in registration (dependency) order; the first non-Allow outcome wins. The
 * per-Run permission policy, which runs before every registered gate, belongs to the run engine
 * ({@code gate-runtime}), not to this registry. A gate decides; it never executes the tool.
 */
@NullMarked
package dev.horae.spi.gate;

import org.jspecify.annotations.NullMarked;

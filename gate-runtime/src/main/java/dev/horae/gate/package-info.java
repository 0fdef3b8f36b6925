/**
 * The gate contract's values and pure functions (gate specification §1–§4, §6.2–§6.3, §10).
 *
 * <p>What lives here: permission verdicts and their projection onto the host's {@link
 * dev.horae.spi.gate.GateOutcome}; the closed waiting model ({@link dev.horae.gate.AwaitTarget}
 * and its reasons with stable stream tokens); the {@link dev.horae.gate.ResumeTicket}, whose
 * target is private; {@link dev.horae.gate.RunState} with {@link dev.horae.gate.EndCause} and
 * {@link dev.horae.gate.Failure}; resume commands and {@link dev.horae.gate.ResumeValidation}; the
 * capability bounds ({@link dev.horae.gate.IdBound}, {@link dev.horae.gate.CapabilityBound}) and
 * the environment merge ({@link dev.horae.gate.ResolvedExecutionEnv}); and {@link
 * dev.horae.gate.GateJson}, the codec for the wire shapes of the conformance format.
 *
 * <p>Everything here is pure: no clock, no threads, no I/O, no logging. Time enters only as a
 * {@code nowMs} argument. The run engine that commits these values lives in {@code
 * dev.horae.gate.runtime}.
 */
@NullMarked
package dev.horae.gate;

import org.jspecify.annotations.NullMarked;

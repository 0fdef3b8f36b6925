/**
 * Durable tool-call gates inside the turn engine: a turn is a gate Run ({@code
 * <session>/turn-<n>}) whose commits live in the same session log as {@code gate/commit} events
 * (gate specification §12.0). {@link dev.horae.runtime.gate.TurnRun} writes those commits — the
 * awaiting commit that parks a call, the pre-commit that consumes the ticket, the terminal fact —
 * and {@link dev.horae.runtime.gate.AwaitingCall} is what an embedder or an operator sees of a
 * parked call.
 */
@NullMarked
package dev.horae.runtime.gate;

import org.jspecify.annotations.NullMarked;

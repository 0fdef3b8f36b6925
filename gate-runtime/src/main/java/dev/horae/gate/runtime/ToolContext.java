package dev.horae.gate.runtime;

import dev.horae.spi.AbortSignal;

/**
 * What the executor hands a tool on every execution of a call (gate specification §7.3, §12.6).
 * Tools with external effects pass {@link #operationId()} downstream as an idempotency key.
 */
public interface ToolContext {

  /**
   * The stable operation id {@code tool-batch:{runId}:{step}:{callId}}, the same on every
   * execution of the call (first run, scheduled perform, approved resume, recovery).
   *
   * @return the operation id
   */
  String operationId();

  /**
   * The 1-based execution attempt of this call.
   *
   * @return the attempt
   */
  int attempt();

  /**
   * The Run's cancellation signal.
   *
   * @return the signal
   */
  AbortSignal cancellation();
}

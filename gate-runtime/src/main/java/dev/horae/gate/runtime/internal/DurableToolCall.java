package dev.horae.gate.runtime.internal;

import dev.horae.gate.runtime.ToolRecoveryPolicy;
import dev.horae.spi.gate.ToolCall;
import java.util.Objects;

/**
 * One call of a tool batch with its pinned recovery policy and phase.
 *
 * @param call the model's call
 * @param recoveryPolicy pinned when the call was requested
 * @param phase where the call stands
 */
public record DurableToolCall(ToolCall call, ToolRecoveryPolicy recoveryPolicy, ToolCallPhase phase) {
  /** Rejects missing parts. */
  public DurableToolCall {
    Objects.requireNonNull(call, "call");
    Objects.requireNonNull(recoveryPolicy, "recoveryPolicy");
    Objects.requireNonNull(phase, "phase");
  }

  DurableToolCall with(ToolCallPhase next) {
    return new DurableToolCall(call, recoveryPolicy, next);
  }
}

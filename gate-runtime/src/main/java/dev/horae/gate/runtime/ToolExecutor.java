package dev.horae.gate.runtime;

import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolOutput;
import java.util.concurrent.CompletionStage;

/**
 * The host-supplied tool executor. The runtime enters it only for an allowed call, after the
 * call's move to executing has committed. A thrown exception or failed stage becomes the error
 * result {@code Error: <message>}.
 */
@FunctionalInterface
public interface ToolExecutor {

  /**
   * Executes one call.
   *
   * @param call the committed call (canonical tool id and exact arguments)
   * @param context operation id, attempt and cancellation
   * @return a stage with the call's output; its call id must be the call's
   */
  CompletionStage<ToolOutput> execute(ToolCall call, ToolContext context);

  /**
   * Whether this executor can honour a recovery policy for a tool. The default honours only
   * {@code neverReplay}; a call whose policy cannot be honoured completes with an error and does
   * not run.
   *
   * @param toolId the tool
   * @param policy the pinned policy
   * @return true when honoured
   */
  default boolean canHonour(String toolId, ToolRecoveryPolicy policy) {
    return policy instanceof ToolRecoveryPolicy.NeverReplay;
  }
}

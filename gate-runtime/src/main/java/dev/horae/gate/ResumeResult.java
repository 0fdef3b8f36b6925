package dev.horae.gate;

import dev.horae.spi.gate.ToolOutput;
import java.util.Objects;

/** The answer a resume delivers to a committed wait (gate specification §6.1). */
public sealed interface ResumeResult
    permits ResumeResult.Permission, ResumeResult.ToolResult, ResumeResult.Input {

  /**
   * A permission decision.
   *
   * @param decision allow or deny
   */
  record Permission(PermissionDecision decision) implements ResumeResult {
    /** Rejects a missing decision. */
    public Permission {
      Objects.requireNonNull(decision, "decision");
    }
  }

  /**
   * A client-computed (or delegated) tool result.
   *
   * @param output the result; its call id must be the committed call's
   */
  record ToolResult(ToolOutput output) implements ResumeResult {
    /** Rejects a missing output. */
    public ToolResult {
      Objects.requireNonNull(output, "output");
    }
  }

  /**
   * Free-form input (remote input, pause, delegation).
   *
   * @param text the input
   */
  record Input(String text) implements ResumeResult {
    /** Rejects a missing text. */
    public Input {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * The allow the system uses to perform a scheduled action.
   *
   * @return a permission allow without note
   */
  static ResumeResult allow() {
    return new Permission(PermissionDecision.allow());
  }
}

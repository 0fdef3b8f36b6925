package dev.horae.gate.runtime.internal;

import dev.horae.spi.gate.ToolOutput;
import java.util.Objects;

/** Where one call of a tool batch stands (gate specification §7.1). */
public sealed interface ToolCallPhase
    permits ToolCallPhase.Requested,
        ToolCallPhase.Executing,
        ToolCallPhase.Awaiting,
        ToolCallPhase.Completed,
        ToolCallPhase.Indeterminate {

  /**
   * The JSON type name, used in transition errors.
   *
   * @return e.g. {@code requested}
   */
  String type();

  /**
   * Whether the call is settled (completed or indeterminate).
   *
   * @return true when terminal
   */
  default boolean isTerminal() {
    return this instanceof Completed || this instanceof Indeterminate;
  }

  /** The model asked for the call; no gate decision has been committed. */
  record Requested() implements ToolCallPhase {
    @Override
    public String type() {
      return "requested";
    }
  }

  /**
   * The executor has been (or is being) entered.
   *
   * @param attempt the 1-based execution attempt
   */
  record Executing(int attempt) implements ToolCallPhase {
    @Override
    public String type() {
      return "executing";
    }
  }

  /**
   * The call waits.
   *
   * @param kind the wait kind
   * @param correlationId the wait's correlation id; non-empty
   */
  record Awaiting(ToolWaitKind kind, String correlationId) implements ToolCallPhase {
    /** Rejects missing parts. */
    public Awaiting {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(correlationId, "correlationId");
    }

    @Override
    public String type() {
      return "awaiting";
    }
  }

  /**
   * The call has its result.
   *
   * @param output the result
   */
  record Completed(ToolOutput output) implements ToolCallPhase {
    /** Rejects a missing output. */
    public Completed {
      Objects.requireNonNull(output, "output");
    }

    @Override
    public String type() {
      return "completed";
    }
  }

  /**
   * The call's outcome is unknown.
   *
   * @param reason why
   */
  record Indeterminate(String reason) implements ToolCallPhase {
    /** Rejects a missing reason. */
    public Indeterminate {
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String type() {
      return "indeterminate";
    }
  }
}

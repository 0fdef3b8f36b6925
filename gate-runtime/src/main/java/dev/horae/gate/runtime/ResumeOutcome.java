package dev.horae.gate.runtime;

import dev.horae.gate.RunState;
import java.util.Objects;

/**
 * The result of a resume or perform: the Run advanced to a new state, or the request was
 * rejected before anything changed and before any tool ran (gate specification §13).
 */
public sealed interface ResumeOutcome permits ResumeOutcome.Advanced, ResumeOutcome.Rejected {

  /**
   * The Run advanced.
   *
   * @param state the Run's state after the drive
   */
  record Advanced(RunState state) implements ResumeOutcome {
    /** Rejects a missing state. */
    public Advanced {
      Objects.requireNonNull(state, "state");
    }
  }

  /**
   * The request was rejected; committed facts are unchanged and no tool ran.
   *
   * @param code the stable code, e.g. {@code notAwaiting}
   * @param message the specified message
   * @param category the category whose prefix {@link #display()} uses
   */
  record Rejected(String code, String message, GateRuntimeException.Category category)
      implements ResumeOutcome {
    /** Rejects missing parts. */
    public Rejected {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(category, "category");
    }

    /**
     * The displayed form.
     *
     * @return e.g. {@code runtime execution failed: run is not awaiting}
     */
    public String display() {
      return category.prefix() + message;
    }
  }
}

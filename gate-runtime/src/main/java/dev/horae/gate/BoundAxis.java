package dev.horae.gate;

/**
 * The axes of a {@link CapabilityBound}, in the order {@code enforceBound} checks them (gate
 * specification §10.2).
 */
public enum BoundAxis {
  /** Contributed tools. */
  TOOL("tool", "tool"),
  /** Contributed state keys. */
  STATE_KEY("stateKey", "state key"),
  /** Contributed phase hooks. */
  PHASE_HOOK("phaseHook", "phase hook"),
  /** Contributed action kinds. */
  ACTION_KIND("actionKind", "action kind"),
  /** Contributed run-end guards. */
  RUN_END_GUARD("runEndGuard", "run-end guard"),
  /** Contributed tool gates. */
  TOOL_GATE("toolGate", "tool gate"),
  /** Contributed tool constraints. */
  TOOL_CONSTRAINT("toolConstraint", "tool constraint");

  private final String code;
  private final String words;

  BoundAxis(String code, String words) {
    this.code = code;
    this.words = words;
  }

  /**
   * The axis as reported in a {@code boundViolation} error, e.g. {@code actionKind}.
   *
   * @return the axis code
   */
  public String code() {
    return code;
  }

  /**
   * The axis in an error message, e.g. {@code action kind}.
   *
   * @return the words
   */
  public String words() {
    return words;
  }
}

package dev.horae.gate.runtime;

/**
 * What recovery may do with a call found executing after a crash (gate specification §7.5),
 * pinned when the call is requested. The default is {@link #neverReplay()}.
 */
public sealed interface ToolRecoveryPolicy
    permits ToolRecoveryPolicy.NeverReplay,
        ToolRecoveryPolicy.ReplaySafe,
        ToolRecoveryPolicy.DurableRequest {

  /**
   * The JSON type name.
   *
   * @return e.g. {@code neverReplay}
   */
  String type();

  /**
   * How many executions the policy allows in total.
   *
   * @return the attempt ceiling
   */
  int maxAttempts();

  /**
   * At most one execution; an interrupted call ends indeterminate.
   *
   * @return the policy
   */
  static ToolRecoveryPolicy neverReplay() {
    return new NeverReplay();
  }

  /** At most one execution; an interrupted call ends indeterminate. */
  record NeverReplay() implements ToolRecoveryPolicy {
    @Override
    public String type() {
      return "neverReplay";
    }

    @Override
    public int maxAttempts() {
      return 1;
    }
  }

  /**
   * The tool may simply run again.
   *
   * @param maxAttempts the attempt ceiling, at least 1
   */
  record ReplaySafe(int maxAttempts) implements ToolRecoveryPolicy {
    /**
     * Validates the ceiling.
     *
     * @throws IllegalArgumentException when below 1
     */
    public ReplaySafe {
      if (maxAttempts < 1) {
        throw new IllegalArgumentException("maxAttempts must be at least 1");
      }
    }

    @Override
    public String type() {
      return "replaySafe";
    }
  }

  /**
   * The tool runs again with the same operation id and reconciles downstream.
   *
   * @param maxAttempts the attempt ceiling, at least 1
   */
  record DurableRequest(int maxAttempts) implements ToolRecoveryPolicy {
    /**
     * Validates the ceiling.
     *
     * @throws IllegalArgumentException when below 1
     */
    public DurableRequest {
      if (maxAttempts < 1) {
        throw new IllegalArgumentException("maxAttempts must be at least 1");
      }
    }

    @Override
    public String type() {
      return "durableRequest";
    }
  }
}

package dev.horae.gate;

import java.util.Objects;

/**
 * Why a Run ended in error (gate specification §4.1). The codes {@code capability_bound} and
 * {@code state_conflict} are reserved; every other code is an inference failure.
 */
public sealed interface Failure
    permits Failure.Inference, Failure.CapabilityBound, Failure.StateConflict {

  /** The reserved code of {@link CapabilityBound}. */
  String CAPABILITY_BOUND_CODE = "capability_bound";

  /** The reserved code of {@link StateConflict}. */
  String STATE_CONFLICT_CODE = "state_conflict";

  /**
   * The stable snake_case classification.
   *
   * @return the code
   */
  String code();

  /**
   * The human-readable message.
   *
   * @return the message
   */
  String message();

  /**
   * Builds the failure a code denotes: the reserved codes map to their variants (with their fixed
   * messages), every other code to an inference failure.
   *
   * @param code the code
   * @param message the message (ignored for reserved codes)
   * @return the failure
   */
  static Failure of(String code, String message) {
    return switch (code) {
      case CAPABILITY_BOUND_CODE -> CapabilityBound.INSTANCE;
      case STATE_CONFLICT_CODE -> StateConflict.INSTANCE;
      default -> new Inference(code, message);
    };
  }

  /**
   * The model call failed.
   *
   * @param code the provider's classification, e.g. {@code rate_limited}
   * @param message the provider's message
   */
  record Inference(String code, String message) implements Failure {
    /**
     * Validates the failure.
     *
     * @throws IllegalArgumentException when the code is empty or reserved
     */
    public Inference {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
      if (code.isEmpty() || code.equals(CAPABILITY_BOUND_CODE) || code.equals(STATE_CONFLICT_CODE)) {
        throw new IllegalArgumentException("inference failure code must be non-empty and not reserved");
      }
    }
  }

  /** A plugin contributed beyond its declared capability bound, or an action kind was denied. */
  record CapabilityBound() implements Failure {
    static final CapabilityBound INSTANCE = new CapabilityBound();

    @Override
    public String code() {
      return CAPABILITY_BOUND_CODE;
    }

    @Override
    public String message() {
      return "a plugin contributed beyond its declared capability bound";
    }
  }

  /** Staged state commands conflicted on an exclusive state key. */
  record StateConflict() implements Failure {
    static final StateConflict INSTANCE = new StateConflict();

    @Override
    public String code() {
      return STATE_CONFLICT_CODE;
    }

    @Override
    public String message() {
      return "staged state commands conflict on an exclusive state key";
    }
  }

  /**
   * The capability-bound failure.
   *
   * @return the shared value
   */
  static Failure capabilityBound() {
    return CapabilityBound.INSTANCE;
  }

  /**
   * The state-conflict failure.
   *
   * @return the shared value
   */
  static Failure stateConflict() {
    return StateConflict.INSTANCE;
  }
}

package dev.horae.gate;

import java.util.Objects;

/**
 * The state of a Run (gate specification §4): running, awaiting, or ended with a cause. Ended is
 * absorbing: no transition leaves it.
 */
public sealed interface RunState permits RunState.Running, RunState.Awaiting, RunState.Ended {

  /**
   * Whether a transition from this state to {@code next} is legal: always, unless this state is
   * ended (RS-01).
   *
   * @param next the proposed next state
   * @return false exactly when this state is terminal
   */
  default boolean permits(RunState next) {
    Objects.requireNonNull(next, "next");
    return !isTerminal();
  }

  /**
   * Whether this state is ended.
   *
   * @return true for {@link Ended}
   */
  default boolean isTerminal() {
    return this instanceof Ended;
  }

  /**
   * The running state.
   *
   * @return the shared value
   */
  static RunState running() {
    return Running.INSTANCE;
  }

  /**
   * The awaiting state.
   *
   * @return the shared value
   */
  static RunState awaiting() {
    return Awaiting.INSTANCE;
  }

  /**
   * An ended state.
   *
   * @param cause why the Run ended
   * @return the state
   */
  static RunState ended(EndCause cause) {
    return new Ended(cause);
  }

  /** The Run is executing steps or tool calls. */
  record Running() implements RunState {
    static final Running INSTANCE = new Running();
  }

  /** The Run is parked on a committed ticket. Not terminal. */
  record Awaiting() implements RunState {
    static final Awaiting INSTANCE = new Awaiting();
  }

  /**
   * The Run has ended; absorbing.
   *
   * @param cause why
   */
  record Ended(EndCause cause) implements RunState {
    /** Rejects a missing cause. */
    public Ended {
      Objects.requireNonNull(cause, "cause");
    }
  }
}

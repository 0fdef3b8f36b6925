package dev.horae.gate;

import java.util.Objects;

/** Why a Run ended (gate specification §4.1). */
public sealed interface EndCause
    permits EndCause.NaturalEnd,
        EndCause.MaxSteps,
        EndCause.Cancelled,
        EndCause.Stopped,
        EndCause.Failed,
        EndCause.Indeterminate {

  /**
   * The camelCase JSON name of the cause, e.g. {@code naturalEnd}.
   *
   * @return the wire name
   */
  String wireName();

  /**
   * The model answered without tool calls.
   *
   * @return the cause
   */
  static EndCause naturalEnd() {
    return new NaturalEnd();
  }

  /**
   * The loop's own step ceiling was reached.
   *
   * @return the cause
   */
  static EndCause maxSteps() {
    return new MaxSteps();
  }

  /**
   * The Run was cancelled.
   *
   * @return the cause
   */
  static EndCause cancelled() {
    return new Cancelled();
  }

  /**
   * A host policy stopped the Run.
   *
   * @param reason why
   * @return the cause
   */
  static EndCause stopped(String reason) {
    return new Stopped(reason);
  }

  /**
   * The Run failed.
   *
   * @param failure the classified failure
   * @return the cause
   */
  static EndCause error(Failure failure) {
    return new Failed(failure);
  }

  /**
   * The outcome is unknown (recovery budget exhausted).
   *
   * @return the cause
   */
  static EndCause indeterminate() {
    return new Indeterminate();
  }

  /** The model answered without tool calls. */
  record NaturalEnd() implements EndCause {
    @Override
    public String wireName() {
      return "naturalEnd";
    }
  }

  /** The step ceiling was reached. */
  record MaxSteps() implements EndCause {
    @Override
    public String wireName() {
      return "maxSteps";
    }
  }

  /** The Run was cancelled. */
  record Cancelled() implements EndCause {
    @Override
    public String wireName() {
      return "cancelled";
    }
  }

  /**
   * A host policy stopped the Run.
   *
   * @param reason why
   */
  record Stopped(String reason) implements EndCause {
    /** Rejects a missing reason. */
    public Stopped {
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String wireName() {
      return "stopped";
    }
  }

  /**
   * The Run failed.
   *
   * @param failure the classified failure
   */
  record Failed(Failure failure) implements EndCause {
    /** Rejects a missing failure. */
    public Failed {
      Objects.requireNonNull(failure, "failure");
    }

    @Override
    public String wireName() {
      return "error";
    }
  }

  /** The outcome is unknown. */
  record Indeterminate() implements EndCause {
    @Override
    public String wireName() {
      return "indeterminate";
    }
  }
}

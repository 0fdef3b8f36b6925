package dev.horae.spi.jobs;

/** What a {@code kill} did (jobs spec §2.8). */
public enum KillOutcome {
  /** The producer's cancel was called; the job is {@code stopping}. */
  REQUESTED("cancellation-requested"),
  /** The job was already terminal; the producer was not called. */
  ALREADY_FINISHED("already-finished");

  private final String wire;

  KillOutcome(String wire) {
    this.wire = wire;
  }

  /**
   * Returns the canonical value name used by {@code job_kill}.
   *
   * @return {@code cancellation-requested} or {@code already-finished}
   */
  public String wire() {
    return wire;
  }

  /**
   * Parses a canonical value name.
   *
   * @param wire {@code cancellation-requested} or {@code already-finished}
   * @return the outcome
   * @throws IllegalArgumentException for any other text
   */
  public static KillOutcome fromWire(String wire) {
    for (KillOutcome outcome : values()) {
      if (outcome.wire.equals(wire)) {
        return outcome;
      }
    }
    throw new IllegalArgumentException("unknown kill outcome \"" + wire + "\"");
  }
}

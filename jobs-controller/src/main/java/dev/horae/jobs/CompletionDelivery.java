package dev.horae.jobs;

/** Which lane carries a completion notice to an idle owner (jobs spec §4.3). */
public enum CompletionDelivery {
  /** Idle owners are woken by a follow-up, within the consecutive-wake budget. */
  WAKEUP("wakeup"),
  /** Every owner gets the notice by injection; nothing opens a turn. */
  QUIET("quiet");

  private final String wire;

  CompletionDelivery(String wire) {
    this.wire = wire;
  }

  /**
   * Returns the config spelling.
   *
   * @return {@code wakeup} or {@code quiet}
   */
  public String wire() {
    return wire;
  }
}

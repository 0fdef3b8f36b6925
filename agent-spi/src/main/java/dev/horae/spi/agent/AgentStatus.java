package dev.horae.spi.agent;

/** Public agent status (host contract §5.2). Maintenance tasks run while the agent is idle. */
public enum AgentStatus {
  /** No turn driver is active (maintenance may be). */
  IDLE,
  /** A turn driver is active, including a cancelled turn that is still converging. */
  RUNNING;

  /**
   * The wire name.
   *
   * @return {@code idle} or {@code running}
   */
  public String wireName() {
    return this == IDLE ? "idle" : "running";
  }
}

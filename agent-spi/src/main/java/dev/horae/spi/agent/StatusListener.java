package dev.horae.spi.agent;

/** Notified on every agent status transition (host contract §5.6). */
@FunctionalInterface
public interface StatusListener {

  /**
   * The agent changed status.
   *
   * @param agent the agent
   * @param status its new status
   */
  void onStatus(Agent agent, AgentStatus status);
}

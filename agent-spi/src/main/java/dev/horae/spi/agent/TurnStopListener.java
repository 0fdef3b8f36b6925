package dev.horae.spi.agent;

/**
 * The turn-stopping hook (host contract §6.1 step 2.10): runs when a step concluded the turn and
 * the next-step inbox is empty, just before the turn would end. A listener that queues next-step
 * input (with {@link Agent#inject} or {@link Agent#steer}) keeps the turn going for another step;
 * otherwise the turn ends {@code completed}.
 */
@FunctionalInterface
public interface TurnStopListener {

  /**
   * The turn is about to stop.
   *
   * @param agent the agent
   * @param turn the turn number
   */
  void onTurnStopping(Agent agent, long turn);
}

package dev.horae.runtime.agent;

/** Told about every turn after its {@code turn/end} was appended; see {@link RuntimeAgents#onTurnEnd}. */
@FunctionalInterface
public interface TurnListener {

  /**
   * A turn ended. Runs on the driver's thread; a failure is reported and changes nothing.
   *
   * @param outcome how it ended
   */
  void onTurnEnd(TurnOutcome outcome);
}

package dev.horae.spi.agent;

import dev.horae.spi.Registration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** The agent registry (host contract §5.1). */
public interface AgentRegistry {

  /**
   * Live top-level agents (never subagents).
   *
   * @return the roots
   */
  List<Agent> roots();

  /**
   * The live agent registered under that id.
   *
   * @param id agent id
   * @return the current instance, or empty
   */
  Optional<Agent> get(String id);

  /**
   * Fires once for every agent created after registration; no replay.
   *
   * @param listener the listener
   * @return a handle that removes it
   */
  Registration onCreated(Consumer<Agent> listener);

  /**
   * Fires on every status change of every agent.
   *
   * @param listener the listener
   * @return a handle that removes it
   */
  Registration onStatus(StatusListener listener);

  /**
   * Registers a pre-step listener; {@code prepend} places it before every listener registered
   * without it.
   *
   * @param listener the listener
   * @param prepend whether to run it first (outermost)
   * @return a handle that removes it
   */
  Registration onPreStep(PreStepListener listener, boolean prepend);

  /**
   * Runs {@code work} with no initiating-agent attribution.
   *
   * @param work the work
   */
  void runWithoutInitiator(Runnable work);

  /**
   * Registers a turn-stopping hook (host contract §6.1 step 2.10). Listeners run in registration
   * order; a failing listener is reported and the others still run.
   *
   * @param listener the listener
   * @return a handle that removes it
   * @throws UnsupportedOperationException from a registry whose host runs no turn engine
   */
  default Registration onTurnStopping(TurnStopListener listener) {
    throw new UnsupportedOperationException("this host runs no turn engine, so no turn-stopping hook");
  }
}

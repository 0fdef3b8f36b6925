package dev.horae.jobs.fakes;

import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.agent.PreStepListener;
import dev.horae.spi.agent.StatusListener;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** An id → instance registry for registry unit tests. */
public final class FakeRegistry implements AgentRegistry {

  private final Map<String, Agent> live = new ConcurrentHashMap<>();

  /**
   * Registers (or replaces) an agent under its id.
   *
   * @param agent the agent
   * @param <A> the agent type
   * @return the agent
   */
  public <A extends Agent> A add(A agent) {
    live.put(agent.id(), agent);
    return agent;
  }

  /**
   * Unregisters an id.
   *
   * @param id the id
   */
  public void remove(String id) {
    live.remove(id);
  }

  @Override
  public List<Agent> roots() {
    return List.copyOf(live.values());
  }

  @Override
  public Optional<Agent> get(String id) {
    return Optional.ofNullable(live.get(id));
  }

  @Override
  public Registration onCreated(Consumer<Agent> listener) {
    return Registration.noop();
  }

  @Override
  public Registration onStatus(StatusListener listener) {
    return Registration.noop();
  }

  @Override
  public Registration onPreStep(PreStepListener listener, boolean prepend) {
    return Registration.noop();
  }

  @Override
  public void runWithoutInitiator(Runnable work) {
    work.run();
  }
}

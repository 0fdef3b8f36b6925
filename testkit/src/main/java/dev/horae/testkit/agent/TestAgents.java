package dev.horae.testkit.agent;

import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.agent.PreStep;
import dev.horae.spi.agent.PreStepListener;
import dev.horae.spi.agent.StatusListener;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.Session;
import dev.horae.runtime.plugin.RuntimeScope;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The agent registry of the testkit host (host contract §5.1): roots and children, identity-based
 * {@code get}, created events without replay, status events, the pre-step waterfall and agent
 * disposal with awaited scope effects. Thread-safe.
 */
public final class TestAgents implements AgentRegistry {

  private final Map<String, TestAgent> live = new LinkedHashMap<>();
  private final List<Consumer<Agent>> createdListeners = new CopyOnWriteArrayList<>();
  private final List<StatusListener> statusListeners = new CopyOnWriteArrayList<>();
  private final List<PreStepListener> prepended = new ArrayList<>();
  private final List<PreStepListener> appended = new ArrayList<>();
  private final TurnLoop loop;
  private final Executor drivers;
  private final WarningSink warnings;
  private int withoutInitiatorRuns;

  /**
   * Creates the registry.
   *
   * @param drivers where turn drivers run: a {@link DriverQueue} for deterministic tests, or any
   *     executor (for example a single thread) for a live host; never the waking thread
   * @param loop the turn loop
   * @param warnings where contained listener failures go
   */
  public TestAgents(Executor drivers, TurnLoop loop, WarningSink warnings) {
    this.drivers = drivers;
    this.loop = loop;
    this.warnings = warnings;
  }

  /**
   * Creates and registers an agent over a live session and fires the created listeners. A
   * session-backed agent's id is its session id.
   *
   * @param session the session
   * @param parentId the owning agent for a child, or empty for a root
   * @param scope the agent scope
   * @return the agent
   */
  public TestAgent create(Session session, Optional<String> parentId, RuntimeScope scope) {
    TestAgent agent = new TestAgent(session.id(), parentId, session, scope, this);
    synchronized (this) {
      live.put(agent.id(), agent);
    }
    for (Consumer<Agent> l : createdListeners) {
      try {
        l.accept(agent);
      } catch (RuntimeException e) {
        warnings.warn("agent-created listener failed for " + agent.id(), Optional.of(e));
      }
    }
    return agent;
  }

  /**
   * Disposes an agent: cancels its inbox and maintenance signal, fails its idle waits, removes
   * it from the registry and awaits its scope's disposal effects.
   *
   * @param agent the agent
   * @return a stage completing when disposal finished
   */
  public CompletionStage<Void> dispose(TestAgent agent) {
    synchronized (this) {
      live.remove(agent.id(), agent);
    }
    return agent.dispose();
  }

  @Override
  public synchronized List<Agent> roots() {
    List<Agent> roots = new ArrayList<>();
    for (TestAgent a : live.values()) {
      if (a.parentId().isEmpty()) {
        roots.add(a);
      }
    }
    return roots;
  }

  /**
   * Every live agent.
   *
   * @return the agents
   */
  public synchronized List<TestAgent> all() {
    return List.copyOf(live.values());
  }

  @Override
  public synchronized Optional<Agent> get(String id) {
    return Optional.ofNullable(live.get(id));
  }

  @Override
  public Registration onCreated(Consumer<Agent> listener) {
    createdListeners.add(listener);
    return () -> createdListeners.remove(listener);
  }

  @Override
  public Registration onStatus(StatusListener listener) {
    statusListeners.add(listener);
    return () -> statusListeners.remove(listener);
  }

  @Override
  public synchronized Registration onPreStep(PreStepListener listener, boolean prepend) {
    List<PreStepListener> target = prepend ? prepended : appended;
    target.add(listener);
    return () -> {
      synchronized (this) {
        target.remove(listener);
      }
    };
  }

  @Override
  public void runWithoutInitiator(Runnable work) {
    synchronized (this) {
      withoutInitiatorRuns++;
    }
    work.run();
  }

  /**
   * How many times {@link #runWithoutInitiator} ran work.
   *
   * @return the count
   */
  public synchronized int withoutInitiatorRuns() {
    return withoutInitiatorRuns;
  }

  void fireStatus(TestAgent agent, AgentStatus status) {
    for (StatusListener l : statusListeners) {
      try {
        l.onStatus(agent, status);
      } catch (RuntimeException e) {
        warnings.warn("status listener failed for " + agent.id(), Optional.of(e));
      }
    }
  }

  void startDriver(TestAgent agent) {
    fireStatus(agent, AgentStatus.RUNNING);
    drivers.execute(() -> drive(agent));
  }

  private void drive(TestAgent agent) {
    var unused = loop.runTurn(agent, this).whenComplete((v, e) -> {
      if (e != null) {
        warnings.warn("turn driver of " + agent.id() + " failed", Optional.of(e));
      }
      if (agent.finishDriverOrContinue()) {
        drivers.execute(() -> drive(agent));
      }
    });
  }

  /**
   * Runs the pre-step waterfall: prepended listeners first, then the others, each in registration
   * order; the innermost decision is Enter with the proposal.
   */
  CompletionStage<StepDecision> preStep(TestAgent agent, List<UserMessage> proposal, long turn, long step, AbortSignal signal) {
    List<PreStepListener> chain;
    synchronized (this) {
      chain = new ArrayList<>(prepended);
      chain.addAll(appended);
    }
    return link(chain, 0, agent, List.copyOf(proposal), turn, step, signal);
  }

  private static CompletionStage<StepDecision> link(
      List<PreStepListener> chain, int index, TestAgent agent, List<UserMessage> proposal, long turn, long step, AbortSignal signal) {
    if (index == chain.size()) {
      return CompletableFuture.completedFuture(new StepDecision.Enter(proposal));
    }
    PreStep context = new PreStep() {
      @Override
      public Agent agent() {
        return agent;
      }

      @Override
      public List<UserMessage> messages() {
        return proposal;
      }

      @Override
      public long turn() {
        return turn;
      }

      @Override
      public long step() {
        return step;
      }

      @Override
      public AbortSignal signal() {
        return signal;
      }

      @Override
      public CompletionStage<StepDecision> next() {
        return link(chain, index + 1, agent, proposal, turn, step, signal);
      }
    };
    try {
      return chain.get(index).onPreStep(context);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}

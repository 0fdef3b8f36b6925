package dev.horae.runtime;

import dev.horae.gate.ResolvedExecutionEnv;
import dev.horae.gate.runtime.SessionCommitStore;
import dev.horae.runtime.agent.IdleHistory;
import dev.horae.runtime.agent.RuntimeAgents.AgentFactory;
import dev.horae.runtime.agent.RuntimeAgents;
import dev.horae.runtime.agent.TurnEngine;
import dev.horae.runtime.agent.TurnLimits;
import dev.horae.runtime.invariant.LogInvariantService;
import dev.horae.runtime.plugin.RuntimePromptSections;
import dev.horae.runtime.plugin.RuntimeScope;
import dev.horae.runtime.plugin.ServiceMap;
import dev.horae.runtime.tool.RuntimeToolRegistry;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.jobs.PromptSections;
import dev.horae.spi.jobs.ScopeChain;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.Sessions;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The host services every runtime assembles the same way over a sessions service: the tool
 * registry, the tool-gate chain, the agent registry with its turn engine, the invariant service,
 * the prompt-section registry and the service map, wired to each other once. {@link HoraeRuntime} and the testkit's host are
 * both built on it, so a test exercises exactly the production wiring.
 */
public final class HostServices {

  private final RuntimeToolRegistry tools = new RuntimeToolRegistry();
  private final ToolGates gates = ToolGates.create();
  private final ServiceMap services = new ServiceMap();
  private final RuntimeAgents agents;
  private final TurnEngine engine;
  private final LogInvariantService invariants;

  private HostServices(Sessions sessions, Executor drivers, WarningSink warnings, AgentFactory factory, boolean invariantsEnabled,
      InstantSource clock, boolean dispatch, IdleHistory idleHistory, TurnLimits limits,
      ResolvedExecutionEnv environment, SessionCommitStore commits) {
    this.engine = new TurnEngine(tools, gates, warnings, () -> services.find(PromptSections.class), commits, clock, dispatch, limits, environment);
    this.agents = new RuntimeAgents(drivers, engine, warnings, factory, idleHistory);
    this.invariants = new LogInvariantService(sessions, invariantsEnabled);
    services.provide(ToolGates.class, gates);
    // a host may provide its own ScopeChain later; the registry asks for it on every lookup
    services.provide(PromptSections.class, new RuntimePromptSections(
        agent -> services.find(ScopeChain.class).orElse(ScopeChain.agentOnly()).of(agent)));
  }

  /**
   * Assembles the services.
   *
   * @param sessions the sessions service the agents and invariants work on
   * @param drivers where turn drivers run (never the waking thread)
   * @param warnings where contained failures go
   * @param factory makes agent objects
   * @param invariantsEnabled false for the disabled invariant mode (host contract §10)
   * @param clock the wall clock (a perform reads it for the ticket deadline)
   * @param dispatch true to perform committed scheduled actions as soon as they are committed or
   *     found on reopen; false leaves them to the embedder
   * @param idleHistory when an idle agent releases its history projection
   * @param limits the ticket deadline (gate specification §11) and the turn's step ceiling
   * @param environment the merged gate plugins whose action kinds a {@code schedule} outcome may
   *     name (gate specification §10.4); {@code ResolvedExecutionEnv.empty()} permits none
   * @return the services
   */
  public static HostServices assemble(Sessions sessions, Executor drivers, WarningSink warnings, AgentFactory factory,
      boolean invariantsEnabled, InstantSource clock, boolean dispatch, IdleHistory idleHistory, TurnLimits limits, ResolvedExecutionEnv environment) {
    // gate commits live in the session logs and are durable before they count (gate specification §12.0)
    return assemble(sessions, drivers, warnings, factory, invariantsEnabled, clock, dispatch, idleHistory, limits, environment,
        SessionCommitStore.over(sessions::get, sessions::flush));
  }

  /**
   * Assembles the services with the engine committing through {@code commits}: the store of a
   * durable dispatcher's queue, whose outbox and fence must see every commit (gate specification
   * §12.5.1, §12.5.3). See {@link #assemble(Sessions, Executor, WarningSink, AgentFactory, boolean,
   * InstantSource, boolean, IdleHistory, TurnLimits, ResolvedExecutionEnv)} for the other parameters.
   *
   * @param sessions the sessions service the agents and invariants work on
   * @param drivers where turn drivers run (never the waking thread)
   * @param warnings where contained failures go
   * @param factory makes agent objects
   * @param invariantsEnabled false for the disabled invariant mode (host contract §10)
   * @param clock the wall clock (a perform reads it for the ticket deadline)
   * @param dispatch true to perform committed scheduled actions in process
   * @param idleHistory when an idle agent releases its history projection
   * @param limits the ticket deadline and the turn's step ceiling
   * @param environment the merged gate plugins
   * @param commits the commit store over {@code sessions}' logs, flushing before a commit counts
   * @return the services
   */
  public static HostServices assemble(Sessions sessions, Executor drivers, WarningSink warnings, AgentFactory factory,
      boolean invariantsEnabled, InstantSource clock, boolean dispatch, IdleHistory idleHistory, TurnLimits limits,
      ResolvedExecutionEnv environment, SessionCommitStore commits) {
    return new HostServices(sessions, drivers, warnings, factory, invariantsEnabled, clock, dispatch, idleHistory, limits,
        environment, commits);
  }

  /**
   * The tool registry.
   *
   * @return tools
   */
  public RuntimeToolRegistry tools() {
    return tools;
  }

  /**
   * The tool-gate chain (also provided as the {@code ToolGates} service).
   *
   * @return gates
   */
  public ToolGates gates() {
    return gates;
  }

  /**
   * Sets what folds a reopened session's log before its agent reads it (see {@link
   * TurnEngine#trackReopenedWith}): a durable dispatch queue's {@code track}.
   *
   * @param tracker folds the session
   */
  public void trackReopenedWith(java.util.function.Consumer<dev.horae.spi.session.Session> tracker) {
    engine.trackReopenedWith(tracker);
  }

  /**
   * The agent registry.
   *
   * @return agents
   */
  public RuntimeAgents agents() {
    return agents;
  }

  /**
   * The invariant service.
   *
   * @return invariants
   */
  public LogInvariantService invariants() {
    return invariants;
  }

  /**
   * Registers (or replaces) an optional host service.
   *
   * @param type the service type
   * @param service the service
   * @param <T> the service type
   */
  public <T> void provide(Class<T> type, T service) {
    services.provide(type, service);
  }

  /**
   * An optional host service.
   *
   * @param type the service type
   * @param <T> the service type
   * @return the service, if provided
   */
  public <T> Optional<T> service(Class<T> type) {
    return services.find(type);
  }

  /**
   * A new plugin scope: its tools are visible to every agent.
   *
   * @return the scope
   */
  public RuntimeScope newPluginScope() {
    return new RuntimeScope(tools::register);
  }

  /**
   * A new agent scope: its tools are visible to that agent only.
   *
   * @param agentId the agent
   * @return the scope
   */
  public RuntimeScope agentScope(String agentId) {
    return new RuntimeScope(tool -> tools.registerFor(agentId, tool));
  }
}

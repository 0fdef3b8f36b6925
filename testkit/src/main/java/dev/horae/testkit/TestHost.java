package dev.horae.testkit;

import dev.horae.gate.ResolvedExecutionEnv;
import dev.horae.runtime.HostServices;
import dev.horae.runtime.agent.IdleHistory;
import dev.horae.runtime.agent.TurnLimits;
import dev.horae.runtime.agent.RuntimeAgents;
import dev.horae.runtime.invariant.LogInvariantService;
import dev.horae.runtime.tool.RuntimeToolRegistry;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.PromptAdmission;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.Installation;
import dev.horae.spi.plugin.Plugin;
import dev.horae.spi.plugin.ScopeHandle;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.time.IdSource;
import dev.horae.spi.time.Timers;
import dev.horae.testkit.agent.DriverQueue;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.testkit.log.CapturingWarnings;
import dev.horae.testkit.session.InMemorySessionStore;
import dev.horae.testkit.session.InMemorySessions;
import dev.horae.testkit.time.ManualTime;
import dev.horae.testkit.time.SequentialIds;
import dev.horae.testkit.time.SettableZone;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory reference host: every seam of the host contract, wired together, with test
 * controls. Create one with {@link #builder()}. Not a production host: drivers run only when the
 * test calls {@link #settle()} (or {@link #advance(Duration)}), so every run is deterministic.
 */
public final class TestHost implements Host {

  private final ManualTime time;
  private final SequentialIds ids;
  private final SettableZone zone;
  private final CapturingWarnings warnings;
  private final InMemorySessionStore store;
  private final InMemorySessions sessions;
  private final DriverQueue drivers;
  private final HostServices core;
  private final boolean persistence;
  private final boolean invariantsEnabled;
  private final boolean dispatch;
  private final TurnLimits limits;
  private final ResolvedExecutionEnv environment;

  private TestHost(Builder b, ManualTime time, SequentialIds ids, SettableZone zone, InMemorySessionStore store, boolean resume) {
    this.time = time;
    this.ids = ids;
    this.zone = zone;
    this.store = store;
    this.persistence = b.persistence;
    this.invariantsEnabled = b.invariants;
    this.dispatch = b.dispatch;
    this.limits = b.limits;
    this.environment = b.environment;
    this.warnings = new CapturingWarnings();
    this.sessions = new InMemorySessions(time, warnings, store);
    this.drivers = new DriverQueue();
    this.core = HostServices.assemble(sessions, drivers, warnings, TestAgent::new, b.invariants, time, b.dispatch,
        IdleHistory.keep(), b.limits, b.environment);
    if (persistence) {
      var unused = sessions.onFlush(store);
      core.provide(SessionStore.class, store);
    }
    if (resume) {
      sessions.resumeAll();
    }
  }

  /**
   * Starts a builder with defaults: wall clock 2026-01-01T00:00:00Z, process zone UTC,
   * persistence mounted, invariant service enabled.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A fresh runtime over this host's durable store (the restart scenario): all live state is
   * discarded; every session is resumed from what was last flushed; no agent exists until the
   * test creates one with {@link #agentFor(Session)}. Clock, ids and process zone carry over.
   *
   * @return the new host
   */
  public TestHost restart() {
    return restart(dispatch);
  }

  /**
   * A fresh runtime over this host's durable store, as {@link #restart()}, that dispatches
   * committed scheduled actions or not: a host built with dispatch off plays a process that stopped
   * between commit and perform; the restarted one then finds the action and performs it.
   *
   * @param dispatchScheduledActions whether the new host dispatches
   * @return the new host
   */
  public TestHost restart(boolean dispatchScheduledActions) {
    Builder b = new Builder();
    b.persistence = persistence;
    b.invariants = invariantsEnabled;
    b.dispatch = dispatchScheduledActions;
    b.limits = limits;
    b.environment = environment;
    return new TestHost(b, time, ids, zone, store, true);
  }

  // ---- Host ------------------------------------------------------------------------------------

  @Override
  public InMemorySessions sessions() {
    return sessions;
  }

  @Override
  public RuntimeAgents agents() {
    return core.agents();
  }

  @Override
  public RuntimeToolRegistry tools() {
    return core.tools();
  }

  @Override
  public LogInvariantService invariants() {
    return core.invariants();
  }

  @Override
  public InstantSource wallClock() {
    return time;
  }

  @Override
  public Timers timers() {
    return time;
  }

  @Override
  public Supplier<ZoneId> processZone() {
    return zone;
  }

  @Override
  public IdSource ids() {
    return ids;
  }

  @Override
  public CapturingWarnings warnings() {
    return warnings;
  }

  @Override
  public <T> Optional<T> service(Class<T> type) {
    return core.service(type);
  }

  @Override
  public ScopeHandle newPluginScope() {
    return core.newPluginScope();
  }

  // ---- test controls ----------------------------------------------------------------------------

  /**
   * Registers (or replaces) an optional host service, e.g. a job registry.
   *
   * @param type the service type
   * @param service the service
   * @param <T> the service type
   */
  public <T> void provide(Class<T> type, T service) {
    core.provide(type, service);
  }

  /**
   * The manual clock and timers.
   *
   * @return the time source
   */
  public ManualTime time() {
    return time;
  }

  /**
   * The deterministic id source.
   *
   * @return the ids
   */
  public SequentialIds idSource() {
    return ids;
  }

  /**
   * The settable process zone.
   *
   * @return the zone supplier
   */
  public SettableZone zone() {
    return zone;
  }

  /**
   * The durable store behind flushes and restarts (scriptable outcomes).
   *
   * @return the store
   */
  public InMemorySessionStore store() {
    return store;
  }

  /**
   * The tool-gate chain.
   *
   * @return the gates
   */
  public ToolGates gates() {
    return core.gates();
  }

  /**
   * The queue turn drivers run on.
   *
   * @return the driver queue
   */
  public DriverQueue drivers() {
    return drivers;
  }

  /**
   * Installs a plugin on this host.
   *
   * @param plugin the plugin
   * @return its installation
   */
  public Installation install(Plugin plugin) {
    return plugin.install(this);
  }

  /**
   * Creates a headerless session and a root agent over it.
   *
   * @return the agent
   */
  public TestAgent createAgent() {
    return createAgent(CreateOptions.DEFAULT);
  }

  /**
   * Creates a session with the options and a root agent over it.
   *
   * @param options session options (zone, preallocated id)
   * @return the agent
   */
  public TestAgent createAgent(CreateOptions options) {
    return agentFor(sessions.create(options));
  }

  /**
   * Creates a root agent over an existing live session (for example one resumed by
   * {@link #restart()}).
   *
   * @param session the session
   * @return the agent
   */
  public TestAgent agentFor(Session session) {
    return (TestAgent) core.agents().create(session, Optional.empty(), core.agentScope(session.id()));
  }

  /**
   * Creates a child agent (never a root) with a session of its own.
   *
   * @param parent the owning agent
   * @return the child
   */
  public TestAgent createChildAgent(TestAgent parent) {
    Session session = sessions.create(CreateOptions.DEFAULT);
    return (TestAgent) core.agents().create(session, Optional.of(parent.id()), core.agentScope(session.id()));
  }

  /**
   * Disposes an agent and awaits its scope effects.
   *
   * @param agent the agent
   * @return a stage completing when disposal finished
   */
  public CompletionStage<Void> dispose(TestAgent agent) {
    return core.agents().dispose(agent);
  }

  /**
   * Submits a plain user prompt ({@code {kind: "user"}}).
   *
   * @param agent the agent
   * @param text the prompt text
   * @return the queued message
   */
  public UserMessage prompt(TestAgent agent, String text) {
    UserMessage m = messages().text(text, MessageSource.user());
    agent.prompt(m);
    return m;
  }

  /**
   * Submits a prompt over RPC with an optional client zone, admitted as host contract §7.3 says.
   *
   * @param agent the agent
   * @param text the prompt text
   * @param rpcId the request id
   * @param clientTimeZone the raw zone the client reported
   * @return the queued message (with the canonical zone)
   * @throws dev.horae.spi.message.PromptRejectedException {@code invalid-time-zone}; nothing is
   *     queued
   */
  public UserMessage prompt(TestAgent agent, String text, String rpcId, Optional<String> clientTimeZone) {
    Optional<String> canonical = clientTimeZone.map(PromptAdmission::admitClientZone);
    UserMessage m = messages().text(text, MessageSource.rpc(rpcId, canonical));
    agent.prompt(m);
    return m;
  }

  /**
   * Runs queued turn drivers until none is left.
   *
   * @return how many driver tasks ran
   */
  public int settle() {
    return drivers.drain();
  }

  /**
   * Advances wall and monotonic time together (running due timers), then settles drivers.
   *
   * @param duration how far
   */
  public void advance(Duration duration) {
    time.advance(duration);
    settle();
  }

  /**
   * Every live agent.
   *
   * @return the agents
   */
  public List<TestAgent> allAgents() {
    return core.agents().all().stream().map(TestAgent.class::cast).toList();
  }

  /** Configures a {@link TestHost}. */
  public static final class Builder {
    private Instant start = Instant.parse("2026-01-01T00:00:00Z");
    private ZoneId processZone = ZoneId.of("UTC");
    private boolean persistence = true;
    private boolean invariants = true;
    private boolean dispatch = true;
    private TurnLimits limits = TurnLimits.NONE;
    private ResolvedExecutionEnv environment = ResolvedExecutionEnv.empty();

    private Builder() {}

    /**
     * The gate plugins whose action kinds the host permits and whose gates follow the host's
     * chain, merged at once, as {@code HoraeRuntime.Builder#gatePlugins} says (default none).
     *
     * @param plugins the plugins, in input order
     * @return this builder
     * @throws dev.horae.gate.EnvMergeException when they do not merge
     */
    public Builder gatePlugins(List<dev.horae.gate.Plugin> plugins) {
      this.environment = ResolvedExecutionEnv.merge(List.copyOf(plugins));
      return this;
    }

    /**
     * How long a parked call's ticket stays answerable after its commit, as {@code
     * HoraeRuntime.Builder#awaitDeadline} says (default: forever).
     *
     * @param v the time to answer, more than zero
     * @return this builder
     * @throws IllegalArgumentException when {@code v} is zero or negative
     */
    public Builder awaitDeadline(Duration v) {
      this.limits = limits.withAwaitDeadline(v);
      return this;
    }

    /**
     * Sets the initial wall clock.
     *
     * @param v the instant
     * @return this builder
     */
    public Builder start(Instant v) {
      start = v;
      return this;
    }

    /**
     * Sets the process zone.
     *
     * @param v the zone
     * @return this builder
     */
    public Builder processZone(ZoneId v) {
      processZone = v;
      return this;
    }

    /**
     * Whether a persistence service is mounted (the store registered as durability listener).
     * Without it, every flush returns {@code false}.
     *
     * @param v whether persistence is mounted
     * @return this builder
     */
    public Builder persistence(boolean v) {
      persistence = v;
      return this;
    }

    /**
     * Whether the invariant service runs checks (disabled: registration is a no-op).
     *
     * @param v whether invariants are enabled
     * @return this builder
     */
    public Builder invariants(boolean v) {
      invariants = v;
      return this;
    }

    /**
     * Whether committed scheduled actions are performed as soon as they are committed or found on
     * reopen (default true), as {@code HoraeRuntime.Builder#dispatchScheduledActions} says; false
     * leaves them parked for the test to perform.
     *
     * @param v true to dispatch
     * @return this builder
     */
    public Builder dispatchScheduledActions(boolean v) {
      this.dispatch = v;
      return this;
    }

    /**
     * Builds the host.
     *
     * @return the host
     */
    public TestHost build() {
      return new TestHost(this, new ManualTime(start), new SequentialIds(), new SettableZone(processZone), new InMemorySessionStore(), false);
    }
  }
}

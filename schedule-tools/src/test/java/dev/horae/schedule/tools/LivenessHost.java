package dev.horae.schedule.tools;

import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.agent.InboxClaimListener;
import dev.horae.spi.agent.MaintenanceTask;
import dev.horae.spi.agent.PreStepListener;
import dev.horae.spi.agent.TurnStopListener;
import dev.horae.spi.invariant.InvariantService;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.Scope;
import dev.horae.spi.plugin.ScopeHandle;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.Sessions;
import dev.horae.spi.time.IdSource;
import dev.horae.spi.time.Timers;
import dev.horae.spi.tool.ToolRegistry;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The test host seen through an agent registry whose answers a test can change, for the live-owner
 * liveness rule (spec §12.1: live while {@code agents.get(id)} is this exact agent and {@code
 * roots()} contains it). Every test agent is seen as a {@link Seen} agent that delegates to it, so a
 * test can make the registry forget it, map its id to another agent object, or drop it from the
 * roots, and can run an action when the owner takes the maintenance claim.
 */
final class LivenessHost implements Host {

  /** How the registry currently answers for one agent. */
  enum Standing {
    /** {@code get(id)} is the agent and {@code roots()} lists it. */
    LIVE,
    /** {@code get(id)} is empty and {@code roots()} does not list it. */
    GONE,
    /**
     * {@code get(id)} is another agent object with the same id while {@code roots()} still lists
     * this one: a replacement registered under the id before the old root is dropped.
     */
    REPLACED,
    /** {@code get(id)} is the agent, but {@code roots()} does not list it. */
    NOT_A_ROOT
  }

  final TestHost d;
  private final IdentityHashMap<Agent, Seen> seen = new IdentityHashMap<>();
  private final AgentRegistry agents;

  LivenessHost(TestHost d) {
    this.d = d;
    AgentRegistry a = d.agents();
    this.agents = new AgentRegistry() {
      @Override
      public List<Agent> roots() {
        List<Agent> out = new ArrayList<>();
        for (Agent root : a.roots()) {
          Seen s = seen(root);
          if (s.standing == Standing.LIVE || s.standing == Standing.REPLACED) {
            out.add(s);
          }
        }
        return out;
      }

      @Override
      public Optional<Agent> get(String id) {
        return a.get(id).flatMap(agent -> {
          Seen s = seen(agent);
          return switch (s.standing) {
            case LIVE, NOT_A_ROOT -> Optional.of(s);
            case GONE -> Optional.empty();
            case REPLACED -> Optional.of(s.impostor);
          };
        });
      }

      @Override
      public Registration onCreated(Consumer<Agent> listener) {
        return a.onCreated(agent -> listener.accept(seen(agent)));
      }

      @Override
      public Registration onStatus(dev.horae.spi.agent.StatusListener listener) {
        return a.onStatus((agent, status) -> listener.onStatus(seen(agent), status));
      }

      @Override
      public Registration onPreStep(PreStepListener listener, boolean prepend) {
        return a.onPreStep(listener, prepend);
      }

      @Override
      public Registration onTurnStopping(TurnStopListener listener) {
        return a.onTurnStopping(listener);
      }

      @Override
      public void runWithoutInitiator(Runnable work) {
        a.runWithoutInitiator(work);
      }
    };
  }

  /** The view of a test agent this host hands out. */
  synchronized Seen seen(Agent agent) {
    if (agent instanceof Seen s) {
      return s;
    }
    return seen.computeIfAbsent(agent, k -> new Seen((TestAgent) k));
  }

  /** A new root agent, as Schedule sees it. */
  Seen createAgent() {
    return seen(d.createAgent());
  }

  /**
   * A test agent as this host's registry hands it out: every call goes to the test agent, and
   * {@link #beforeClaim} runs when the maintenance claim is asked for.
   */
  static final class Seen implements Agent {
    final TestAgent t;
    /** Another agent object with the same id, for {@link Standing#REPLACED}. */
    final Agent impostor;
    volatile Standing standing = Standing.LIVE;
    volatile Runnable beforeClaim = () -> { };

    private Seen(TestAgent t) {
      this.t = t;
      this.impostor = new Delegate(t);
    }

    @Override
    public <T> CompletionStage<T> runMaintenance(MaintenanceTask<T> task) {
      Runnable hook = beforeClaim;
      beforeClaim = () -> { };
      hook.run();
      return t.runMaintenance(task);
    }

    @Override public String id() { return t.id(); }
    @Override public Optional<String> parentId() { return t.parentId(); }
    @Override public Session session() { return t.session(); }
    @Override public Scope scope() { return t.scope(); }
    @Override public AgentStatus status() { return t.status(); }
    @Override public CompletionStage<Void> whenIdle() { return t.whenIdle(); }
    @Override public void followup(UserMessage message) { t.followup(message); }
    @Override public void inject(UserMessage message) { t.inject(message); }
    @Override public void steer(UserMessage message) { t.steer(message); }
    @Override public boolean withdraw(String messageId) { return t.withdraw(messageId); }
    @Override public Registration onInboxClaimed(InboxClaimListener listener) { return t.onInboxClaimed(listener); }
  }

  /** A plain delegating agent: the same agent behind another object. */
  private record Delegate(TestAgent t) implements Agent {
    @Override public String id() { return t.id(); }
    @Override public Optional<String> parentId() { return t.parentId(); }
    @Override public Session session() { return t.session(); }
    @Override public Scope scope() { return t.scope(); }
    @Override public AgentStatus status() { return t.status(); }
    @Override public <T> CompletionStage<T> runMaintenance(MaintenanceTask<T> task) { return t.runMaintenance(task); }
    @Override public CompletionStage<Void> whenIdle() { return t.whenIdle(); }
    @Override public void followup(UserMessage message) { t.followup(message); }
    @Override public void inject(UserMessage message) { t.inject(message); }
    @Override public void steer(UserMessage message) { t.steer(message); }
    @Override public boolean withdraw(String messageId) { return t.withdraw(messageId); }
    @Override public Registration onInboxClaimed(InboxClaimListener listener) { return t.onInboxClaimed(listener); }
  }

  @Override public Sessions sessions() { return d.sessions(); }
  @Override public AgentRegistry agents() { return agents; }
  @Override public ToolRegistry tools() { return d.tools(); }
  @Override public InvariantService invariants() { return d.invariants(); }
  @Override public InstantSource wallClock() { return d.wallClock(); }
  @Override public Timers timers() { return d.timers(); }
  @Override public Supplier<ZoneId> processZone() { return d.processZone(); }
  @Override public IdSource ids() { return d.ids(); }
  @Override public WarningSink warnings() { return d.warnings(); }
  @Override public <T> Optional<T> service(Class<T> type) { return d.service(type); }
  @Override public ScopeHandle newPluginScope() { return d.newPluginScope(); }
}

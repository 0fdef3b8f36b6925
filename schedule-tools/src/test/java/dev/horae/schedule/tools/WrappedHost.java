package dev.horae.schedule.tools;

import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.agent.PreStepListener;
import dev.horae.spi.agent.StatusListener;
import dev.horae.spi.invariant.InvariantService;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.ScopeHandle;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.AppendValidator;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.DurabilityListener;
import dev.horae.spi.session.EventObserver;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionCreatedListener;
import dev.horae.spi.session.Sessions;
import dev.horae.spi.time.IdSource;
import dev.horae.spi.time.Timers;
import dev.horae.spi.tool.ToolRegistry;
import dev.horae.testkit.TestHost;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The test host seen through two fault switches the testkit does not offer: failing message ids (a
 * framing failure) and a throwing {@code runWithoutInitiator}.
 */
final class WrappedHost implements Host {

  final TestHost d;
  final AtomicInteger failIds = new AtomicInteger();
  final AtomicInteger failRunWithoutInitiator = new AtomicInteger();
  private final Sessions sessions;
  private final AgentRegistry agents;

  WrappedHost(TestHost d) {
    this.d = d;
    Sessions s = d.sessions();
    this.sessions = new Sessions() {
      @Override public Session create(CreateOptions o) { return s.create(o); }
      @Override public Session fork(Session p, long b, boolean m) { return s.fork(p, b, m); }
      @Override public Session resume(String id) { return s.resume(id); }
      @Override public Optional<Session> get(String id) { return s.get(id); }
      @Override public List<Session> list() { return s.list(); }
      @Override public CompletionStage<Boolean> flush(Session session) { return s.flush(session); }
      @Override public Registration onFlush(DurabilityListener l) { return s.onFlush(l); }
      @Override public Registration onPreAppend(AppendValidator v) { return s.onPreAppend(v); }
      @Override public Registration onEvent(EventObserver o) { return s.onEvent(o); }
      @Override public Registration onSessionCreated(SessionCreatedListener l) { return s.onSessionCreated(l); }
    };
    AgentRegistry a = d.agents();
    this.agents = new AgentRegistry() {
      @Override public List<Agent> roots() { return a.roots(); }
      @Override public Optional<Agent> get(String id) { return a.get(id); }
      @Override public Registration onCreated(Consumer<Agent> l) { return a.onCreated(l); }
      @Override public Registration onStatus(StatusListener l) { return a.onStatus(l); }
      @Override public Registration onPreStep(PreStepListener l, boolean p) { return a.onPreStep(l, p); }
      @Override public void runWithoutInitiator(Runnable work) {
        if (failRunWithoutInitiator.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          throw new IllegalStateException("no initiator context");
        }
        a.runWithoutInitiator(work);
      }
    };
  }

  @Override public Sessions sessions() { return sessions; }
  @Override public AgentRegistry agents() { return agents; }
  @Override public ToolRegistry tools() { return d.tools(); }
  @Override public InvariantService invariants() { return d.invariants(); }
  @Override public InstantSource wallClock() { return d.wallClock(); }
  @Override public Timers timers() { return d.timers(); }
  @Override public Supplier<ZoneId> processZone() { return d.processZone(); }

  @Override
  public IdSource ids() {
    return () -> {
      if (failIds.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw new IllegalStateException("id source exhausted");
      }
      UUID next = d.ids().next();
      return next;
    };
  }

  @Override public WarningSink warnings() { return d.warnings(); }
  @Override public <T> Optional<T> service(Class<T> type) { return d.service(type); }
  @Override public ScopeHandle newPluginScope() { return d.newPluginScope(); }
}

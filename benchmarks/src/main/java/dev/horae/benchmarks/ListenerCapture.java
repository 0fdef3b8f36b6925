package dev.horae.benchmarks;

import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.agent.PreStepListener;
import dev.horae.spi.agent.StatusListener;
import dev.horae.spi.invariant.InvariantService;
import dev.horae.spi.message.MessageFactory;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.ScopeHandle;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.Sessions;
import dev.horae.spi.time.IdSource;
import dev.horae.spi.time.Timers;
import dev.horae.spi.tool.ToolRegistry;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A host that forwards everything to another host and also keeps the pre-step listeners plugins
 * register, so a benchmark can call a plugin's listener directly through the public {@link
 * PreStepListener} contract, without a model turn around it.
 */
public final class ListenerCapture implements Host {

  private final Host delegate;
  private final List<PreStepListener> preStep = new CopyOnWriteArrayList<>();
  private final AgentRegistry agents;

  /**
   * Wraps a host.
   *
   * @param delegate the host that does the work
   */
  public ListenerCapture(Host delegate) {
    this.delegate = delegate;
    this.agents = new CapturingAgents(delegate.agents());
  }

  /**
   * The most recently registered pre-step listener that is still registered.
   *
   * @return the listener, or empty when none is registered
   */
  public Optional<PreStepListener> lastPreStepListener() {
    return preStep.isEmpty() ? Optional.empty() : Optional.of(preStep.get(preStep.size() - 1));
  }

  @Override
  public Sessions sessions() {
    return delegate.sessions();
  }

  @Override
  public AgentRegistry agents() {
    return agents;
  }

  @Override
  public ToolRegistry tools() {
    return delegate.tools();
  }

  @Override
  public InvariantService invariants() {
    return delegate.invariants();
  }

  @Override
  public InstantSource wallClock() {
    return delegate.wallClock();
  }

  @Override
  public Timers timers() {
    return delegate.timers();
  }

  @Override
  public Supplier<ZoneId> processZone() {
    return delegate.processZone();
  }

  @Override
  public IdSource ids() {
    return delegate.ids();
  }

  @Override
  public MessageFactory messages() {
    return delegate.messages();
  }

  @Override
  public WarningSink warnings() {
    return delegate.warnings();
  }

  @Override
  public <T> Optional<T> service(Class<T> type) {
    return delegate.service(type);
  }

  @Override
  public ScopeHandle newPluginScope() {
    return delegate.newPluginScope();
  }

  /** Forwards registrations and remembers the pre-step listeners until they are removed. */
  private final class CapturingAgents implements AgentRegistry {
    private final AgentRegistry inner;

    CapturingAgents(AgentRegistry inner) {
      this.inner = inner;
    }

    @Override
    public List<Agent> roots() {
      return inner.roots();
    }

    @Override
    public Optional<Agent> get(String id) {
      return inner.get(id);
    }

    @Override
    public Registration onCreated(Consumer<Agent> listener) {
      return inner.onCreated(listener);
    }

    @Override
    public Registration onStatus(StatusListener listener) {
      return inner.onStatus(listener);
    }

    @Override
    public Registration onPreStep(PreStepListener listener, boolean prepend) {
      Registration forwarded = inner.onPreStep(listener, prepend);
      preStep.add(listener);
      return () -> {
        preStep.remove(listener);
        forwarded.close();
      };
    }

    @Override
    public void runWithoutInitiator(Runnable work) {
      inner.runWithoutInitiator(work);
    }
  }
}

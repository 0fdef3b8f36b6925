package dev.horae.jobs.registry;

import dev.horae.jobs.registry.internal.Admission;
import dev.horae.jobs.registry.internal.JobRecord;
import dev.horae.jobs.registry.internal.Layer;
import dev.horae.jobs.registry.internal.RecordStore;
import dev.horae.jobs.registry.internal.Settlement;
import dev.horae.jobs.registry.internal.Starts;
import dev.horae.jobs.registry.internal.Teardown;
import dev.horae.jobs.registry.internal.Waits;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobHooks;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobRead;
import dev.horae.spi.jobs.JobReporter;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.jobs.JobsChangedObserver;
import dev.horae.spi.jobs.KillOutcome;
import dev.horae.spi.jobs.ScopeChain;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.Scope;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.time.Timers;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory job registry (jobs spec §2): the library's provider of the {@link JobService}
 * seam. One lock serialises every state transition; settlements run on a serial settlement
 * executor, never inside the producer's completing call; reporters, listeners and observers are
 * always called outside the lock (§2.16).
 *
 * <p>This class is the seam's front: it holds the session-fenced reads, kill, notice attachment
 * and the registrations itself and hands the larger parts of the spec to one internal class each —
 * start preflight and admission (§2.4, §2.5), waits (§2.9), settlement (§2.11) and teardown
 * (§2.13) — all working on one record store under that one lock.
 */
public final class LocalJobService implements JobService {

  private final RecordStore store;
  private final Starts starts;
  private final Waits waits;
  private final Teardown teardown;

  private LocalJobService(Builder b) {
    Executor executor = b.settlementExecutor;
    Optional<ExecutorService> owned;
    if (executor == null) {
      ExecutorService own =
          Executors.newSingleThreadExecutor(
              r -> {
                Thread t = new Thread(r, "horae-job-settlement");
                t.setDaemon(true);
                return t;
              });
      owned = Optional.of(own);
      executor = own;
    } else {
      owned = Optional.empty();
    }
    this.store = new RecordStore(b.warnings, b.scopeChain);
    Settlement settlement = new Settlement(store, b.wallClock, executor);
    this.teardown = new Teardown(store, settlement, owned);
    this.starts =
        new Starts(
            store,
            new Admission(b.config.maxConcurrentJobsPerOwner()),
            b.agents,
            b.wallClock,
            settlement,
            teardown);
    this.waits = new Waits(store, b.timers);
  }

  /**
   * Creates a registry over a host with the default configuration; see {@link
   * #create(JobServiceConfig, Host)}.
   *
   * @param host the host
   * @return a registry with its own daemon settlement thread
   */
  public static LocalJobService create(Host host) {
    return create(JobServiceConfig.defaults(), host);
  }

  /**
   * Creates a registry over a host: its agent registry, wall clock, timers and warning sink; the
   * scope chain is the host's {@link ScopeChain} service, or the agent's own scope only.
   *
   * <p>The registry is a service bound to that host, not a plugin: the host offers it to the
   * controller and to producers as its {@link JobService} ({@code provide(JobService.class,
   * jobs)} on {@code HoraeRuntime}), and whoever created it closes it.
   *
   * @param config the registry configuration
   * @param host the host
   * @return a registry with its own daemon settlement thread
   */
  public static LocalJobService create(JobServiceConfig config, Host host) {
    return builder(host.wallClock(), host.timers())
        .config(config)
        .agents(host.agents())
        .warnings(host.warnings())
        .scopeChain(host.service(ScopeChain.class).orElse(ScopeChain.agentOnly()))
        .build();
  }

  /**
   * Starts a builder.
   *
   * @param wallClock the injected wall clock (start and finish times)
   * @param timers the injected monotonic timers (wait timeouts)
   * @return a builder with the default config, no agent registry, a silent warning sink, the
   *     agent-only scope chain and an owned settlement thread
   */
  public static Builder builder(InstantSource wallClock, Timers timers) {
    return new Builder(wallClock, timers);
  }

  /** Builds a {@link LocalJobService}. */
  public static final class Builder {
    private final InstantSource wallClock;
    private final Timers timers;
    private JobServiceConfig config = JobServiceConfig.defaults();
    private Optional<AgentRegistry> agents = Optional.empty();
    private WarningSink warnings = (message, cause) -> {};
    private ScopeChain scopeChain = ScopeChain.agentOnly();
    private @Nullable Executor settlementExecutor;

    private Builder(InstantSource wallClock, Timers timers) {
      this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
      this.timers = Objects.requireNonNull(timers, "timers");
    }

    /**
     * Sets the configuration.
     *
     * @param value the configuration
     * @return this builder
     */
    public Builder config(JobServiceConfig value) {
      config = Objects.requireNonNull(value, "value");
      return this;
    }

    /**
     * Sets the agent registry that owned starts check their owner against.
     *
     * @param value the registry
     * @return this builder
     */
    public Builder agents(AgentRegistry value) {
      agents = Optional.of(value);
      return this;
    }

    /**
     * Sets the warning sink for contained failures.
     *
     * @param value the sink
     * @return this builder
     */
    public Builder warnings(WarningSink value) {
      warnings = Objects.requireNonNull(value, "value");
      return this;
    }

    /**
     * Sets the scope-chain resolver used for routing.
     *
     * @param value the resolver
     * @return this builder
     */
    public Builder scopeChain(ScopeChain value) {
      scopeChain = Objects.requireNonNull(value, "value");
      return this;
    }

    /**
     * Sets the serial settlement executor (tests inject a manual one). It must run tasks one at a
     * time in submission order and never on the submitting thread: producers may complete {@code
     * done} inside a hook the registry calls under its lock.
     *
     * @param value the executor
     * @return this builder
     */
    public Builder settlementExecutor(Executor value) {
      settlementExecutor = Objects.requireNonNull(value, "value");
      return this;
    }

    /**
     * Builds the registry.
     *
     * @return the registry
     */
    public LocalJobService build() {
      return new LocalJobService(this);
    }
  }

  @Override
  public JobId start(JobStart start) {
    return starts.start(start);
  }

  @Override
  public List<JobSnapshot> list(Optional<Agent> caller) {
    synchronized (store.lock()) {
      List<JobSnapshot> out = new ArrayList<>();
      for (JobRecord r : store.records().values()) {
        if (RecordStore.visible(r, caller)) {
          out.add(r.snapshot());
        }
      }
      return out;
    }
  }

  /**
   * Every record regardless of owner, in registration order (host diagnostics and the invariant
   * companion; not part of the fenced seam).
   *
   * @return fresh snapshots
   */
  public List<JobSnapshot> allSnapshots() {
    synchronized (store.lock()) {
      return store.records().values().stream().map(JobRecord::snapshot).toList();
    }
  }

  @Override
  public JobSnapshot get(JobId id, Optional<Agent> caller) {
    synchronized (store.lock()) {
      return store.lookupLocked(id, caller).snapshot();
    }
  }

  @Override
  public JobRead read(JobId id, Optional<Agent> caller) {
    List<JobRecord.Notice> withdraw;
    JobRead result;
    synchronized (store.lock()) {
      JobRecord r = store.lookupLocked(id, caller);
      String text;
      if (r.hooks instanceof JobHooks.Stream stream) {
        text = stream.reader().readOutput();
      } else {
        text = r.status.isTerminal() ? r.output.orElse("") : "";
      }
      withdraw = r.status.isTerminal() ? r.markReported() : List.of();
      result = new JobRead(text, r.snapshot());
    }
    store.callbacks().withdraw(withdraw);
    return result;
  }

  @Override
  public KillOutcome kill(JobId id, Optional<Agent> caller, Optional<String> reason) {
    List<JobRecord.Notice> withdraw = List.of();
    KillOutcome outcome;
    Optional<Agent> owner;
    synchronized (store.lock()) {
      JobRecord r = store.lookupLocked(id, caller);
      owner = r.owner;
      if (r.status.isTerminal()) {
        withdraw = r.markReported();
        outcome = KillOutcome.ALREADY_FINISHED;
      } else {
        // a throwing cancel propagates before anything changed (§2.8)
        r.hooks.canceller().cancel(reason);
        r.status = JobStatus.STOPPING;
        r.reported = true;
        outcome = KillOutcome.REQUESTED;
      }
    }
    store.callbacks().withdraw(withdraw);
    if (outcome == KillOutcome.REQUESTED) {
      store.publishChange(owner);
    }
    return outcome;
  }

  @Override
  public CompletionStage<JobSnapshot> await(
      JobId id, double timeoutMs, Optional<Agent> caller, AbortSignal abort) {
    return waits.await(id, timeoutMs, caller, abort);
  }

  @Override
  public Registration attachController(Optional<Scope> scope, String name, JobReporter reporter) {
    return file(scope, l -> l.controllers, new Layer.Controller(name, reporter));
  }

  @Override
  public Registration onJobDone(Optional<Scope> scope, JobDoneListener listener) {
    return file(scope, l -> l.listeners, new Layer.Listener(listener));
  }

  @Override
  public Registration onJobsChanged(Optional<Scope> scope, JobsChangedObserver observer) {
    return file(scope, l -> l.observers, new Layer.Observer(observer));
  }

  @Override
  public void attachNotice(JobId id, Agent owner, String messageId) {
    JobRecord.Notice notice = new JobRecord.Notice(owner, messageId);
    boolean now;
    synchronized (store.lock()) {
      JobRecord r = store.records().get(id);
      if (r == null) {
        return;
      }
      now = r.reported && r.status.isTerminal();
      if (!now) {
        r.notices.add(notice);
      }
    }
    if (now) {
      store.callbacks().withdraw(List.of(notice));
    }
  }

  @Override
  public boolean serves(Optional<Agent> owner) {
    List<Scope> chain = store.chainOf(owner);
    synchronized (store.lock()) {
      return store.routing().serves(chain, owner.isPresent());
    }
  }

  @Override
  public CompletionStage<Void> closeAsync() {
    return teardown.closeAsync();
  }

  /**
   * Files a registration into its scope's layer (§2.12); closing the handle removes exactly that
   * entry, once, and drops the layer when it became empty.
   */
  private <T> Registration file(Optional<Scope> scope, Function<Layer, List<T>> list, T entry) {
    synchronized (store.lock()) {
      list.apply(store.routing().layer(scope)).add(entry);
    }
    AtomicBoolean closed = new AtomicBoolean();
    return () -> {
      if (closed.compareAndSet(false, true)) {
        synchronized (store.lock()) {
          store.routing().remove(scope, l -> list.apply(l).removeIf(e -> e == entry));
        }
      }
    };
  }
}

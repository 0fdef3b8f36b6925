package dev.horae.jobs.registry;

import dev.horae.jobs.registry.internal.Admission;
import dev.horae.jobs.registry.internal.Callbacks;
import dev.horae.jobs.errors.internal.Errors;
import dev.horae.jobs.registry.internal.JobRecord;
import dev.horae.jobs.registry.internal.Layer;
import dev.horae.jobs.registry.internal.Routing;
import dev.horae.jobs.registry.internal.Waiter;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobHooks;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobRead;
import dev.horae.spi.jobs.JobReporter;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.jobs.JobsChangedObserver;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.jobs.KillOutcome;
import dev.horae.spi.jobs.ScopeChain;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.Scope;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory job registry (jobs spec §2): the library's provider of the {@link JobService}
 * seam. One lock serialises every state transition; settlements run on a serial settlement
 * executor, never inside the producer's completing call; reporters, listeners and observers are
 * always called outside the lock (§2.16).
 */
public final class LocalJobService implements JobService {

  // far beyond any real wait; keeps Duration arithmetic of host timers from overflowing
  private static final double MAX_WAIT_MS = 1e15;

  private final Object lock = new Object();
  private final Admission admission;
  private final Optional<AgentRegistry> agents;
  private final InstantSource wallClock;
  private final Timers timers;
  private final WarningSink warnings;
  private final ScopeChain scopeChain;
  private final Executor settlementExecutor;
  private final Optional<ExecutorService> ownedExecutor;
  private final Routing routing = new Routing();
  private final Callbacks callbacks;

  // guarded by lock
  private final Map<JobId, JobRecord> records = new LinkedHashMap<>();
  private final Map<String, Long> counters = new HashMap<>();
  private final IdentityHashMap<Agent, Registration> ownerCleanups = new IdentityHashMap<>();
  private boolean closing;
  private @Nullable CompletableFuture<Void> closed;

  private LocalJobService(Builder b) {
    this.admission = new Admission(b.config.maxConcurrentJobsPerOwner());
    this.agents = b.agents;
    this.wallClock = b.wallClock;
    this.timers = b.timers;
    this.warnings = b.warnings;
    this.callbacks = new Callbacks(b.warnings);
    this.scopeChain = b.scopeChain;
    Executor executor = b.settlementExecutor;
    if (executor == null) {
      ExecutorService own =
          Executors.newSingleThreadExecutor(
              r -> {
                Thread t = new Thread(r, "horae-job-settlement");
                t.setDaemon(true);
                return t;
              });
      this.ownedExecutor = Optional.of(own);
      this.settlementExecutor = own;
    } else {
      this.ownedExecutor = Optional.empty();
      this.settlementExecutor = executor;
    }
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
    Optional<Agent> owner = start.owner();
    List<Scope> chain = chainOf(owner);
    synchronized (lock) {
      if (!routing.serves(chain, owner.isPresent())) {
        throw new JobsException(
            JobsException.CONTROLLER_UNAVAILABLE,
            "background jobs unavailable: no job controller serves this agent (load the tool-jobs"
                + " controller in its composition)");
      }
    }
    if (start.kind().isEmpty()) {
      throw new JobsException(
          JobsException.INVALID_KIND, "invalid job kind: expected a non-empty string");
    }
    if (start.label().isEmpty()) {
      throw new JobsException(
          JobsException.INVALID_LABEL, "invalid job label: expected a non-empty string");
    }
    OptionalLong limit = start.outputLimitBytes();
    if (limit.isPresent()
        && (limit.getAsLong() < 1 || limit.getAsLong() > EcmaNumbers.MAX_SAFE_INTEGER)) {
      throw new JobsException(
          JobsException.INVALID_OUTPUT_LIMIT,
          "invalid outputLimitBytes: expected a positive safe integer, got " + limit.getAsLong());
    }
    if (owner.isPresent()) {
      checkLive(owner.get());
    }
    boolean attachCleanup = reserve(owner);
    if (attachCleanup) {
      Agent o = owner.get();
      Registration cleanup = o.scope().onDispose(() -> disposeOwner(o));
      synchronized (lock) {
        if (ownerCleanups.containsKey(o)) {
          ownerCleanups.put(o, cleanup);
        }
      }
    }
    JobHooks hooks;
    try {
      hooks = start.producer().run();
    } catch (RuntimeException | Error e) {
      synchronized (lock) {
        unreserveLocked(owner);
      }
      throw e;
    }
    JobRecord record;
    synchronized (lock) {
      unreserveLocked(owner);
      if (!closing) {
        long n = counters.merge(start.kind(), 1L, Long::sum);
        record =
            new JobRecord(
                JobId.of(start.kind(), n),
                start.kind(),
                start.label(),
                limit,
                owner,
                hooks,
                wallClock.millis());
        records.put(record.id, record);
      } else {
        record = null;
      }
    }
    if (record == null) {
      hooks.canceller().cancel(Optional.of("jobs service disposed"));
      throw closedFailure();
    }
    JobRecord registered = record;
    hooks
        .done()
        .whenComplete(
            (outcome, failure) -> submitSettlement(registered, outcome, failure));
    publishChange(owner);
    return registered.id;
  }

  @Override
  public List<JobSnapshot> list(Optional<Agent> caller) {
    synchronized (lock) {
      List<JobSnapshot> out = new ArrayList<>();
      for (JobRecord r : records.values()) {
        if (visible(r, caller)) {
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
    synchronized (lock) {
      return records.values().stream().map(JobRecord::snapshot).toList();
    }
  }

  @Override
  public JobSnapshot get(JobId id, Optional<Agent> caller) {
    synchronized (lock) {
      return lookupLocked(id, caller).snapshot();
    }
  }

  @Override
  public JobRead read(JobId id, Optional<Agent> caller) {
    List<JobRecord.Notice> withdraw;
    JobRead result;
    synchronized (lock) {
      JobRecord r = lookupLocked(id, caller);
      String text;
      if (r.hooks instanceof JobHooks.Stream stream) {
        text = stream.reader().readOutput();
      } else {
        text = r.status.isTerminal() ? r.output.orElse("") : "";
      }
      withdraw = r.status.isTerminal() ? r.markReported() : List.of();
      result = new JobRead(text, r.snapshot());
    }
    callbacks.withdraw(withdraw);
    return result;
  }

  @Override
  public KillOutcome kill(JobId id, Optional<Agent> caller, Optional<String> reason) {
    List<JobRecord.Notice> withdraw = List.of();
    KillOutcome outcome;
    Optional<Agent> owner;
    synchronized (lock) {
      JobRecord r = lookupLocked(id, caller);
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
    callbacks.withdraw(withdraw);
    if (outcome == KillOutcome.REQUESTED) {
      publishChange(owner);
    }
    return outcome;
  }

  @Override
  public CompletionStage<JobSnapshot> await(
      JobId id, double timeoutMs, Optional<Agent> caller, AbortSignal abort) {
    Waiter waiter = new Waiter();
    JobRecord r;
    List<JobRecord.Notice> withdraw = List.of();
    JobSnapshot terminal = null;
    synchronized (lock) {
      r = lookupLocked(id, caller);
      if (!(timeoutMs > 0) || Double.isInfinite(timeoutMs)) {
        throw new JobsException(
            JobsException.INVALID_WAIT_TIMEOUT,
            "invalid wait timeout: expected a positive number of milliseconds, got "
                + (Double.isFinite(timeoutMs) ? EcmaNumbers.toString(timeoutMs) : "null"));
      }
      if (r.status.isTerminal()) {
        withdraw = r.markReported();
        terminal = r.snapshot();
      } else if (abort.aborted()) {
        return CompletableFuture.failedFuture(aborted());
      } else {
        r.waiters.add(waiter);
      }
    }
    if (terminal != null) {
      callbacks.withdraw(withdraw);
      return CompletableFuture.completedFuture(terminal);
    }
    JobRecord record = r;
    long ms = (long) Math.min(Math.ceil(timeoutMs), MAX_WAIT_MS);
    Cancellable timer = timers.schedule(Duration.ofMillis(ms), () -> timeOut(record, waiter));
    Registration abortHook = abort.onAbort(() -> abortWait(record, waiter));
    waiter.arm(timer, abortHook);
    return waiter.result.copy();
  }

  @Override
  public Registration attachController(Optional<Scope> scope, String name, JobReporter reporter) {
    Layer.Controller entry = new Layer.Controller(name, reporter);
    synchronized (lock) {
      routing.layer(scope).controllers.add(entry);
    }
    return once(
        () -> {
          synchronized (lock) {
            routing.remove(scope, l -> l.controllers.removeIf(e -> e == entry));
          }
        });
  }

  @Override
  public Registration onJobDone(Optional<Scope> scope, JobDoneListener listener) {
    Layer.Listener entry = new Layer.Listener(listener);
    synchronized (lock) {
      routing.layer(scope).listeners.add(entry);
    }
    return once(
        () -> {
          synchronized (lock) {
            routing.remove(scope, l -> l.listeners.removeIf(e -> e == entry));
          }
        });
  }

  @Override
  public Registration onJobsChanged(Optional<Scope> scope, JobsChangedObserver observer) {
    Layer.Observer entry = new Layer.Observer(observer);
    synchronized (lock) {
      routing.layer(scope).observers.add(entry);
    }
    return once(
        () -> {
          synchronized (lock) {
            routing.remove(scope, l -> l.observers.removeIf(e -> e == entry));
          }
        });
  }

  @Override
  public void attachNotice(JobId id, Agent owner, String messageId) {
    JobRecord.Notice notice = new JobRecord.Notice(owner, messageId);
    boolean now;
    synchronized (lock) {
      JobRecord r = records.get(id);
      if (r == null) {
        return;
      }
      now = r.reported && r.status.isTerminal();
      if (!now) {
        r.notices.add(notice);
      }
    }
    if (now) {
      callbacks.withdraw(List.of(notice));
    }
  }

  @Override
  public boolean serves(Optional<Agent> owner) {
    List<Scope> chain = chainOf(owner);
    synchronized (lock) {
      return routing.serves(chain, owner.isPresent());
    }
  }

  @Override
  public CompletionStage<Void> closeAsync() {
    CompletableFuture<Void> done;
    List<JobRecord> all;
    List<Map.Entry<JobRecord, RuntimeException>> forced = new ArrayList<>();
    synchronized (lock) {
      if (closed != null) {
        return closed.copy();
      }
      closing = true;
      done = new CompletableFuture<>();
      closed = done;
      all = List.copyOf(records.values());
      for (JobRecord r : all) {
        cancelForTeardownLocked(r, "jobs service disposed", forced);
      }
    }
    forced.forEach(e -> forceFail(e.getKey(), e.getValue()));
    var unused =
        allSettled(all)
        .whenComplete(
            (ignored, failure) -> {
              List<Optional<Agent>> owners = new ArrayList<>();
              List<Registration> cleanups;
              synchronized (lock) {
                Set<Agent> seen = Collections.newSetFromMap(new IdentityHashMap<>());
                boolean unowned = false;
                for (JobRecord r : records.values()) {
                  if (r.owner.isEmpty()) {
                    if (!unowned) {
                      owners.add(Optional.empty());
                    }
                    unowned = true;
                  } else if (seen.add(r.owner.get())) {
                    owners.add(r.owner);
                  }
                }
                records.clear();
                cleanups = List.copyOf(ownerCleanups.values());
                ownerCleanups.clear();
              }
              owners.forEach(this::publishChange);
              cleanups.forEach(LocalJobService::closeQuietly);
              ownedExecutor.ifPresent(ExecutorService::shutdown);
              done.complete(null);
            });
    return done.copy();
  }

  // ---- owner teardown (§2.13) ----

  private CompletionStage<Void> disposeOwner(Agent owner) {
    List<JobRecord> mine = new ArrayList<>();
    List<JobRecord> stopped = new ArrayList<>();
    List<Map.Entry<JobRecord, RuntimeException>> forced = new ArrayList<>();
    synchronized (lock) {
      ownerCleanups.remove(owner);
      for (JobRecord r : records.values()) {
        if (r.ownedBy(owner)) {
          mine.add(r);
          if (cancelForTeardownLocked(r, "owner disposed", forced)) {
            stopped.add(r);
          }
        }
      }
    }
    forced.forEach(e -> forceFail(e.getKey(), e.getValue()));
    for (int i = 0; i < stopped.size(); i++) {
      publishChange(Optional.of(owner));
    }
    return allSettled(mine)
        .thenRun(
            () -> {
              boolean removed;
              synchronized (lock) {
                removed = records.values().removeIf(r -> r.ownedBy(owner));
              }
              if (removed) {
                publishChange(Optional.of(owner));
              }
            });
  }

  /** Returns true when the record moved to {@code stopping}. */
  private boolean cancelForTeardownLocked(
      JobRecord r, String reason, List<Map.Entry<JobRecord, RuntimeException>> forced) {
    if (!r.live()) {
      return false;
    }
    r.reported = true;
    try {
      r.hooks.canceller().cancel(Optional.of(reason));
    } catch (RuntimeException e) {
      forced.add(Map.entry(r, e));
      return false;
    }
    r.status = JobStatus.STOPPING;
    return true;
  }

  private void forceFail(JobRecord r, RuntimeException failure) {
    String error = Errors.render(failure);
    warnings.warn(
        "jobs: cancel of "
            + r.id.value()
            + " threw during teardown; job record forced failed and work may be orphaned: "
            + error,
        Optional.of(failure));
    submitSettlement(
        r,
        JobOutcome.failed(Optional.of("cancel threw during teardown; work may be orphaned: " + error)),
        null);
  }

  private static CompletableFuture<Void> allSettled(List<JobRecord> list) {
    return CompletableFuture.allOf(
        list.stream().map(r -> r.settledSignal).toArray(CompletableFuture<?>[]::new));
  }

  // ---- settlement (§2.11) ----

  private void submitSettlement(
      JobRecord r, @Nullable JobOutcome outcome, @Nullable Throwable failure) {
    try {
      settlementExecutor.execute(() -> settle(r, outcome, failure));
    } catch (RejectedExecutionException e) {
      warnings.warn("jobs: settlement of " + r.id.value() + " was rejected", Optional.of(e));
    }
  }

  private void settle(JobRecord r, @Nullable JobOutcome outcome, @Nullable Throwable failure) {
    List<Scope> chain = chainOf(r.owner);
    List<Waiter> taken;
    JobSnapshot snapshot;
    boolean reporting;
    Optional<JobReporter> reporter;
    List<JobDoneListener> listeners;
    List<JobsChangedObserver> observers;
    String contractWarning = null;
    synchronized (lock) {
      if (r.settled) {
        return;
      }
      if (outcome == null) {
        Throwable cause =
            failure != null ? failure : new IllegalStateException("done completed without outcome");
        String error = Errors.render(cause);
        r.status = JobStatus.FAILED;
        r.detail = Optional.of(error);
        contractWarning =
            "jobs: job " + r.id.value() + " producer done failed (producer contract violation): "
                + error;
      } else {
        r.status = outcome.status();
        r.detail = outcome.detail();
        r.output = outcome.output();
      }
      r.finishedAt = OptionalLong.of(Math.max(r.startedAt, wallClock.millis()));
      if (!r.waiters.isEmpty()) {
        r.reported = true;
      }
      taken = List.copyOf(r.waiters);
      r.waiters.clear();
      r.settled = true;
      snapshot = r.snapshot();
      reporting = !closing;
      boolean owned = r.owner.isPresent();
      reporter = routing.routedReporter(chain, owned);
      listeners = routing.listeners(chain, owned);
      observers = routing.observers(chain, owned);
    }
    if (contractWarning != null) {
      warnings.warn(contractWarning, Optional.ofNullable(failure));
    }
    for (Waiter w : taken) {
      w.release();
      w.result.complete(snapshot);
    }
    r.settledSignal.complete(null);
    callbacks.changed(observers, r.owner);
    if (!reporting) {
      return;
    }
    callbacks.done(reporter, listeners, snapshot, r.owner);
  }

  // ---- waits (§2.9) ----

  private void timeOut(JobRecord r, Waiter w) {
    JobSnapshot snapshot;
    synchronized (lock) {
      if (!r.waiters.remove(w)) {
        return;
      }
      snapshot = r.snapshot();
    }
    w.release();
    w.result.complete(snapshot);
  }

  private void abortWait(JobRecord r, Waiter w) {
    synchronized (lock) {
      // only the handler that removes the waiter may fail it (race rule b)
      if (!r.waiters.remove(w)) {
        return;
      }
    }
    w.release();
    w.result.completeExceptionally(aborted());
  }

  private static JobsException aborted() {
    return new JobsException(JobsException.WAIT_ABORTED, "wait aborted");
  }

  // ---- helpers ----

  private void checkLive(Agent owner) {
    if (agents.isEmpty()) {
      throw new JobsException(
          JobsException.OWNER_REGISTRY_MISSING,
          "background job ownership requires the agent registry (the host provides none)");
    }
    Optional<Agent> current = agents.get().get(owner.id());
    if (current.isEmpty() || current.get() != owner) {
      throw new JobsException(
          JobsException.OWNER_NOT_LIVE,
          "agent \""
              + owner.id()
              + "\" is not the registered agent instance (background job owner must be live)");
    }
  }

  /** Reserves an admission slot; returns true when the owner cleanup must be attached. */
  private boolean reserve(Optional<Agent> owner) {
    synchronized (lock) {
      if (closing) {
        throw closedFailure();
      }
      admission.reserve(owner, records.values());
      if (owner.isEmpty()) {
        return false;
      }
      Agent o = owner.get();
      if (ownerCleanups.containsKey(o)) {
        return false;
      }
      ownerCleanups.put(o, Registration.noop());
      return true;
    }
  }

  private void unreserveLocked(Optional<Agent> owner) {
    admission.release(owner);
  }

  private JobRecord lookupLocked(JobId id, Optional<Agent> caller) {
    JobRecord r = records.get(id);
    if (r == null) {
      throw new JobsException(JobsException.UNKNOWN_JOB, "unknown job " + Errors.echoedId(id.value()));
    }
    if (!visible(r, caller)) {
      throw new JobsException(
          JobsException.FOREIGN_JOB, "job " + id.value() + " belongs to another session");
    }
    return r;
  }

  private static boolean visible(JobRecord r, Optional<Agent> caller) {
    return r.owner.isEmpty()
        || (caller.isPresent() && r.owner.get().id().equals(caller.get().id()));
  }

  private List<Scope> chainOf(Optional<Agent> owner) {
    return owner.isPresent() ? scopeChain.of(owner.get()) : List.of();
  }

  private void publishChange(Optional<Agent> owner) {
    List<Scope> chain = chainOf(owner);
    List<JobsChangedObserver> observers;
    synchronized (lock) {
      observers = routing.observers(chain, owner.isPresent());
    }
    callbacks.changed(observers, owner);
  }

  private static JobsException closedFailure() {
    return new JobsException(JobsException.SERVICE_CLOSED, "jobs service is closed");
  }

  private static void closeQuietly(Registration r) {
    try {
      r.close();
    } catch (RuntimeException e) {
      // a host scope already disposed may refuse; the effect is moot then
    }
  }

  private static Registration once(Runnable action) {
    AtomicBoolean done = new AtomicBoolean();
    return () -> {
      if (done.compareAndSet(false, true)) {
        action.run();
      }
    };
  }
}

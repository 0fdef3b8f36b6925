package dev.horae.micrometer;

import dev.horae.gate.AwaitReason;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.spi.Registration;
import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionStore;
import dev.horae.store.FileSessionStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Binds the figures of one {@link HoraeRuntime} to a Micrometer registry. Every meter is derived
 * from what the runtime already exposes: the session log (one event observer over every session:
 * reminders, dispatches, wakes, spent wake budgets, gate facts, turns, model calls, tokens), {@link
 * HoraeRuntime#awaiting()}, the job registry's listeners, the lease keeper's lost-lease and
 * renewal listeners, the due-sessions worker's passes and the file store's fsync hook. A {@link
 * dev.horae.gate.runtime.DurableDispatcher} of a gate-runtime embedder has its own binder, {@link
 * DispatcherMetrics}. The table of meters is in {@code docs/operations.md}.
 *
 * <pre>{@code
 * HoraeMetrics metrics = HoraeMetrics.of(horae);   // after the plugins and the JobService are set up
 * metrics.bindTo(registry);
 * horae.closeOnShutdown(metrics);
 * }</pre>
 *
 * <p><b>Counters and timers</b> count what happens in this process after {@link #bindTo}: events
 * a session held before (a resumed log, a fork's seed) are folded for the gauges but never
 * counted again, so a restart does not replay history into counters. <b>Gauges</b> read the
 * current state of the live sessions when the registry samples them.
 *
 * <p>Bind once, after installing the plugins and providing the {@link JobService} (the job
 * meters attach to the service found at bind time). Thread-safe; {@link #close()} removes every
 * listener it registered.
 */
public final class HoraeMetrics implements MeterBinder, AutoCloseable {

  /** Gauge: active reminders in the live sessions. */
  public static final String REMINDERS_PENDING = "horae.reminders.pending";
  /** Counter: reminders dispatched. */
  public static final String REMINDERS_DISPATCHED = "horae.reminders.dispatched";
  /** Timer: dispatch time minus due time of each dispatched reminder. */
  public static final String REMINDERS_LATENESS = "horae.reminders.lateness";
  /** Counter: library messages claimed by an agent, by {@code source} and {@code lane}. */
  public static final String WAKES = "horae.wakes";
  /**
   * Counter: notices an agent claimed that were injected because its consecutive-wake budget was
   * spent (they would otherwise have woken it), by {@code source}.
   */
  public static final String WAKES_BUDGET_EXHAUSTED = "horae.wakes.budget.exhausted";
  /** Counter: jobs started, by {@code kind}. */
  public static final String JOBS_STARTED = "horae.jobs.started";
  /** Counter: jobs settled, by {@code kind} and {@code status}. */
  public static final String JOBS_SETTLED = "horae.jobs.settled";
  /** Counter: gate facts committed to the log, by {@code kind}. */
  public static final String GATE_OUTCOMES = "horae.gate.outcomes";
  /** Gauge: tool calls parked on a committed ticket, by {@code reason}. */
  public static final String RUNS_AWAITING = "horae.runs.awaiting";
  /** Counter: session leases this node lost. */
  public static final String LEASES_LOST = "horae.leases.lost";
  /** Counter: renewals of the session leases this node holds, by {@code outcome} ({@code renewed}, {@code failed}). */
  public static final String LEASES_RENEWALS = "horae.leases.renewals";
  /**
   * Counter: claims a dispatcher took, by {@code dispatcher} ({@code due-sessions}: due sessions the
   * runtime's worker claimed and opened; {@code durable}: {@link DispatcherMetrics}).
   */
  public static final String DISPATCHER_CLAIMS = "horae.dispatcher.claims";
  /** Timer: store flushes, by {@code outcome} ({@link MeteredSessionStore}). */
  public static final String STORE_FLUSH = "horae.store.flush";
  /** Counter: fsyncs of the file store. */
  public static final String STORE_FSYNCS = "horae.store.fsyncs";
  /** Timer: turns from {@code turn/start} to {@code turn/end}, by {@code reason}. */
  public static final String TURNS = "horae.turns";
  /** Timer: model calls from {@code request/header} to {@code assistant/message}. */
  public static final String MODEL_CALLS = "horae.model.calls";
  /** Counter: tokens the model reported, by {@code type} ({@code input}, {@code output}). */
  public static final String MODEL_TOKENS = "horae.model.tokens";

  private final HoraeRuntime runtime;
  private final Map<String, SessionMeters> sessions = new ConcurrentHashMap<>();
  /** Where each session's counted events start: its length when it became live here. */
  private final Map<String, Long> liveFrom = new ConcurrentHashMap<>();
  private final List<Registration> registrations = new CopyOnWriteArrayList<>();
  private final Set<String> startedJobs = ConcurrentHashMap.newKeySet();
  private volatile @org.jspecify.annotations.Nullable Meters meters;

  private HoraeMetrics(HoraeRuntime runtime) {
    this.runtime = runtime;
  }

  /**
   * The meters of a runtime; nothing is registered before {@link #bindTo}.
   *
   * @param runtime the runtime
   * @return the binder
   */
  public static HoraeMetrics of(HoraeRuntime runtime) {
    return new HoraeMetrics(Objects.requireNonNull(runtime, "runtime"));
  }

  /**
   * Registers the meters and the listeners. Call once.
   *
   * @param registry the application's registry
   * @throws IllegalStateException when already bound
   */
  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    if (meters != null) {
      throw new IllegalStateException("these Horae metrics are already bound to a registry");
    }
    Meters m = new Meters(registry);
    meters = m;
    Gauge.builder(REMINDERS_PENDING, this, HoraeMetrics::pendingReminders)
        .description("Active reminders in the live sessions")
        .register(registry);
    for (AwaitReason reason : List.of(AwaitReason.TOOL_PERMISSION, AwaitReason.SCHEDULED_ACTION)) {
      Gauge.builder(RUNS_AWAITING, this, me -> me.awaiting(reason))
          .description("Tool calls parked on a committed resume ticket")
          .tag("reason", reason.wireName())
          .register(registry);
    }
    // sessions that became live here from now on: their earlier events are history
    registrations.add(runtime.sessions().onSessionCreated((header, log) -> liveFrom.put(header.id(), (long) log.size())));
    for (Session s : runtime.sessions().list()) {
      liveFrom.putIfAbsent(s.id(), s.length());
    }
    registrations.add(runtime.sessions().onEvent(this::observed));
    runtime.service(JobService.class).ifPresent(jobs -> bindJobs(jobs, m));
    runtime.leaseKeeper().ifPresent(keeper -> {
      registrations.add(keeper.onLost((lease, why) -> m.leasesLost.increment()));
      registrations.add(keeper.onRenewal((lease, renewed) -> (renewed ? m.renewed : m.renewalsFailed).increment()));
    });
    runtime.dueSessions().ifPresent(worker ->
        registrations.add(worker.onPass(pass -> m.dueClaims.increment((double) pass.opened().size()))));
    fileStore(runtime.store()).ifPresent(file -> registrations.add(file.onFsync(m.fsyncs::increment)));
  }

  private static Optional<FileSessionStore> fileStore(SessionStore store) {
    SessionStore s = store;
    while (s instanceof MeteredSessionStore metered) {
      s = metered.delegate();
    }
    return s instanceof FileSessionStore file ? Optional.of(file) : Optional.empty();
  }

  private void bindJobs(JobService jobs, Meters m) {
    registrations.add(jobs.onJobDone(Optional.empty(), JobDoneListener.sync((snapshot, owner) -> {
      started(snapshot, m);
      m.counter(JOBS_SETTLED, "kind", snapshot.kind(), "status", snapshot.status().wire()).increment();
    })));
    // a start changes the owner's job list; the ids not seen before are the new jobs
    registrations.add(jobs.onJobsChanged(Optional.empty(), owner -> {
      for (JobSnapshot s : jobs.list(owner)) {
        started(s, m);
      }
    }));
  }

  private void started(JobSnapshot snapshot, Meters m) {
    if (startedJobs.add(snapshot.id().value())) {
      m.counter(JOBS_STARTED, "kind", snapshot.kind()).increment();
    }
  }

  private double awaiting(AwaitReason reason) {
    long n = 0;
    for (AwaitingCall call : runtime.awaiting()) {
      if (call.reason() == reason) {
        n++;
      }
    }
    return n;
  }

  private double pendingReminders() {
    Meters m = meters;
    if (m == null) {
      return 0;
    }
    Set<String> live = new HashSet<>();
    long pending = 0;
    for (Session s : runtime.sessions().list()) {
      live.add(s.id());
      SessionMeters sm = state(s);
      synchronized (sm) {
        sm.catchUp(s, s.length(), m);
        pending += sm.pending();
      }
    }
    // a session that is no longer live here is no longer this runtime's to report
    sessions.keySet().retainAll(live);
    return pending;
  }

  private SessionMeters state(Session s) {
    return sessions.computeIfAbsent(s.id(), id -> new SessionMeters(s.header().seedLength(),
        liveFrom.getOrDefault(id, 0L)));
  }

  private void observed(Session session, SessionEvent event) {
    Meters m = meters;
    if (m == null) {
      return;
    }
    SessionMeters sm = state(session);
    synchronized (sm) {
      sm.catchUp(session, event.seq(), m);
      sm.take(event, m);
    }
  }

  /** Removes every listener this binder registered; the meters stay in the registry. */
  @Override
  public void close() {
    List<Registration> all = new ArrayList<>(registrations);
    registrations.clear();
    for (Registration r : all) {
      r.close();
    }
  }

  /** The registry and the meters made once. */
  static final class Meters {
    final MeterRegistry registry;
    final Counter dispatched;
    final Timer lateness;
    final Counter leasesLost;
    final Counter renewed;
    final Counter renewalsFailed;
    final Counter dueClaims;
    final Counter fsyncs;
    final Timer modelCalls;
    final Counter inputTokens;
    final Counter outputTokens;
    private final Map<List<String>, Counter> counters = new HashMap<>();
    private final Map<String, Timer> turns = new HashMap<>();

    Meters(MeterRegistry registry) {
      this.registry = registry;
      dispatched = Counter.builder(REMINDERS_DISPATCHED).description("Reminders dispatched").register(registry);
      lateness = Timer.builder(REMINDERS_LATENESS)
          .description("How late each reminder was dispatched: dispatch time minus due time")
          .publishPercentileHistogram()
          .register(registry);
      leasesLost = Counter.builder(LEASES_LOST).description("Session leases this node lost").register(registry);
      renewed = Counter.builder(LEASES_RENEWALS).tag("outcome", "renewed")
          .description("Renewals of the session leases this node holds").register(registry);
      renewalsFailed = Counter.builder(LEASES_RENEWALS).tag("outcome", "failed")
          .description("Renewals of the session leases this node holds").register(registry);
      dueClaims = Counter.builder(DISPATCHER_CLAIMS).tag("dispatcher", "due-sessions")
          .description("Claims a dispatcher took").register(registry);
      fsyncs = Counter.builder(STORE_FSYNCS).description("Fsyncs of the file session store").register(registry);
      modelCalls = Timer.builder(MODEL_CALLS).description("Model calls, request to answer")
          .publishPercentileHistogram().register(registry);
      inputTokens = Counter.builder(MODEL_TOKENS).tag("type", "input").description("Tokens the model reported")
          .register(registry);
      outputTokens = Counter.builder(MODEL_TOKENS).tag("type", "output").description("Tokens the model reported")
          .register(registry);
      // the flush timers exist from the start, so a dashboard shows zero rather than nothing
      MeteredSessionStore.flushTimer(registry, "success");
      MeteredSessionStore.flushTimer(registry, "failure");
    }

    synchronized Counter counter(String name, String... tags) {
      List<String> key = new ArrayList<>();
      key.add(name);
      key.addAll(List.of(tags));
      return counters.computeIfAbsent(key, k -> Counter.builder(name).tags(tags).register(registry));
    }

    synchronized Timer turn(String reason) {
      return turns.computeIfAbsent(reason, r -> Timer.builder(TURNS).description("Turns, start to end")
          .tag("reason", r).publishPercentileHistogram().register(registry));
    }
  }
}

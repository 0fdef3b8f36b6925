package dev.horae.runtime;

import dev.horae.runtime.agent.IdleHistory;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.agent.RuntimeAgents;
import dev.horae.runtime.agent.TurnOutcome;
import dev.horae.spi.Registration;
import dev.horae.runtime.invariant.LogInvariantService;
import dev.horae.runtime.tool.RuntimeToolRegistry;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.PromptAdmission;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.Installation;
import dev.horae.spi.plugin.Plugin;
import dev.horae.spi.plugin.ScopeHandle;
import dev.horae.spi.plugin.OnceSettings;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.time.IdSource;
import dev.horae.spi.time.SystemTime;
import dev.horae.spi.time.Timers;
import dev.horae.store.DueIndex;
import dev.horae.store.DueIndexed;
import dev.horae.store.DueIndexer;
import dev.horae.store.FileSessionStore;
import dev.horae.store.SyncMode;
import dev.horae.store.SessionLeaseKeeper;
import dev.horae.store.SessionLeases;
import dev.horae.store.LogSessions;
import dev.horae.store.MemorySessionStore;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import dev.horae.gate.PermissionDecision;
import dev.horae.gate.ResolvedExecutionEnv;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.runtime.DispatchQueue;
import dev.horae.gate.runtime.DispatchTarget;
import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.gate.runtime.SessionCommitStore;
import dev.horae.gate.runtime.ScheduledActionDueIndex;
import dev.horae.runtime.gate.AwaitingCall;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production Horae host: sessions over a {@link SessionStore} (the crash-safe file store by
 * default), agents driven by the turn engine on the runtime's own threads, the tool registry, the
 * tool-gate chain, the invariant service, the system clock and timers. Install the plugins once,
 * before agents are opened; then open agents and prompt them. Close it to stop the threads and
 * release the store.
 *
 * <pre>{@code
 * try (HoraeRuntime horae = HoraeRuntime.builder().dataDir(Path.of("horae-data")).model(model).build()) {
 *   horae.install(TimeContextPlugin.create());
 *   RuntimeAgent agent = horae.openAgent("my-session", "Europe/Amsterdam");
 *   horae.prompt(agent, "Remind me in 10 minutes to check the deploy.");
 * }
 * }</pre>
 *
 * <p>Each agent's log is flushed to the store whenever the agent becomes idle, so a completed turn
 * is durable before the next one starts; plugins flush at their own barriers as the spec requires.
 */
public final class HoraeRuntime implements Host, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HoraeRuntime.class);

  /** How long {@link #close()} waits for the agents' disposal effects before flushing anyway. */
  private static final java.time.Duration DISPOSAL_BOUND = java.time.Duration.ofSeconds(10);

  private final SessionStore store;
  private final @Nullable AutoCloseable ownedStore;
  private final InstantSource clock;
  private final Timers timers;
  private final @Nullable AutoCloseable ownedTimers;
  private final Supplier<ZoneId> processZone;
  private final IdSource ids;
  private final WarningSink warnings;
  private final ExecutorService drivers;
  private final @Nullable ModelPort defaultModel;
  private final LogSessions sessions;
  private final HostServices core;
  private final List<AutoCloseable> closing = new ArrayList<>();
  private final @Nullable SessionLeaseKeeper keeper;
  private final @Nullable DueSessions dueSessions;
  private final @Nullable DispatchQueue dispatchQueue;
  private final @Nullable RuntimeDispatchTarget dispatchTarget;

  private HoraeRuntime(Builder b) {
    if (b.leases != null) {
      if (b.store != null || b.dataDir != null) {
        throw new IllegalStateException("leases carry their own store; give leases or a store or a data folder, not both");
      }
      this.store = b.leases.store();
      this.ownedStore = null;
    } else if (b.store != null) {
      this.store = b.store;
      this.ownedStore = null;
    } else {
      // a runtime that serves due sessions from its own store always indexes scheduled actions, so
      // an action a stopped node committed cannot be forgotten (docs/persistence.md, "The due index")
      DueIndexer indexer = b.dueIndexer != null ? dueIndexer(b.dueIndexer) : b.dueSettings != null ? dueIndexer() : null;
      if (b.dataDir != null) {
        FileSessionStore file = indexer != null
            ? FileSessionStore.open(b.dataDir, SyncMode.ALWAYS, indexer)
            : FileSessionStore.open(b.dataDir);
        this.store = file;
        this.ownedStore = file;
      } else {
        this.store = indexer != null ? new MemorySessionStore(indexer) : new MemorySessionStore();
        this.ownedStore = null;
      }
    }
    if (b.dueIndexer != null && (b.store != null || b.leases != null)) {
      throw new IllegalStateException(
          "dueIndexer indexes the store the runtime opens itself; open the given store with "
              + "HoraeRuntime.dueIndexer(indexer) instead");
    }
    if (b.timers != null) {
      this.timers = b.timers;
      this.ownedTimers = null;
      this.clock = Objects.requireNonNull(b.clock, "a runtime given its own timers needs its own clock too");
    } else {
      SystemTime system = new SystemTime();
      this.timers = system;
      this.ownedTimers = system;
      this.clock = b.clock != null ? b.clock : SystemTime.wallClock();
    }
    this.processZone = b.processZone != null ? b.processZone : ZoneId::systemDefault;
    this.ids = b.ids != null ? b.ids : IdSource.random();
    this.warnings = b.warnings != null ? b.warnings : (message, cause) -> LOG.warn(message, cause.orElse(null));
    this.defaultModel = b.model;
    this.drivers = Executors.newCachedThreadPool(daemonThreads());
    if (b.leases != null) {
      SessionLeaseKeeper keeper = SessionLeaseKeeper.of(b.leases, timers, drivers, warnings);
      this.keeper = keeper;
      this.sessions = LogSessions.leased(keeper, clock, warnings);
    } else {
      this.keeper = null;
      this.sessions = LogSessions.over(store, clock, warnings);
    }
    IdleHistory idle = IdleHistory.after(b.idleHistoryRetention != null ? b.idleHistoryRetention : IdleHistory.DEFAULT_RETENTION, timers);
    if (b.dispatchQueue != null) {
      DispatchQueue queue = Objects.requireNonNull(b.dispatchQueue.over(sessions::get, sessions::flush), "dispatch queue");
      if (!(queue.store() instanceof SessionCommitStore commits)) {
        throw new IllegalStateException("the dispatch queue must commit to the session logs (a SessionDispatchQueue or a "
            + "JdbcDispatchQueue over the sessions it is given), not to " + queue.store().getClass().getSimpleName());
      }
      // the engine commits through the queue's store, so a parked scheduled action lands with its
      // dispatch record and a dispatched attempt's commits are fenced by its claim (gate §12.5.1, §12.5.3)
      this.core = HostServices.assemble(sessions, drivers, warnings, RuntimeAgents.defaultFactory(), true, clock, false, idle,
          b.limits(), b.environment, commits);
      // a reopened session's dispatch facts are in its log too: folded before its agent reads it
      core.trackReopenedWith(queue::track);
      this.dispatchQueue = queue;
      this.dispatchTarget = new RuntimeDispatchTarget(core.agents(), commits, this::openThread);
    } else {
      this.core = HostServices.assemble(sessions, drivers, warnings, RuntimeAgents.defaultFactory(), true, clock, b.dispatch, idle,
          b.limits(), b.environment);
      this.dispatchQueue = null;
      this.dispatchTarget = null;
    }
    // a leased runtime's direct persists are fenced too
    core.provide(SessionStore.class, keeper != null ? keeper : store);
    if (keeper != null) {
      // registered after LogSessions.leased's own listener: the session is detached when this runs
      var unusedLost = keeper.onLost((lease, why) -> closeAgentsOf(lease.sessionId()));
    }
    if (b.dueSettings != null) {
      DueIndex index = (store instanceof DueIndexed indexed ? indexed.dueIndex() : Optional.<DueIndex>empty())
          .orElseThrow(() -> new IllegalStateException("dueSessions needs a store with a due index: open the given store "
              + "with HoraeRuntime.dueIndexer(...) as its indexer"));
      this.dueSessions = new DueSessions(this, index, b.dueSettings, timers, clock, drivers, warnings, keeper);
    } else {
      this.dueSessions = null;
    }
    var unused = core.agents().onStatus((agent, status) -> {
      if (status == AgentStatus.IDLE) {
        Session session = agent.session();
        var ignored = sessions.flush(session).exceptionally(e -> {
          // a session closed meanwhile (closeSession, close) had its own last flush after the agent
          // stopped, which reports its own failure; this one only raced the store's release
          if (sessions.get(session.id()).map(live -> live == session).orElse(false)) {
            warnings.warn("flush of " + agent.id() + " failed; its last turn may not be durable", Optional.of(e));
          }
          return false;
        });
      }
    });
  }

  /**
   * A runtime whose sessions live in the file store under {@code dataDir}, on the system clock.
   *
   * @param dataDir the data folder (created if missing)
   * @return the runtime
   */
  public static HoraeRuntime embedded(Path dataDir) {
    return builder().dataDir(dataDir).build();
  }

  /**
   * The due indexer for a store a runtime serves due sessions from, when the application indexes
   * nothing of its own: the gate's committed scheduled actions ({@link ScheduledActionDueIndex}),
   * so a session whose node stopped between committing an action and performing it is opened and
   * the action performed. Give it to a store the application opens: {@code new
   * MemorySessionStore(HoraeRuntime.dueIndexer())}.
   *
   * @return the indexer
   */
  public static DueIndexer dueIndexer() {
    return ScheduledActionDueIndex::track;
  }

  /**
   * The due indexer for a store a runtime serves due sessions from: the application's indexer (for
   * reminders, {@code ScheduleDueIndex::track}) composed with the gate's committed scheduled actions
   * ({@link ScheduledActionDueIndex}); a session is due at the earlier of the two. {@link
   * Builder#dueIndexer} applies it to the store the runtime opens itself; give it to a store the
   * application opens: {@code JdbcSessionStore.create(dataSource, "horae_",
   * HoraeRuntime.dueIndexer(ScheduleDueIndex::track))}.
   *
   * @param application the application's indexer
   * @return the composed indexer
   */
  public static DueIndexer dueIndexer(DueIndexer application) {
    return DueIndexer.earliestOf(Objects.requireNonNull(application, "application"), ScheduledActionDueIndex::track);
  }

  /**
   * Starts a builder. Every setting is optional and may be given once.
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  // ---- what an application does ------------------------------------------------------------

  /**
   * Installs a plugin on this host. Install every plugin before opening agents.
   *
   * @param plugin the plugin
   * @return its installation
   */
  public Installation install(Plugin plugin) {
    return plugin.install(this);
  }

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
   * Closes {@code resource} when this runtime closes, after its agents stopped and before the
   * store is released (a job registry, for instance).
   *
   * @param resource the resource
   */
  public synchronized void closeOnShutdown(AutoCloseable resource) {
    closing.add(Objects.requireNonNull(resource, "resource"));
  }

  /**
   * Opens the root agent of a session without a session zone; see {@link #openAgent(String,
   * Optional)}.
   *
   * @param sessionId the session id
   * @return the agent
   */
  public RuntimeAgent openAgent(String sessionId) {
    return openAgent(sessionId, Optional.empty());
  }

  /**
   * Opens the root agent of a session with a session zone for a new session; see {@link
   * #openAgent(String, Optional)}.
   *
   * @param sessionId the session id
   * @param zone the IANA zone of a new session
   * @return the agent
   */
  public RuntimeAgent openAgent(String sessionId, String zone) {
    return openAgent(sessionId, Optional.of(zone));
  }

  /**
   * Opens the root agent of a session: the live agent if one is open, else the stored session
   * resumed (a turn a crash left open is closed {@code interrupted}), else a new session with that
   * id. The agent answers with the runtime's model, if one was set.
   *
   * @param sessionId the session id
   * @param zone the zone of a new session (ignored for a stored one, whose header keeps its own)
   * @return the agent
   * @throws dev.horae.spi.message.PromptRejectedException {@code invalid-time-zone} for a bad zone
   */
  public synchronized RuntimeAgent openAgent(String sessionId, Optional<String> zone) {
    Optional<dev.horae.spi.agent.Agent> live = core.agents().get(sessionId);
    if (live.isPresent()) {
      return (RuntimeAgent) live.get();
    }
    Session session = sessions.get(sessionId).orElseGet(() -> store.contains(sessionId)
        // the agent's creation reopens the log: a parked turn stays parked, a cut one is closed
        ? sessions.resume(sessionId)
        : sessions.create(new CreateOptions(Optional.of(sessionId), Optional.empty(), zone)));
    return core.agents().create(session, Optional.empty(), core.agentScope(session.id()), Optional.ofNullable(defaultModel));
  }

  /** Opens the agent of a stored session not open here, so its committed Runs are readable. */
  private CompletionStage<Void> openThread(String sessionId) {
    try {
      if (core.agents().get(sessionId).isEmpty() && (sessions.get(sessionId).isPresent() || store.contains(sessionId))) {
        openAgent(sessionId);
      }
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      // another node's lease, a store failure: the claim is left for its lease to lapse
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * The dispatch queue the runtime commits through, when built with {@link
   * Builder#dispatchQueue}.
   *
   * @return the queue
   */
  public Optional<DispatchQueue> dispatchQueue() {
    return Optional.ofNullable(dispatchQueue);
  }

  /** The engine a durable dispatcher drives, for tests that hand it a context of their own. */
  Optional<DispatchTarget> dispatchTarget() {
    return Optional.ofNullable(dispatchTarget);
  }

  /**
   * A builder of the durable dispatcher (gate specification §12.5) that performs this runtime's
   * scheduled actions: over {@link #dispatchQueue()}, driving claimed Runs through the runtime's
   * own perform, resume and end paths with every commit fenced by the claim, on the runtime's
   * clock, timers and driver threads. Set its options, wake signal (a {@code PgWakeSignal} for
   * several nodes) and owner, build it, {@code start()} it, and close it before the runtime.
   *
   * @return the builder
   * @throws IllegalStateException when the runtime was built without {@link Builder#dispatchQueue}
   */
  public DurableDispatcher.Builder durableDispatcher() {
    if (dispatchQueue == null || dispatchTarget == null) {
      throw new IllegalStateException("a durable dispatcher needs the runtime built with a dispatch queue (Builder.dispatchQueue)");
    }
    return DurableDispatcher.builder(dispatchTarget, dispatchQueue).clock(clock).timers(timers).executor(drivers);
  }

  /**
   * Closes a session in this runtime: disposes its agents (awaiting their disposal, at most ten
   * seconds), flushes its log, takes it out of the sessions service (releasing its lease) and lets
   * the file store close its files, so it holds nothing of the session until it is opened again. The
   * due-sessions worker closes idle sessions this way; an application may too.
   *
   * @param sessionId the session
   * @return whether the session was live here
   */
  public synchronized boolean closeSession(String sessionId) {
    List<CompletableFuture<Void>> disposals = new ArrayList<>();
    for (RuntimeAgent agent : core.agents().all()) {
      if (agent.session().id().equals(sessionId)) {
        disposals.add(core.agents().dispose(agent).toCompletableFuture());
      }
    }
    try {
      CompletableFuture.allOf(disposals.toArray(CompletableFuture[]::new)).get(DISPOSAL_BOUND.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      warnings.warn("disposing the agents of " + sessionId + " did not finish cleanly before its last flush", Optional.of(e));
    }
    Optional<Session> session = sessions.get(sessionId);
    if (session.isEmpty()) {
      return false;
    }
    try {
      var unused = sessions.flush(session.get()).toCompletableFuture().join();
    } catch (RuntimeException e) {
      warnings.warn("last flush of " + sessionId + " failed; its tail may not be durable", Optional.of(e));
    }
    sessions.detach(session.get());
    if (store instanceof FileSessionStore file && keeper == null) {
      // without leases nothing else releases the folder's lock and files
      var unused = file.release(sessionId);
    }
    return true;
  }

  /**
   * Starts the due-sessions worker configured with {@link Builder#dueSessions}: it first recomputes
   * stale index entries from the logs, then passes over the index every poll interval, opening due
   * sessions and closing idle ones. Call it once the plugins are installed, because the agents it
   * opens get the plugins installed at that moment. Calling it again does nothing.
   *
   * @return the worker
   * @throws IllegalStateException when the runtime was built without {@link Builder#dueSessions}
   */
  public DueSessions startDueSessions() {
    DueSessions d = dueSessions;
    if (d == null) {
      throw new IllegalStateException("this runtime was built without dueSessions");
    }
    d.start();
    return d;
  }

  /**
   * The due-sessions worker, when the runtime was built with {@link Builder#dueSessions}.
   *
   * @return the worker, or empty
   */
  public Optional<DueSessions> dueSessions() {
    return Optional.ofNullable(dueSessions);
  }

  /**
   * Submits a user prompt.
   *
   * @param agent the agent
   * @param text the prompt
   * @return the queued message
   */
  public UserMessage prompt(RuntimeAgent agent, String text) {
    UserMessage m = messages().text(text, MessageSource.user());
    agent.prompt(m);
    return m;
  }

  /**
   * Submits a prompt over RPC with the client's zone, admitted as host contract §7.3 says.
   *
   * @param agent the agent
   * @param text the prompt
   * @param clientZone the zone the client reported
   * @return the queued message (with the canonical zone)
   * @throws dev.horae.spi.message.PromptRejectedException {@code invalid-time-zone}; nothing is
   *     queued
   */
  public UserMessage prompt(RuntimeAgent agent, String text, String clientZone) {
    UserMessage m = messages().text(text,
        MessageSource.rpc("rpc-" + ids.next(), Optional.of(PromptAdmission.admitClientZone(clientZone))));
    agent.prompt(m);
    return m;
  }

  /**
   * Listens for tool calls that start waiting for an answer: each call a gate parked (its ticket
   * durable, so an answer can already be given) and each parked call found again when a stored
   * session's agent is opened. Answer with {@link #approve}, {@link #deny} or {@link #resume}.
   *
   * @param listener receives the call, on the thread that parked it (do not block it)
   * @return a handle that removes it
   */
  public Registration onAwaiting(Consumer<AwaitingCall> listener) {
    Objects.requireNonNull(listener, "listener");
    return core.agents().onAwaiting(listener);
  }

  /**
   * Listens for unprompted replies: a turn that a reminder or a job notice opened on an idle agent
   * ended {@code completed} with assistant text. Nobody asked for that turn, so the reply reaches a
   * user only through this listener (push it to the chat, send a notification).
   *
   * @param listener receives the outcome, on the driver's thread
   * @return a handle that removes it
   */
  public Registration onUnpromptedReply(Consumer<TurnOutcome> listener) {
    Objects.requireNonNull(listener, "listener");
    return core.agents().onTurnEnd(outcome -> {
      if (outcome.unprompted() && outcome.reason().equals("completed") && !outcome.finalText().isEmpty()) {
        listener.accept(outcome);
      }
    });
  }

  /**
   * The session store.
   *
   * @return the store
   */
  public SessionStore store() {
    return store;
  }

  /**
   * The keeper of this node's session leases, when the runtime was built with {@link
   * Builder#leases}: register {@link SessionLeaseKeeper#onLost} on it to learn, once per lease,
   * that this node no longer owns a session (metrics, alerts), or ask {@link
   * SessionLeaseKeeper#owns} before an external effect. The runtime closes it.
   *
   * @return the keeper, or empty for a runtime without leases
   */
  public Optional<SessionLeaseKeeper> leaseKeeper() {
    return Optional.ofNullable(keeper);
  }

  /**
   * The tool-gate chain: register gates here.
   *
   * @return the gates
   */
  public ToolGates gates() {
    return core.gates();
  }

  /**
   * Every tool call an open agent's turn is parked on, waiting for a person ({@code
   * toolPermission}), the dispatcher ({@code scheduledAction}) or the client that executes the tool
   * ({@code externalEvent}, gate specification §8.4).
   *
   * @return the parked calls
   */
  public List<AwaitingCall> awaiting() {
    return core.agents().awaiting();
  }

  /**
   * Answers a parked call with the full gate resume command (gate specification §6.1): identity,
   * result and the caller's clock reading. A rejection ({@code notAwaiting}, an identity mismatch,
   * {@code expired}, {@code fingerprintMismatch}, …) is a value: nothing is committed and no tool
   * runs. The command's context messages (gate specification §6.4 step 3) are user messages in
   * the {@code user/message} payload shape ({@code UserMessage.toJson()}); they land with the
   * answer's first commit and the model reads them at the turn's next step. One committed before
   * with the same payload is dropped, one with the same id and another payload is {@code
   * contextConflict}, one that is not a user message is {@code invalidContext}.
   *
   * @param command the answer
   * @return a stage with the outcome, completed when the continued turn parked again or ended
   */
  public CompletionStage<ResumeOutcome> resume(ResumeCommand command) {
    Objects.requireNonNull(command, "command");
    return core.agents().resume(command);
  }

  /**
   * Approves a parked call: the exact committed call runs (once), and the turn goes on.
   *
   * @param runId the parked Run ({@link AwaitingCall#runId()})
   * @return a stage with the outcome
   */
  public CompletionStage<ResumeOutcome> approve(String runId) {
    return answer(runId, ResumeResult.allow());
  }

  /**
   * Denies a parked call: the model receives {@code Error: blocked: <reason>} for it, the tool
   * never runs, and the turn goes on.
   *
   * @param runId the parked Run
   * @param reason why, shown to the model
   * @return a stage with the outcome
   */
  public CompletionStage<ResumeOutcome> deny(String runId, String reason) {
    Objects.requireNonNull(reason, "reason");
    return answer(runId, new ResumeResult.Permission(new PermissionDecision.Deny(Optional.of(reason))));
  }

  /**
   * Performs every committed scheduled action of the open agents now (gate specification §9.2),
   * one after another; each is consumed before its tool runs, so a second call performs nothing
   * again.
   *
   * @return a stage with one outcome per action found; when a perform failed (a commit of its
   *     Run could not be made durable: persistence uncertain, {@link
   *     dev.horae.gate.runtime.CommitStoreException}) the stage fails with that failure, after every
   *     other action was performed
   */
  public CompletionStage<List<ResumeOutcome>> performScheduledActions() {
    return core.agents().performScheduledActions();
  }

  /**
   * Cancels a parked turn's Run (gate specification §9.5): it ends {@code cancelled}, its ticket is
   * gone, the waiting call reads {@code Error: aborted} and the turn ends {@code aborted}; a later
   * answer or perform is {@code notAwaiting}. A Run that has already ended stays as it is and its
   * terminal state is the answer. A Run this runtime is driving right now (an answer or a perform
   * running its call) ends {@code cancelled} at once; its turn stops at its next boundary and the
   * answer or perform that drove it answers that end.
   *
   * @param runId the Run ({@link AwaitingCall#runId()})
   * @return a stage with the Run's terminal state, or a rejection ({@code notAwaiting}, {@code agentNotOpen})
   */
  public CompletionStage<ResumeOutcome> cancel(String runId) {
    Objects.requireNonNull(runId, "runId");
    return core.agents().cancel(runId);
  }

  /**
   * Stops a parked turn's Run for a policy of yours (a budget, a ceiling): as {@link #cancel}, but
   * it ends {@code stopped(reason)}, the waiting call reads {@code Error: stopped: <reason>} and the
   * turn ends {@code blocked}.
   *
   * @param runId the Run
   * @param reason why, recorded in the Run's terminal fact
   * @return a stage with the Run's terminal state, or a rejection
   */
  public CompletionStage<ResumeOutcome> stop(String runId, String reason) {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(reason, "reason");
    return core.agents().stop(runId, reason);
  }

  private CompletionStage<ResumeOutcome> answer(String runId, ResumeResult result) {
    Objects.requireNonNull(runId, "runId");
    return core.agents().answer(runId, result);
  }

  /**
   * Disposes every agent (awaiting its scope effects, at most ten seconds), flushes every session, stops the runtime's threads and timers, closes
   * the resources registered with {@link #closeOnShutdown} and releases the store it opened.
   */
  @Override
  public void close() {
    if (dueSessions != null) {
      // no pass may open a session while the agents are being disposed
      dueSessions.close();
    }
    List<CompletableFuture<Void>> disposals = new ArrayList<>();
    for (RuntimeAgent agent : core.agents().all()) {
      disposals.add(core.agents().dispose(agent).toCompletableFuture());
    }
    try {
      // scope effects (a plugin's last appends) land before the final flush; a stuck one is bounded
      CompletableFuture.allOf(disposals.toArray(CompletableFuture[]::new)).get(DISPOSAL_BOUND.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      warnings.warn("agent disposal did not finish cleanly before the final flush", Optional.of(e));
    }
    for (Session s : sessions.list()) {
      try {
        var unused = sessions.flush(s).toCompletableFuture().join();
      } catch (RuntimeException e) {
        warnings.warn("final flush of " + s.id() + " failed; its tail may not be durable", Optional.of(e));
      }
    }
    drivers.shutdownNow();
    List<AutoCloseable> resources;
    synchronized (this) {
      resources = new ArrayList<>(closing);
    }
    for (int i = resources.size() - 1; i >= 0; i--) {
      closeQuietly(resources.get(i));
    }
    if (ownedTimers != null) {
      closeQuietly(ownedTimers);
    }
    sessions.detachAll();
    if (keeper != null) {
      keeper.close();
    }
    if (ownedStore != null) {
      closeQuietly(ownedStore);
    }
  }

  /** A lost lease: this node may no longer write the session, so its agents there are closed. */
  private void closeAgentsOf(String sessionId) {
    for (RuntimeAgent agent : core.agents().all()) {
      if (agent.session().id().equals(sessionId) && sessions.get(sessionId).map(s -> s != agent.session()).orElse(true)) {
        var unused = core.agents().dispose(agent);
        warnings.warn("the lease of session " + sessionId + " was lost; closing agent " + agent.id(), Optional.empty());
      }
    }
  }

  private void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      warnings.warn("closing " + c + " failed", Optional.of(e));
    }
  }

  // ---- Host ----------------------------------------------------------------------------------

  @Override
  public LogSessions sessions() {
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
    return clock;
  }

  @Override
  public Timers timers() {
    return timers;
  }

  @Override
  public Supplier<ZoneId> processZone() {
    return processZone;
  }

  @Override
  public IdSource ids() {
    return ids;
  }

  @Override
  public WarningSink warnings() {
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

  private static ThreadFactory daemonThreads() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "horae-driver-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** Makes the dispatch queue of a runtime over its live sessions ({@link Builder#dispatchQueue}). */
  @FunctionalInterface
  public interface DispatchQueueFactory {
    /**
     * Makes the queue; its commit store must be a session commit store over {@code sessions}
     * flushing with {@code flush}, so commits stay in the session logs and are durable first.
     *
     * @param sessions session id to the live session
     * @param flush the durability checkpoint of a session
     * @return the queue
     */
    DispatchQueue over(Function<String, Optional<Session>> sessions, Function<Session, CompletionStage<Boolean>> flush);
  }

  /** Configures a {@link HoraeRuntime}; each setting may be given once. */
  public static final class Builder {
    private @Nullable SessionStore store;
    private @Nullable Path dataDir;
    private @Nullable InstantSource clock;
    private @Nullable Timers timers;
    private @Nullable Supplier<ZoneId> processZone;
    private @Nullable IdSource ids;
    private @Nullable WarningSink warnings;
    private @Nullable ModelPort model;
    /** One refusal for a setting given twice (the plugins' configuration builders use the same). */
    private final OnceSettings settings = new OnceSettings("runtime");
    private @Nullable SessionLeases leases;
    private boolean dispatch = true;
    private boolean dispatchExplicit;
    private @Nullable DispatchQueueFactory dispatchQueue;
    private @Nullable DueIndexer dueIndexer;
    private DueSessions.@Nullable Settings dueSettings;
    private @Nullable Duration idleHistoryRetention;
    private dev.horae.runtime.agent.TurnLimits limits = dev.horae.runtime.agent.TurnLimits.NONE;
    private ResolvedExecutionEnv environment = ResolvedExecutionEnv.empty();

    private Builder() {}

    /**
     * A store the application opened (a JDBC store, for instance); the application closes it.
     * Not together with {@link #dataDir}.
     *
     * @param v the store
     * @return this builder
     */
    public Builder store(SessionStore v) {
      settings.mark("store");
      if (dataDir != null) {
        throw new IllegalStateException("a runtime has either a store or a data folder, not both");
      }
      store = Objects.requireNonNull(v, "store");
      return this;
    }

    /**
     * The folder of the file store the runtime opens and closes (the embedded default). Without
     * this or {@link #store}, sessions live in memory only.
     *
     * @param v the folder
     * @return this builder
     */
    public Builder dataDir(Path v) {
      settings.mark("dataDir");
      if (store != null) {
        throw new IllegalStateException("a runtime has either a store or a data folder, not both");
      }
      dataDir = Objects.requireNonNull(v, "dataDir");
      return this;
    }

    /**
     * The wall clock (default: the system clock).
     *
     * @param v the clock
     * @return this builder
     */
    public Builder clock(InstantSource v) {
      settings.mark("clock");
      clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    /**
     * The monotonic timers (default: the system's); set the clock with them.
     *
     * @param v the timers
     * @return this builder
     */
    public Builder timers(Timers v) {
      settings.mark("timers");
      timers = Objects.requireNonNull(v, "timers");
      return this;
    }

    /**
     * The process zone (default: the JVM's default zone).
     *
     * @param v the supplier
     * @return this builder
     */
    public Builder processZone(Supplier<ZoneId> v) {
      settings.mark("processZone");
      processZone = Objects.requireNonNull(v, "processZone");
      return this;
    }

    /**
     * The message id source (default: random ids).
     *
     * @param v the ids
     * @return this builder
     */
    public Builder ids(IdSource v) {
      settings.mark("ids");
      ids = Objects.requireNonNull(v, "ids");
      return this;
    }

    /**
     * Where contained failures go (default: the SLF4J logger {@code dev.horae.runtime.HoraeRuntime}).
     *
     * @param v the sink
     * @return this builder
     */
    public Builder warnings(WarningSink v) {
      settings.mark("warnings");
      warnings = Objects.requireNonNull(v, "warnings");
      return this;
    }

    /**
     * The model every opened agent answers with (an agent may get its own with {@code useModel}).
     *
     * @param v the model
     * @return this builder
     */
    public Builder model(ModelPort v) {
      settings.mark("model");
      model = Objects.requireNonNull(v, "model");
      return this;
    }

    /**
     * Opens every session under a lease of this node (docs/persistence.md, "Session leases"): a
     * session is writable on one node at a time, every flush is fenced by the lease's epoch, the
     * leases renew at a third of their duration, and an agent whose session's lease is lost is
     * closed. Opening a session another node holds fails with {@code lease-held}. The leases carry
     * their store, so give neither {@link #store} nor {@link #dataDir} with them.
     *
     * @param v the node's leases, e.g. {@code JdbcSessionStore.leases(owner, duration, clock)}
     * @return this builder
     */
    public Builder leases(SessionLeases v) {
      settings.mark("leases");
      leases = Objects.requireNonNull(v, "leases");
      return this;
    }

    /**
     * Whether this runtime performs committed scheduled actions itself (default true): as soon as a
     * {@code schedule} gate outcome is committed, and when a reopened agent finds one a stopped
     * process left. False leaves them committed until {@link HoraeRuntime#performScheduledActions()}
     * is called — for a deployment where another worker performs them, or to stop between commit
     * and perform on purpose (the demo's restart story).
     *
     * @param v true to dispatch
     * @return this builder
     */
    public Builder dispatchScheduledActions(boolean v) {
      settings.mark("dispatchScheduledActions");
      dispatch = v;
      dispatchExplicit = true;
      return this;
    }

    /**
     * Commits gate facts through a durable dispatch queue (gate specification §12.5) and leaves
     * the scheduled actions to the durable dispatcher of {@link HoraeRuntime#durableDispatcher()}
     * instead of performing them in process: a parked scheduled action lands in the session log
     * with its dispatch record, in one atomic step, and any node whose dispatcher claims the record
     * opens the session and performs it, once. The factory gets the runtime's live sessions and
     * their flush, e.g. {@code SessionDispatchQueue::over} for one process, or {@code (sessions,
     * flush) -> JdbcDispatchQueue.over(dataSource, "gate_", clock, sessions, flush)} for several
     * nodes on PostgreSQL. Not with {@code dispatchScheduledActions(true)}.
     *
     * @param v makes the queue over the runtime's sessions
     * @return this builder
     */
    public Builder dispatchQueue(DispatchQueueFactory v) {
      settings.mark("dispatchQueue");
      dispatchQueue = Objects.requireNonNull(v, "dispatchQueue");
      return this;
    }

    /**
     * The application's indexer of the durable due index the runtime's own store keeps (the file
     * store of {@link #dataDir}, or the in-memory store): for reminders, {@code
     * ScheduleDueIndex::track} of {@code schedule-tools}. The store is opened with {@link
     * HoraeRuntime#dueIndexer(DueIndexer)}, this indexer composed with the gate's committed
     * scheduled actions; with {@link #dueSessions} and no indexer it indexes the scheduled actions
     * alone. A store the application opens ({@link #store}, {@link #leases}) is given {@code
     * HoraeRuntime.dueIndexer(…)} when it is opened instead ({@code docs/persistence.md}, "The due
     * index").
     *
     * @param v the indexer
     * @return this builder
     */
    public Builder dueIndexer(DueIndexer v) {
      settings.mark("dueIndexer");
      dueIndexer = Objects.requireNonNull(v, "dueIndexer");
      return this;
    }

    /**
     * Enables the due-sessions worker ({@link DueSessions}), started by {@link
     * HoraeRuntime#startDueSessions()}: it opens sessions whose due time has come and closes them
     * again when idle, at most {@link DueSessions.Settings#maxOpen()} open at once. The store must
     * keep a due index: the runtime's own store does (it indexes scheduled actions even without
     * {@link #dueIndexer}); open a given store with {@link HoraeRuntime#dueIndexer(DueIndexer)} or
     * {@link HoraeRuntime#dueIndexer()}, or actions committed by a node that stopped before
     * performing them are never found.
     *
     * @param v the settings, e.g. {@code DueSessions.Settings.DEFAULTS.withMaxOpen(32)}
     * @return this builder
     */
    public Builder dueSessions(DueSessions.Settings v) {
      settings.mark("dueSessions");
      dueSettings = Objects.requireNonNull(v, "dueSessions");
      return this;
    }

    /**
     * How long an idle agent keeps the model-visible history it projected from its log (default
     * one minute, {@link IdleHistory#DEFAULT_RETENTION}). Turns that follow each other within it
     * extend the projection by their new events only; an agent idle for longer releases it, so an
     * idle agent's memory does not grow with its turns, and its next turn reads the log's
     * model-visible events once again. {@link Duration#ZERO} releases it at every idle.
     *
     * @param v the retention, zero or more
     * @return this builder
     * @throws IllegalArgumentException when {@code v} is negative
     */
    public Builder idleHistoryRetention(Duration v) {
      settings.mark("idleHistoryRetention");
      idleHistoryRetention = IdleHistory.checked(v);
      return this;
    }

    /**
     * How long a parked call's resume ticket stays answerable after it is committed (gate
     * specification §11; default: forever). The ticket carries the deadline; an answer or a
     * perform whose clock reading is past it is rejected {@code expired} — nothing runs and the
     * ticket stays — and the dispatcher, meeting a scheduled action past its deadline, stops its
     * Run {@code stopped("scheduled action expired")}.
     *
     * @param v the time to answer, more than zero
     * @return this builder
     * @throws IllegalArgumentException when {@code v} is zero or negative
     */
    public Builder awaitDeadline(Duration v) {
      settings.mark("awaitDeadline");
      limits = limits.withAwaitDeadline(v);
      return this;
    }

    /**
     * The most model steps one turn may run (the loop's own ceiling, gate specification §9.5;
     * default: none). A turn whose step {@code v} still asked for tools stops there: its calls of
     * that step have their results, the model is not asked again, the turn ends {@code blocked}
     * and its Run, when it committed, ends {@code maxSteps}. Steps count across the turn's parks.
     *
     * @param v the ceiling, at least 1
     * @return this builder
     * @throws IllegalArgumentException when {@code v} is below 1
     */
    public Builder maxSteps(int v) {
      settings.mark("maxSteps");
      limits = limits.withMaxSteps(v);
      return this;
    }

    private dev.horae.runtime.agent.TurnLimits limits() {
      return limits;
    }

    /**
     * The gate plugins: the action kinds this runtime permits (gate specification §10.4: absence
     * is denial; default none) and the tool gates they bring. They are merged at once as §10.3
     * says — duplicate ids, each contribution within its plugin's capability bound, dependencies,
     * duplicate kinds — and every one is selected for every agent. A {@code schedule} outcome
     * naming a kind they contribute parks its call like one without a kind; any other kind ends the
     * turn's Run {@code error(capabilityBound)}. Their gates run for every call after the chain of
     * {@link HoraeRuntime#gates()} (its host gate, then its registered gates), in the plugins'
     * dependency order (gate specification §1.3): the first outcome that is not Allow wins.
     *
     * @param plugins the plugins, in input order
     * @return this builder
     * @throws dev.horae.gate.EnvMergeException when they do not merge (its code names the step)
     */
    public Builder gatePlugins(List<dev.horae.gate.Plugin> plugins) {
      settings.mark("gatePlugins");
      environment = ResolvedExecutionEnv.merge(List.copyOf(plugins));
      return this;
    }

    /**
     * Builds the runtime: opens the store (if a data folder was given) and starts the timers.
     *
     * @return the runtime
     * @throws IllegalStateException when a dispatch queue is given with {@code
     *     dispatchScheduledActions(true)}
     */
    public HoraeRuntime build() {
      if (dispatchQueue != null && dispatch && dispatchExplicit) {
        throw new IllegalStateException("a runtime with a dispatch queue leaves its scheduled actions to the durable dispatcher; "
            + "do not also set dispatchScheduledActions(true)");
      }
      return new HoraeRuntime(this);
    }
  }
}

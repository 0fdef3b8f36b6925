package dev.horae.runtime.agent;

import dev.horae.runtime.plugin.RuntimeScope;
import dev.horae.spi.AbortController;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.agent.InboxClaimListener;
import dev.horae.spi.agent.MaintenanceTask;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.History;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.plugin.Scope;
import dev.horae.spi.session.Session;
import dev.horae.spi.time.Cancellable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * An agent with the phase rules of host contract §5: a turn driver, a maintenance claim, an
 * external turn, or idle. Waking input that arrives while the agent is not idle is latched and
 * starts a driver when the phase ends. A driver runs only while the agent has a model; without one,
 * input is queued until a model is attached and the agent is woken again. Thread-safe.
 *
 * <p>Memory is bounded by what is pending: the inboxes hold unclaimed messages only, and nothing
 * is recorded after it was claimed. The protected hooks let a test host inject faults and observe
 * the inbox without changing these rules; they do nothing here.
 */
public class RuntimeAgent implements Agent {

  /** {@code PARKED}: a turn is open on a committed resume ticket and no thread drives it. */
  private enum Phase { IDLE, TURN, MAINTENANCE, EXTERNAL, PARKED }

  private final String id;
  private final Optional<String> parentId;
  private final Session session;
  private final RuntimeScope scope;
  private final RuntimeAgents registry;
  private final List<InboxClaimListener> claimListeners = new CopyOnWriteArrayList<>();

  private final Deque<UserMessage> nextTurn = new ArrayDeque<>();
  private final Deque<UserMessage> nextStep = new ArrayDeque<>();
  private final List<CompletableFuture<Void>> idleWaiters = new ArrayList<>();
  /**
   * The {@code idle} statuses set in the phase and not yet told to the listeners: an idle wait
   * asked in between must not complete before the status it is promised to follow (host contract
   * §5.1 onStatus, §5.4). A count, since a quick next turn may end while one is still told.
   */
  private int announcingIdle;

  private Phase phase = Phase.IDLE;
  private final List<Runnable> deferred = new ArrayList<>();
  private boolean latchedWake;
  private boolean disposed;
  private @Nullable ModelPort model;
  private String systemPrompt = "";
  private @Nullable AbortController maintenanceSignal;
  private @Nullable AbortController turnSignal;
  /**
   * The model-visible history, projected incrementally; only the turn driver extends it. Dropping it
   * each time the agent goes idle would make every turn re-project the whole log (measured:
   * quadratic over a long session), and keeping it forever makes an idle agent grow with its turns
   * (about 2 KB a turn of the benchmark turn, docs/performance.md). So it is kept while turns follow
   * each other and released once the agent stayed idle for the runtime's {@link IdleHistory}.
   */
  private History.Incremental history = new History.Incremental();
  /** Counts the agent's returns to idle; a release armed at an earlier one does nothing. */
  private long idleSpells;
  private Cancellable historyRelease = () -> {};

  /**
   * Creates an agent; only an {@link AgentFactory} given to {@link RuntimeAgents} calls this.
   *
   * @param id the agent id (the session id for a session-backed agent)
   * @param parentId the owning agent, for a child
   * @param session the agent's live session
   * @param scope the agent scope
   * @param registry the registry that drives it
   */
  protected RuntimeAgent(String id, Optional<String> parentId, Session session, RuntimeScope scope, RuntimeAgents registry) {
    this.id = id;
    this.parentId = parentId;
    this.session = session;
    this.scope = scope;
    this.registry = registry;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public Optional<String> parentId() {
    return parentId;
  }

  @Override
  public Session session() {
    return session;
  }

  @Override
  public Scope scope() {
    return scope;
  }

  @Override
  public synchronized AgentStatus status() {
    return phase == Phase.TURN || phase == Phase.EXTERNAL || phase == Phase.PARKED ? AgentStatus.RUNNING : AgentStatus.IDLE;
  }

  /**
   * Attaches the model that answers this agent's steps. Input already pending starts at the next
   * wake.
   *
   * @param port the model
   * @return this agent
   */
  public synchronized RuntimeAgent useModel(ModelPort port) {
    this.model = port;
    return this;
  }

  /**
   * Sets the base system prompt; registered prompt sections are appended to it for every request.
   *
   * @param prompt the prompt
   * @return this agent
   */
  public synchronized RuntimeAgent systemPrompt(String prompt) {
    this.systemPrompt = java.util.Objects.requireNonNull(prompt, "prompt");
    return this;
  }

  /** The history of the agent's log for the next request; called by the driver only. */
  List<ChatMessage> history(List<dev.horae.spi.session.SessionEvent> events) {
    History.Incremental projection;
    synchronized (this) {
      projection = history;
    }
    return projection.update(events);
  }

  /**
   * Whether the agent holds a model-visible history projection now: true from its first request
   * until it has stayed idle for the runtime's history retention ({@link IdleHistory}).
   *
   * @return true while a projection is held
   */
  public synchronized boolean holdsHistory() {
    return history.projectedEvents() > 0;
  }

  /** Arms the release of the projection for the idle spell that just began. */
  private void armHistoryRelease(long spell) {
    Cancellable release = registry.idleHistory().schedule(() -> releaseHistory(spell));
    synchronized (this) {
      if (idleSpells == spell && phase == Phase.IDLE) {
        historyRelease = release;
        return;
      }
    }
    release.cancel();
  }

  private synchronized void releaseHistory(long spell) {
    // a driver may have started (and even finished) since the release was armed
    if (idleSpells == spell && phase == Phase.IDLE) {
      history = new History.Incremental();
    }
  }

  synchronized String systemPrompt() {
    return systemPrompt;
  }

  // ---- maintenance -------------------------------------------------------------------------

  @Override
  public <T> CompletionStage<T> runMaintenance(MaintenanceTask<T> task) {
    AbortController signal;
    synchronized (this) {
      onMaintenanceCall();
      if (phase != Phase.IDLE || disposed) {
        onMaintenanceRejected();
        throw new IllegalStateException("agent \"" + id + "\" already has active work");
      }
      Throwable fault = maintenanceFault();
      if (fault != null) {
        // the host's maintenance stage fails on its own: the claim is never taken, the task never runs
        return CompletableFuture.failedFuture(fault);
      }
      phase = Phase.MAINTENANCE;
      signal = maintenanceSignal = new AbortController();
    }
    CompletionStage<T> stage;
    try {
      stage = task.run(signal);
    } catch (RuntimeException e) {
      stage = CompletableFuture.failedFuture(e);
    }
    CompletableFuture<T> out = new CompletableFuture<>();
    var unused = stage.whenComplete((value, failure) -> {
      // release the claim before anyone continues on the returned stage
      endMaintenance();
      if (failure != null) {
        out.completeExceptionally(failure);
      } else {
        out.complete(value);
      }
    });
    return out;
  }

  private void endMaintenance() {
    boolean start;
    synchronized (this) {
      maintenanceSignal = null;
      phase = Phase.IDLE;
      start = claimDriverIfWoken();
    }
    if (start) {
      registry.startDriver(this);
    }
    checkIdle();
  }

  // ---- external turns ------------------------------------------------------------------------

  /**
   * Marks the agent busy (status {@code running}) while something other than this runtime's turn
   * engine runs a turn for it — a framework's own agent loop, for instance — so maintenance and
   * wakes wait for it exactly as they wait for a driver.
   *
   * @return a handle whose {@code close} ends the external turn; latched input then starts a driver
   * @throws IllegalStateException when the agent is not idle
   */
  public ExternalTurn beginExternalTurn() {
    synchronized (this) {
      if (phase != Phase.IDLE || disposed) {
        throw new IllegalStateException("agent \"" + id + "\" already has active work");
      }
      phase = Phase.EXTERNAL;
    }
    registry.fireStatus(this, AgentStatus.RUNNING);
    return new ExternalTurn(this);
  }

  /**
   * Begins a turn that a framework's own loop drives and that is written to this agent's log as
   * the runtime's turns are ({@link RecordedTurn}): the agent is busy until {@link
   * RecordedTurn#end}, and {@code turn/start} is appended now.
   *
   * @return the turn
   * @throws IllegalStateException when the agent is not idle
   */
  public RecordedTurn beginRecordedTurn() {
    ExternalTurn external = beginExternalTurn();
    try {
      return new RecordedTurn(this, external, registry.engine());
    } catch (RuntimeException e) {
      external.close();
      throw e;
    }
  }

  /** An external turn in progress; see {@link #beginExternalTurn()}. */
  public static final class ExternalTurn implements AutoCloseable {
    private final RuntimeAgent agent;
    private boolean closed;

    private ExternalTurn(RuntimeAgent agent) {
      this.agent = agent;
    }

    /**
     * Runs the agent's pre-step waterfall for a step of this external turn (host contract §6.2:
     * prepended listeners first, then the others), exactly as the runtime's own turns do, so a
     * borrowed loop gets every plugin's pre-step work — time-context's reading among it — without
     * knowing the plugins. The caller appends {@code step/start} and the decision's messages, as
     * the turn engine does.
     *
     * @param proposal the step's input messages (the user's message on step 1, else empty)
     * @param turn the turn number
     * @param step the step number within the turn
     * @return the decision: Enter with the messages the step carries, or Reject
     * @throws IllegalStateException when this external turn has ended
     */
    public CompletionStage<StepDecision> preStep(List<UserMessage> proposal, long turn, long step) {
      synchronized (this) {
        if (closed) {
          throw new IllegalStateException("the external turn of agent \"" + agent.id() + "\" has ended");
        }
      }
      return agent.registry.preStep(agent, proposal, turn, step, AbortSignal.never());
    }

    /** Ends the external turn; a second call does nothing. */
    @Override
    public void close() {
      synchronized (this) {
        if (closed) {
          return;
        }
        closed = true;
      }
      agent.endExternalTurn();
    }
  }

  private void endExternalTurn() {
    boolean start;
    synchronized (this) {
      phase = Phase.IDLE;
      announcingIdle++;
      start = claimDriverIfWoken();
    }
    announceIdle();
    if (start) {
      registry.startDriver(this);
    }
    checkIdle();
  }

  // ---- idle wait -----------------------------------------------------------------------------

  @Override
  public CompletionStage<Void> whenIdle() {
    CompletableFuture<Void> waiter = new CompletableFuture<>();
    synchronized (this) {
      Throwable fault = idleWaitFault();
      if (fault != null) {
        waiter.completeExceptionally(fault);
        return waiter;
      }
      if (disposed) {
        waiter.completeExceptionally(new IllegalStateException("agent \"" + id + "\" is disposed"));
        return waiter;
      }
      idleWaiters.add(waiter);
    }
    checkIdle();
    return waiter;
  }

  /**
   * Completes the pending idle waits if the agent is idle and {@link #idleHeld()} allows it. Called
   * after every phase change; a subclass that releases a hold calls it too.
   */
  protected final void checkIdle() {
    List<CompletableFuture<Void>> ready;
    synchronized (this) {
      if (phase != Phase.IDLE || announcingIdle > 0 || idleHeld() || idleWaiters.isEmpty()) {
        return;
      }
      ready = new ArrayList<>(idleWaiters);
      idleWaiters.clear();
    }
    ready.forEach(w -> w.complete(null));
  }

  /**
   * Fails every idle wait now pending, as a host whose idle stage broke would.
   *
   * @param failure the failure
   */
  protected final void failIdleWaits(Throwable failure) {
    List<CompletableFuture<Void>> waiting;
    synchronized (this) {
      waiting = new ArrayList<>(idleWaiters);
      idleWaiters.clear();
    }
    waiting.forEach(w -> w.completeExceptionally(failure));
  }

  // ---- inbox ---------------------------------------------------------------------------------

  @Override
  public void followup(UserMessage message) {
    synchronized (this) {
      if (disposed) {
        return;
      }
      nextTurn.addLast(message);
      onQueued(message, Lane.FOLLOWUP);
    }
    wake();
  }

  @Override
  public synchronized void inject(UserMessage message) {
    if (disposed) {
      return;
    }
    nextStep.addLast(message);
    onQueued(message, Lane.INJECT);
  }

  @Override
  public void steer(UserMessage message) {
    inject(message);
    wake();
  }

  /**
   * Submits a prompt: queued for the next turn, like a follow-up, and waking the agent.
   *
   * @param message the prompt
   */
  public void prompt(UserMessage message) {
    synchronized (this) {
      if (disposed) {
        return;
      }
      nextTurn.addLast(message);
      onQueued(message, Lane.PROMPT);
    }
    wake();
  }

  @Override
  public synchronized boolean withdraw(String messageId) {
    boolean removed = nextTurn.removeIf(m -> m.id().equals(messageId))
        || nextStep.removeIf(m -> m.id().equals(messageId));
    if (removed) {
      onWithdrawn(messageId);
    }
    return removed;
  }

  @Override
  public Registration onInboxClaimed(InboxClaimListener listener) {
    claimListeners.add(listener);
    return () -> claimListeners.remove(listener);
  }

  /**
   * Messages queued for the next turn and not yet claimed.
   *
   * @return the next-turn queue
   */
  public synchronized List<UserMessage> pendingNextTurn() {
    return List.copyOf(nextTurn);
  }

  /**
   * Messages queued for the next step and not yet claimed.
   *
   * @return the next-step queue
   */
  public synchronized List<UserMessage> pendingNextStep() {
    return List.copyOf(nextStep);
  }

  /**
   * Fires the running turn's cancellation signal, if a turn runs: the turn ends {@code aborted}.
   *
   * @param reason why, recorded as the abort cause
   */
  public void cancelTurn(String reason) {
    AbortController signal;
    synchronized (this) {
      signal = turnSignal;
    }
    if (signal != null) {
      signal.abort(new CancellationException(reason));
    }
  }

  /**
   * Whether the agent was disposed.
   *
   * @return true after disposal
   */
  public synchronized boolean disposed() {
    return disposed;
  }

  // ---- hooks for test hosts ------------------------------------------------------------------

  /** The inbox lane a message was queued on. */
  protected enum Lane {
    /** {@link #followup}: next turn, wakes. */
    FOLLOWUP,
    /** {@link #inject} or {@link #steer}: next step. */
    INJECT,
    /** {@link #prompt}: next turn, wakes. */
    PROMPT
  }

  /**
   * A failure the maintenance stage reports instead of claiming the agent; null here. Called under
   * the agent's lock.
   *
   * @return the failure, or null to claim normally
   */
  protected @Nullable Throwable maintenanceFault() {
    return null;
  }

  /**
   * A failure the next idle wait completes with instead of waiting; null here. Called under the
   * agent's lock.
   *
   * @return the failure, or null to wait normally
   */
  protected @Nullable Throwable idleWaitFault() {
    return null;
  }

  /**
   * Whether idle waits are held even while the agent is idle; false here. Called under the lock.
   *
   * @return true to hold them
   */
  protected boolean idleHeld() {
    return false;
  }

  /** Called under the lock for every {@code runMaintenance} call, before it is decided. */
  protected void onMaintenanceCall() {}

  /** Called under the lock when {@code runMaintenance} throws because of active work. */
  protected void onMaintenanceRejected() {}

  /**
   * Called under the lock when a message is queued.
   *
   * @param message the message
   * @param lane its lane
   */
  protected void onQueued(UserMessage message, Lane lane) {}

  /**
   * Called under the lock when a queued message is withdrawn.
   *
   * @param messageId its id
   */
  protected void onWithdrawn(String messageId) {}

  // ---- driver --------------------------------------------------------------------------------

  private void wake() {
    boolean start;
    synchronized (this) {
      if (disposed) {
        return;
      }
      latchedWake = true;
      if (phase != Phase.IDLE) {
        return;
      }
      start = claimDriverIfWoken();
    }
    if (start) {
      registry.startDriver(this);
    }
  }

  /** Under the lock: turns a pending wake into a driver claim when input and a model exist. */
  private boolean claimDriverIfWoken() {
    if (!latchedWake || disposed || model == null || !hasPendingInput()) {
      if (!hasPendingInput()) {
        latchedWake = false;
      }
      return false;
    }
    latchedWake = false;
    phase = Phase.TURN;
    return true;
  }

  /** A driver starts: the release armed for the idle spell that ended is not needed any more. */
  void cancelHistoryRelease() {
    Cancellable release;
    synchronized (this) {
      release = historyRelease;
      historyRelease = () -> {};
    }
    // outside the lock: a timer service may hold its own lock while it runs a release
    release.cancel();
  }

  synchronized boolean hasPendingInput() {
    return !nextTurn.isEmpty() || !nextStep.isEmpty();
  }

  synchronized boolean hasNextStepInput() {
    return !nextStep.isEmpty();
  }

  synchronized @Nullable ModelPort model() {
    return model;
  }

  synchronized AbortController beginTurn() {
    turnSignal = new AbortController();
    return turnSignal;
  }

  synchronized void endTurn() {
    turnSignal = null;
  }

  List<UserMessage> claim(boolean firstStep, long turn) {
    List<UserMessage> claimed = new ArrayList<>();
    synchronized (this) {
      claimed.addAll(nextStep);
      nextStep.clear();
      if (firstStep && !nextTurn.isEmpty()) {
        claimed.add(0, nextTurn.pollFirst());
      }
    }
    for (UserMessage m : claimed) {
      for (InboxClaimListener l : claimListeners) {
        l.onClaimed(this, m, turn);
      }
    }
    return claimed;
  }

  /**
   * Whether a turn of this agent is parked on a committed resume ticket: the turn is open, no
   * thread drives it, and new input waits until the answer continues it.
   *
   * @return true while parked
   */
  public synchronized boolean parked() {
    return phase == Phase.PARKED;
  }

  /** Whether a thread of this process drives a turn of this agent right now (not parked, not maintenance). */
  synchronized boolean driving() {
    return phase == Phase.TURN && turnSignal != null;
  }

  /** The driver parked the turn it ran. */
  synchronized void park() {
    phase = Phase.PARKED;
  }

  /** A reopened log holds a parked turn: the agent starts parked, before anyone sees it. */
  synchronized void restoreParked() {
    if (phase == Phase.IDLE) {
      phase = Phase.PARKED;
    }
  }

  /** An answer takes the parked turn over; false when none is parked (or another answer has it). */
  synchronized boolean unpark() {
    if (phase != Phase.PARKED || disposed) {
      return false;
    }
    phase = Phase.TURN;
    return true;
  }

  /** The answer lost the race for the ticket: the turn is parked again, untouched. */
  synchronized void repark() {
    phase = Phase.PARKED;
  }

  /** Work to run once the current driver (or the agent's creation) has finished. */
  synchronized void defer(Runnable task) {
    deferred.add(task);
  }

  synchronized List<Runnable> takeDeferred() {
    List<Runnable> out = new ArrayList<>(deferred);
    deferred.clear();
    return out;
  }

  // tells the listeners the agent is idle, then lets the idle waits complete
  private void announceIdle() {
    try {
      registry.fireStatus(this, AgentStatus.IDLE);
    } finally {
      synchronized (this) {
        announcingIdle--;
      }
    }
  }

  /** Called by the registry when a turn ended; returns true when the driver must go on. */
  boolean finishDriverOrContinue() {
    long spell;
    synchronized (this) {
      if (phase == Phase.PARKED) {
        return false;
      }
      if (!disposed && hasPendingInput() && phase == Phase.TURN) {
        return true;
      }
      phase = Phase.IDLE;
      announcingIdle++;
      latchedWake = false;
      spell = ++idleSpells;
    }
    armHistoryRelease(spell);
    announceIdle();
    checkIdle();
    return false;
  }

  CompletionStage<Void> dispose() {
    List<CompletableFuture<Void>> waiting;
    AbortController m;
    AbortController t;
    synchronized (this) {
      if (disposed) {
        return scope.dispose();
      }
      disposed = true;
      nextTurn.clear();
      nextStep.clear();
      waiting = new ArrayList<>(idleWaiters);
      idleWaiters.clear();
      m = maintenanceSignal;
      t = turnSignal;
    }
    cancelHistoryRelease();
    if (m != null) {
      m.abort();
    }
    if (t != null) {
      t.abort();
    }
    IllegalStateException gone = new IllegalStateException("agent \"" + id + "\" is disposed");
    waiting.forEach(w -> w.completeExceptionally(gone));
    return scope.dispose();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + id + "]";
  }
}

package dev.horae.testkit.agent;

import dev.horae.spi.AbortController;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.agent.InboxClaimListener;
import dev.horae.spi.agent.MaintenanceTask;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.plugin.Scope;
import dev.horae.spi.session.Session;
import dev.horae.runtime.plugin.RuntimeScope;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * An agent of the testkit host with the phase rules of host contract §5: a turn driver, a
 * maintenance claim, or idle. Waking input that arrives while the agent is not idle is latched.
 * With a {@link ScriptedModel} attached, wakes start a real turn loop on the host's {@link
 * DriverQueue}; without one, input is only queued and recorded. Thread-safe.
 */
public final class TestAgent implements Agent {

  private enum Phase { IDLE, TURN, MAINTENANCE, MANUAL_BUSY }

  private final String id;
  private final Optional<String> parentId;
  private final Session session;
  private final RuntimeScope scope;
  private final TestAgents registry;
  private final List<InboxClaimListener> claimListeners = new CopyOnWriteArrayList<>();

  private final Deque<UserMessage> nextTurn = new ArrayDeque<>();
  private final Deque<UserMessage> nextStep = new ArrayDeque<>();
  private final List<UserMessage> followups = new ArrayList<>();
  private final List<UserMessage> injections = new ArrayList<>();
  private final List<String> withdrawn = new ArrayList<>();
  private final List<CompletableFuture<Void>> idleWaiters = new ArrayList<>();

  private Phase phase = Phase.IDLE;
  private boolean latchedWake;
  private boolean disposed;
  private boolean holdIdle;
  private @Nullable Throwable failNextIdle;
  private @Nullable Throwable failNextMaintenance;
  private @Nullable Model model;
  private @Nullable AbortController maintenanceSignal;
  private @Nullable AbortController turnSignal;
  private int maintenanceCalls;
  private int maintenanceRejections;
  private int whenIdleCalls;

  TestAgent(String id, Optional<String> parentId, Session session, RuntimeScope scope, TestAgents registry) {
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
    return phase == Phase.TURN || phase == Phase.MANUAL_BUSY ? AgentStatus.RUNNING : AgentStatus.IDLE;
  }

  /**
   * Attaches a model: from now on wakes run real turns. Input already pending is not started until
   * the next wake.
   *
   * @param scripted the model
   * @return this agent
   */
  public synchronized TestAgent useModel(Model scripted) {
    this.model = scripted;
    return this;
  }

  // ---- maintenance -------------------------------------------------------------------------

  @Override
  public <T> CompletionStage<T> runMaintenance(MaintenanceTask<T> task) {
    AbortController signal;
    synchronized (this) {
      maintenanceCalls++;
      if (phase != Phase.IDLE || disposed) {
        maintenanceRejections++;
        throw new IllegalStateException("agent \"" + id + "\" already has active work");
      }
      if (failNextMaintenance != null) {
        // the host's maintenance stage fails on its own: the claim is never taken, the task never runs
        CompletableFuture<T> failed = CompletableFuture.failedFuture(failNextMaintenance);
        failNextMaintenance = null;
        return failed;
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

  /**
   * Makes the next {@code runMaintenance} call return a stage failed with {@code failure}, without
   * claiming the agent or running the task (the "maintenance stage fails" fault).
   *
   * @param failure the failure
   */
  public synchronized void failNextMaintenance(Throwable failure) {
    failNextMaintenance = failure;
  }

  /**
   * How many times {@code runMaintenance} was called (including rejected calls).
   *
   * @return the count
   */
  public synchronized int maintenanceCalls() {
    return maintenanceCalls;
  }

  /**
   * How many {@code runMaintenance} calls threw because the agent had active work.
   *
   * @return the count
   */
  public synchronized int maintenanceRejections() {
    return maintenanceRejections;
  }

  // ---- manual phase control ------------------------------------------------------------------

  /**
   * Makes the agent busy as if a turn driver ran (status {@code running}), without a model.
   *
   * @throws IllegalStateException when the agent is not idle
   */
  public void setBusy() {
    synchronized (this) {
      if (phase != Phase.IDLE) {
        throw new IllegalStateException("agent \"" + id + "\" already has active work");
      }
      phase = Phase.MANUAL_BUSY;
    }
    registry.fireStatus(this, AgentStatus.RUNNING);
  }

  /**
   * Ends a {@link #setBusy()} phase; latched input then starts a driver (with a model).
   *
   * @throws IllegalStateException when the agent was not made busy with {@link #setBusy()}
   */
  public void setIdle() {
    boolean start;
    synchronized (this) {
      if (phase != Phase.MANUAL_BUSY) {
        throw new IllegalStateException("agent \"" + id + "\" was not made busy by the test");
      }
      phase = Phase.IDLE;
      start = claimDriverIfWoken();
    }
    registry.fireStatus(this, AgentStatus.IDLE);
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
      whenIdleCalls++;
      if (failNextIdle != null) {
        waiter.completeExceptionally(failNextIdle);
        failNextIdle = null;
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
   * Holds every idle wait until {@link #releaseIdle()}, even when the agent is idle.
   */
  public synchronized void holdIdle() {
    holdIdle = true;
  }

  /** Releases held idle waits (they complete if the agent is idle). */
  public void releaseIdle() {
    synchronized (this) {
      holdIdle = false;
    }
    checkIdle();
  }

  /**
   * Makes the next {@code whenIdle()} call return a stage failed with {@code failure}.
   *
   * @param failure the failure
   */
  public synchronized void failNextIdle(Throwable failure) {
    failNextIdle = failure;
  }

  /**
   * Fails every idle wait currently pending.
   *
   * @param failure the failure
   */
  public void failPendingIdle(Throwable failure) {
    List<CompletableFuture<Void>> waiting;
    synchronized (this) {
      waiting = new ArrayList<>(idleWaiters);
      idleWaiters.clear();
    }
    waiting.forEach(w -> w.completeExceptionally(failure));
  }

  /**
   * How many times {@code whenIdle()} was called.
   *
   * @return the count
   */
  public synchronized int whenIdleCalls() {
    return whenIdleCalls;
  }

  private void checkIdle() {
    List<CompletableFuture<Void>> ready;
    synchronized (this) {
      if (phase != Phase.IDLE || holdIdle || idleWaiters.isEmpty()) {
        return;
      }
      ready = new ArrayList<>(idleWaiters);
      idleWaiters.clear();
    }
    ready.forEach(w -> w.complete(null));
  }

  // ---- inbox ---------------------------------------------------------------------------------

  @Override
  public void followup(UserMessage message) {
    synchronized (this) {
      if (disposed) {
        return;
      }
      nextTurn.addLast(message);
      followups.add(message);
    }
    wake();
  }

  @Override
  public synchronized void inject(UserMessage message) {
    if (disposed) {
      return;
    }
    nextStep.addLast(message);
    injections.add(message);
  }

  @Override
  public void steer(UserMessage message) {
    inject(message);
    wake();
  }

  /**
   * Submits a host prompt: queued like a follow-up (next-turn) and waking the agent.
   *
   * @param message the prompt
   */
  public void prompt(UserMessage message) {
    synchronized (this) {
      if (disposed) {
        return;
      }
      nextTurn.addLast(message);
    }
    wake();
  }

  @Override
  public synchronized boolean withdraw(String messageId) {
    boolean removed = nextTurn.removeIf(m -> m.id().equals(messageId))
        || nextStep.removeIf(m -> m.id().equals(messageId));
    if (removed) {
      withdrawn.add(messageId);
    }
    return removed;
  }

  @Override
  public Registration onInboxClaimed(InboxClaimListener listener) {
    claimListeners.add(listener);
    return () -> claimListeners.remove(listener);
  }

  /**
   * Every message passed to {@code followup}, in order.
   *
   * @return the follow-ups
   */
  public synchronized List<UserMessage> followups() {
    return List.copyOf(followups);
  }

  /**
   * Every message passed to {@code inject} or {@code steer}, in order.
   *
   * @return the injections
   */
  public synchronized List<UserMessage> injections() {
    return List.copyOf(injections);
  }

  /**
   * Ids of messages removed by {@code withdraw}.
   *
   * @return the ids
   */
  public synchronized List<String> withdrawals() {
    return List.copyOf(withdrawn);
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

  /** Fires the running turn's cancellation signal, if a turn runs. */
  public void cancelTurn() {
    AbortController signal;
    synchronized (this) {
      signal = turnSignal;
    }
    if (signal != null) {
      signal.abort(new java.util.concurrent.CancellationException("turn cancelled by the test"));
    }
  }

  // ---- driver --------------------------------------------------------------------------------

  private void wake() {
    boolean start;
    synchronized (this) {
      if (disposed) {
        return;
      }
      if (phase != Phase.IDLE) {
        latchedWake = true;
        return;
      }
      latchedWake = true;
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

  synchronized boolean hasPendingInput() {
    return !nextTurn.isEmpty() || !nextStep.isEmpty();
  }

  synchronized boolean hasNextStepInput() {
    return !nextStep.isEmpty();
  }

  synchronized @Nullable Model model() {
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

  /** Called by the loop when the inbox is empty; returns true when the driver must go on. */
  boolean finishDriverOrContinue() {
    synchronized (this) {
      if (!disposed && hasPendingInput() && phase == Phase.TURN) {
        return true;
      }
      phase = Phase.IDLE;
      latchedWake = false;
    }
    registry.fireStatus(this, AgentStatus.IDLE);
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

  /**
   * Whether the agent was disposed.
   *
   * @return true after disposal
   */
  public synchronized boolean disposed() {
    return disposed;
  }
}

package dev.horae.runtime.agent;

import dev.horae.gate.AwaitReason;
import dev.horae.gate.EndCause;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.RunState;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.runtime.ClaimGuard;
import dev.horae.gate.runtime.GateRuntimeException;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.runtime.plugin.RuntimeScope;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.agent.PreStep;
import dev.horae.spi.agent.PreStepListener;
import dev.horae.spi.agent.StatusListener;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.agent.TurnStopListener;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.Session;
import dev.horae.spi.tool.ToolResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The agent registry (host contract §5.1): roots and children, identity-based {@code get}, created
 * events without replay, status events, the pre-step waterfall, the turn-stopping hook and agent
 * disposal with awaited scope effects. Turn drivers run on the executor it is given, through the
 * {@link TurnEngine}. Thread-safe.
 */
public final class RuntimeAgents implements AgentRegistry {

  /** Makes the agent objects of a registry: the runtime's own, or a test host's subclass. */
  @FunctionalInterface
  public interface AgentFactory {
    /**
     * Makes an agent.
     *
     * @param id the agent id
     * @param parentId the owner, for a child
     * @param session the live session
     * @param scope the agent scope
     * @param registry the registry that will drive it
     * @return the agent
     */
    RuntimeAgent create(String id, Optional<String> parentId, Session session, RuntimeScope scope, RuntimeAgents registry);
  }

  private final Map<String, RuntimeAgent> live = new LinkedHashMap<>();
  private final List<Consumer<Agent>> createdListeners = new CopyOnWriteArrayList<>();
  private final List<StatusListener> statusListeners = new CopyOnWriteArrayList<>();
  private final List<PreStepListener> prepended = new ArrayList<>();
  private final List<PreStepListener> appended = new ArrayList<>();
  private final List<TurnStopListener> stopListeners = new CopyOnWriteArrayList<>();
  private final List<TurnListener> turnListeners = new CopyOnWriteArrayList<>();
  private final List<java.util.function.Consumer<dev.horae.runtime.gate.AwaitingCall>> awaitingListeners =
      new CopyOnWriteArrayList<>();
  private final TurnEngine engine;
  private final Executor drivers;
  private final WarningSink warnings;
  private final AgentFactory factory;
  private final IdleHistory idleHistory;
  private final AtomicInteger withoutInitiatorRuns = new AtomicInteger();

  /**
   * Creates the registry.
   *
   * @param drivers where turn drivers run: a pool or a single thread for a live host, a manual
   *     queue for deterministic tests; never the waking thread
   * @param engine the turn engine
   * @param warnings where contained listener failures go
   * @param factory makes the agent objects ({@code RuntimeAgent}'s own constructor for production)
   * @param idleHistory when an idle agent releases its history projection
   */
  public RuntimeAgents(Executor drivers, TurnEngine engine, WarningSink warnings, AgentFactory factory, IdleHistory idleHistory) {
    this.drivers = drivers;
    this.engine = engine;
    this.warnings = warnings;
    this.factory = factory;
    this.idleHistory = idleHistory;
  }

  /** When an idle agent releases its history projection. */
  IdleHistory idleHistory() {
    return idleHistory;
  }

  /**
   * The factory of the runtime's own agents.
   *
   * @return the factory
   */
  public static AgentFactory defaultFactory() {
    return RuntimeAgent::new;
  }

  /**
   * Creates and registers an agent over a live session and fires the created listeners. A
   * session-backed agent's id is its session id.
   *
   * @param session the session
   * @param parentId the owning agent for a child, or empty for a root
   * @param scope the agent scope
   * @return the agent
   */
  public RuntimeAgent create(Session session, Optional<String> parentId, RuntimeScope scope) {
    return create(session, parentId, scope, Optional.empty());
  }

  /**
   * Creates and registers an agent that answers with {@code model} from the start: the model is
   * attached before the created listeners run, so work a listener hands the new agent at once (an
   * overdue reminder of a resumed session, for instance) starts a turn instead of waiting for the
   * next wake.
   *
   * @param session the session
   * @param parentId the owning agent for a child, or empty for a root
   * @param scope the agent scope
   * @param model the model, if any
   * @return the agent
   */
  public RuntimeAgent create(Session session, Optional<String> parentId, RuntimeScope scope, Optional<ModelPort> model) {
    RuntimeAgent agent = factory.create(session.id(), parentId, session, scope, this);
    model.ifPresent(agent::useModel);
    // a parked turn must hold the agent before any listener can hand it work
    engine.reopen(agent, this);
    synchronized (this) {
      live.put(agent.id(), agent);
    }
    for (Consumer<Agent> l : createdListeners) {
      try {
        l.accept(agent);
      } catch (RuntimeException e) {
        warnings.warn("agent-created listener failed for " + agent.id(), Optional.of(e));
      }
    }
    runDeferred(agent);
    return agent;
  }

  /**
   * Disposes an agent: cancels its inbox and maintenance signal, fails its idle waits, removes
   * it from the registry and awaits its scope's disposal effects.
   *
   * @param agent the agent
   * @return a stage completing when disposal finished
   */
  public CompletionStage<Void> dispose(RuntimeAgent agent) {
    synchronized (this) {
      live.remove(agent.id(), agent);
    }
    return agent.dispose();
  }

  @Override
  public synchronized List<Agent> roots() {
    List<Agent> roots = new ArrayList<>();
    for (RuntimeAgent a : live.values()) {
      if (a.parentId().isEmpty()) {
        roots.add(a);
      }
    }
    return roots;
  }

  /**
   * Every live agent.
   *
   * @return the agents
   */
  public synchronized List<RuntimeAgent> all() {
    return List.copyOf(live.values());
  }

  @Override
  public synchronized Optional<Agent> get(String id) {
    return Optional.ofNullable(live.get(id));
  }

  @Override
  public Registration onCreated(Consumer<Agent> listener) {
    createdListeners.add(listener);
    return () -> createdListeners.remove(listener);
  }

  @Override
  public Registration onStatus(StatusListener listener) {
    statusListeners.add(listener);
    return () -> statusListeners.remove(listener);
  }

  @Override
  public synchronized Registration onPreStep(PreStepListener listener, boolean prepend) {
    List<PreStepListener> target = prepend ? prepended : appended;
    target.add(listener);
    return () -> {
      synchronized (this) {
        target.remove(listener);
      }
    };
  }

  @Override
  public void runWithoutInitiator(Runnable work) {
    withoutInitiatorRuns.incrementAndGet();
    work.run();
  }

  /**
   * How many times {@link #runWithoutInitiator} ran work.
   *
   * @return the count
   */
  public int withoutInitiatorRuns() {
    return withoutInitiatorRuns.get();
  }

  @Override
  public Registration onTurnStopping(TurnStopListener listener) {
    stopListeners.add(listener);
    return () -> stopListeners.remove(listener);
  }

  /**
   * Listens for the end of every turn of every agent, for instance to hand an unprompted reply
   * (see {@link TurnOutcome#unprompted()}) to the user. A parked turn has not ended; a turn whose
   * Run committed is reported only once its Run's end is durable (gate specification §5.6 step 5),
   * so a turn whose Run end could not be committed is never reported.
   *
   * @param listener the listener
   * @return a handle that removes it
   */
  public Registration onTurnEnd(TurnListener listener) {
    turnListeners.add(listener);
    return () -> turnListeners.remove(listener);
  }

  /**
   * Listens for calls that start waiting: a turn parked on a RequireConfirmation or Schedule
   * outcome once its ticket is durable, and a parked turn found again when an agent is reopened
   * (gate specification §8.3: a Run entering awaiting is announced). Use it to ask a person, or
   * to tell an operator; {@link dev.horae.runtime.HoraeRuntime#awaiting()} lists the same calls.
   *
   * @param listener receives each awaiting call, on the thread that parked it
   * @return a handle that removes it
   */
  public Registration onAwaiting(java.util.function.Consumer<dev.horae.runtime.gate.AwaitingCall> listener) {
    awaitingListeners.add(listener);
    return () -> awaitingListeners.remove(listener);
  }

  TurnEngine engine() {
    return engine;
  }

  void awaiting(dev.horae.runtime.gate.AwaitingCall call) {
    for (java.util.function.Consumer<dev.horae.runtime.gate.AwaitingCall> l : awaitingListeners) {
      try {
        l.accept(call);
      } catch (RuntimeException e) {
        warnings.warn("awaiting listener failed for " + call.runId(), Optional.of(e));
      }
    }
  }

  void turnEnded(TurnOutcome outcome) {
    for (TurnListener l : turnListeners) {
      try {
        l.onTurnEnd(outcome);
      } catch (RuntimeException e) {
        warnings.warn("turn listener failed for " + outcome.agentId(), Optional.of(e));
      }
    }
  }

  /** Runs the turn-stopping hooks; a failing one is reported and the rest still run. */
  void turnStopping(RuntimeAgent agent, long turn) {
    for (TurnStopListener l : stopListeners) {
      try {
        l.onTurnStopping(agent, turn);
      } catch (RuntimeException e) {
        warnings.warn("turn-stopping hook failed for " + agent.id(), Optional.of(e));
      }
    }
  }

  void fireStatus(RuntimeAgent agent, AgentStatus status) {
    for (StatusListener l : statusListeners) {
      try {
        l.onStatus(agent, status);
      } catch (RuntimeException e) {
        warnings.warn("status listener failed for " + agent.id(), Optional.of(e));
      }
    }
  }

  void startDriver(RuntimeAgent agent) {
    agent.cancelHistoryRelease();
    fireStatus(agent, AgentStatus.RUNNING);
    drivers.execute(() -> drive(agent));
  }

  private void drive(RuntimeAgent agent) {
    follow(agent, engine.runTurn(agent, this));
  }

  /**
   * After a driver's turn: the next turn when input waits, else the deferred work. A driver whose
   * turn parked only runs the deferred work: the phase is no longer its own, since an answer may
   * already have unparked the turn and started the driver that continues it.
   */
  private void follow(RuntimeAgent agent, CompletionStage<Boolean> turn) {
    var unused = turn.whenComplete((parked, e) -> {
      if (e != null) {
        warnings.warn("turn driver of " + agent.id() + " failed", Optional.of(e));
      }
      if (e == null && parked) {
        runDeferred(agent);
      } else if (agent.finishDriverOrContinue()) {
        drivers.execute(() -> drive(agent));
      } else {
        runDeferred(agent);
      }
    });
  }

  private void runDeferred(RuntimeAgent agent) {
    for (Runnable task : agent.takeDeferred()) {
      drivers.execute(task);
    }
  }

  /** Drives the continuation of a parked turn the caller has unparked. */
  void continueParked(RuntimeAgent agent, Supplier<CompletionStage<Boolean>> continuation) {
    drivers.execute(() -> {
      CompletionStage<Boolean> turn;
      try {
        turn = continuation.get();
      } catch (RuntimeException e) {
        turn = CompletableFuture.failedFuture(e);
      }
      follow(agent, turn);
    });
  }

  /**
   * Answers the call an agent's turn is parked on (gate specification §6.4): the command must
   * carry the committed ticket's identity and a result its kind allows. A rejection is a value:
   * nothing is committed and no tool runs. An accepted answer is committed before the tool runs
   * (consuming the ticket), and the turn runs on.
   *
   * @param agent the agent whose session holds the Run
   * @param command the answer
   * @return a stage with the outcome, completed when the turn parked again or ended
   */
  public CompletionStage<ResumeOutcome> resume(RuntimeAgent agent, ResumeCommand command) {
    return engine.resume(agent, this, command);
  }

  /**
   * Performs the scheduled action an agent's turn is parked on (gate specification §9.2).
   *
   * @param agent the agent
   * @return a stage with the outcome; {@code notAwaiting} or {@code notScheduledAction} when there
   *     is nothing to perform
   */
  public CompletionStage<ResumeOutcome> performScheduled(RuntimeAgent agent) {
    return engine.performScheduled(agent, this);
  }

  /**
   * Answers a parked call with the full gate resume command (gate specification §6.1), at the
   * open agent of the command's thread (session).
   *
   * @param command the answer
   * @return a stage with the outcome; {@code agentNotOpen} when no open agent holds the session
   */
  public CompletionStage<ResumeOutcome> resume(ResumeCommand command) {
    return resume(command, Optional.empty());
  }

  /**
   * {@link #resume(ResumeCommand)} for a durable dispatcher's attempt holding {@code claim} (gate
   * specification §12.5.3): every commit of the continued turn is fenced by it, and no tool is
   * entered once it no longer owns the Run.
   *
   * @param command the answer
   * @param claim the attempt's claim, if any
   * @return a stage with the outcome; {@code agentNotOpen} when no open agent holds the session
   */
  public CompletionStage<ResumeOutcome> resume(ResumeCommand command, Optional<ClaimGuard> claim) {
    Optional<RuntimeAgent> agent = holder(command.threadId());
    if (agent.isEmpty()) {
      return CompletableFuture.completedFuture(notOpen(command.threadId()));
    }
    return engine.resume(agent.get(), this, command, claim);
  }

  /**
   * Answers the call a Run is parked on with a result and the committed ticket's own identity,
   * read at the engine's clock.
   *
   * @param runId the parked Run ({@link AwaitingCall#runId()})
   * @param result the answer
   * @return a stage with the outcome; {@code notAwaiting} when no open agent's turn is parked on it
   */
  public CompletionStage<ResumeOutcome> answer(String runId, ResumeResult result) {
    for (AwaitingCall call : awaiting()) {
      if (call.runId().equals(runId)) {
        return resume(ResumeCommand.fromTicket(call.ticket(), result, engine.clock().millis()));
      }
    }
    return CompletableFuture.completedFuture(notAwaiting());
  }

  /**
   * Performs the scheduled action one Run is parked on (gate specification §9.2).
   *
   * @param runId the Run
   * @return a stage with the outcome; {@code notAwaiting} when no open agent's turn is parked on
   *     it, {@code notScheduledAction} when it waits for something else
   */
  public CompletionStage<ResumeOutcome> perform(String runId) {
    return perform(runId, engine.clock().millis(), Optional.empty());
  }

  /**
   * {@link #perform(String)} at the caller's clock reading, for a durable dispatcher's attempt
   * holding {@code claim} (see {@link #resume(ResumeCommand, Optional)}).
   *
   * @param runId the Run
   * @param nowMs the caller's clock reading, for the ticket deadline
   * @param claim the attempt's claim, if any
   * @return a stage with the outcome; {@code notAwaiting} when no open agent's turn is parked on
   *     it, {@code notScheduledAction} when it waits for something else
   */
  public CompletionStage<ResumeOutcome> perform(String runId, long nowMs, Optional<ClaimGuard> claim) {
    for (RuntimeAgent agent : all()) {
      Optional<ResumeTicket> ticket = parkedTicket(agent);
      if (ticket.isPresent() && ticket.get().runId().equals(runId)) {
        return engine.performScheduled(agent, this, nowMs, claim);
      }
    }
    return CompletableFuture.completedFuture(notAwaiting());
  }

  /**
   * Performs every committed scheduled action of the open agents, one after another; each is
   * consumed before its tool runs, so a second call performs nothing again.
   *
   * @return a stage with one outcome per action found; when a perform failed (its persistence
   *     uncertain) the stage fails with that failure once every other action was performed
   */
  public CompletionStage<List<ResumeOutcome>> performScheduledActions() {
    List<ResumeOutcome> outcomes = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    CompletionStage<Void> chain = CompletableFuture.completedFuture(null);
    for (AwaitingCall call : awaiting()) {
      if (call.reason() != AwaitReason.SCHEDULED_ACTION) {
        continue;
      }
      // one Run's failed perform (its persistence uncertain) never keeps the pass from the others
      chain = chain.thenCompose(v -> perform(call.runId()).handle((o, failure) -> {
        if (failure != null) {
          failures.add(TurnEngine.unwrap(failure));
        } else {
          outcomes.add(o);
        }
        return null;
      }));
    }
    return chain.thenCompose(v -> {
      if (failures.isEmpty()) {
        return CompletableFuture.completedFuture(outcomes);
      }
      Throwable first = failures.get(0);
      failures.subList(1, failures.size()).stream().filter(f -> f != first).forEach(first::addSuppressed);
      return CompletableFuture.failedFuture(first);
    });
  }

  /**
   * Cancels a parked turn's Run (gate specification §9.5): it ends {@code cancelled}, its ticket is
   * gone, the waiting call gets the aborted result and the turn ends {@code aborted}; a later
   * perform or resume is {@code notAwaiting}. On a Run that has already ended it commits nothing
   * and answers the Run's terminal state. A Run this process drives right now (an answer or a
   * perform running its calls) ends {@code cancelled} at once and its turn is cancelled, so it
   * stops at its next boundary and the drive answers that end. A turn whose Run never committed
   * (it never parked) is cancelled with {@link RuntimeAgent#cancelTurn(String)}.
   *
   * @param runId the Run
   * @return a stage with the terminal state, or a rejection ({@code notAwaiting}, {@code agentNotOpen})
   */
  public CompletionStage<ResumeOutcome> cancel(String runId) {
    return cancel(runId, Optional.empty());
  }

  /**
   * {@link #cancel(String)} with the Run's end fenced by a durable dispatcher's claim, if given.
   *
   * @param runId the Run
   * @param claim the attempt's claim, if any
   * @return a stage with the terminal state, or a rejection
   */
  public CompletionStage<ResumeOutcome> cancel(String runId, Optional<ClaimGuard> claim) {
    return halt(runId, EndCause.cancelled(), TurnEngine.CANCELLED, ToolResult.aborted(), claim);
  }

  /**
   * Stops a parked turn's Run for a host policy (gate specification §9.5: budgets, ceilings): it
   * ends {@code stopped(reason)}, its ticket is gone, the waiting call gets {@code Error: stopped:
   * <reason>} and the turn ends {@code blocked}. Otherwise as {@link #cancel}.
   *
   * @param runId the Run
   * @param reason why, recorded in the terminal fact
   * @return a stage with the terminal state, or a rejection
   */
  public CompletionStage<ResumeOutcome> stop(String runId, String reason) {
    return stop(runId, reason, Optional.empty());
  }

  /**
   * {@link #stop(String, String)} with the Run's end fenced by a durable dispatcher's claim, if
   * given.
   *
   * @param runId the Run
   * @param reason why, recorded in the terminal fact
   * @param claim the attempt's claim, if any
   * @return a stage with the terminal state, or a rejection
   */
  public CompletionStage<ResumeOutcome> stop(String runId, String reason, Optional<ClaimGuard> claim) {
    return halt(runId, EndCause.stopped(reason), TurnEngine.STOPPED, TurnEngine.stopped(reason), claim);
  }

  /**
   * Recovers a running Run no turn of this process drives, for a durable dispatcher's recovery
   * claim (gate specification §12.5.4 step 4): it ends {@code stopped("interrupted")}, as a turn a
   * crash cut does, since the runtime never runs a call twice.
   *
   * @param runId the Run
   * @param claim the recovery claim, if any
   * @return a stage with the Run's terminal state; it fails when no open agent holds the Run's
   *     session, when its turn is still open here, or when the end cannot be committed
   */
  public CompletionStage<RunState> recover(String runId, Optional<ClaimGuard> claim) {
    Optional<String> thread = engine.threadOf(runId);
    Optional<RuntimeAgent> agent = thread.flatMap(this::holder);
    if (agent.isEmpty()) {
      return CompletableFuture.failedFuture(new GateRuntimeException.Execution(
          "run " + runId + ": no open agent holds its session", null));
    }
    return engine.recoverOrphan(agent.get(), runId, claim);
  }

  /**
   * Ends a turn's Run {@code indeterminate} (gate specification §12.5.5: a durable dispatcher
   * spent its retry budget on it). A parked turn's waiting call reads {@code Error: stopped:
   * <reason>} and the turn ends {@code blocked}, as {@link #stop}; a turn still running the Run
   * (a tool that never returned) is cancelled once the end is committed, and ends {@code aborted}.
   *
   * @param runId the Run
   * @param reason why, shown to the model
   * @param claim the attempt's claim, if any
   * @return a stage with the terminal state, or a rejection
   */
  public CompletionStage<ResumeOutcome> endIndeterminate(String runId, String reason, Optional<ClaimGuard> claim) {
    Optional<String> thread = engine.threadOf(runId);
    Optional<RuntimeAgent> agent = thread.flatMap(this::holder);
    if (agent.isPresent() && parkedTicket(agent.get()).filter(t -> t.runId().equals(runId)).isEmpty()) {
      // a turn still running the Run (its tool never returned): end the Run, then cancel the turn
      return engine.endRunning(agent.get(), runId, EndCause.indeterminate(), reason, claim);
    }
    return halt(runId, EndCause.indeterminate(), TurnEngine.STOPPED, TurnEngine.stopped(reason), claim);
  }

  private CompletionStage<ResumeOutcome> halt(String runId, EndCause cause, String turnEndReason, ToolResult unanswered,
      Optional<ClaimGuard> claim) {
    Optional<String> thread = engine.threadOf(runId);
    if (thread.isEmpty()) {
      return CompletableFuture.completedFuture(notAwaiting());
    }
    Optional<RuntimeAgent> agent = holder(thread.get());
    if (agent.isEmpty()) {
      return CompletableFuture.completedFuture(notOpen(thread.get()));
    }
    return engine.halt(agent.get(), this, runId, cause, turnEndReason, unanswered, claim);
  }

  private synchronized Optional<RuntimeAgent> holder(String sessionId) {
    for (RuntimeAgent a : live.values()) {
      if (a.session().id().equals(sessionId)) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }

  private static ResumeOutcome notAwaiting() {
    return new ResumeOutcome.Rejected("notAwaiting", TurnEngine.NOT_AWAITING, GateRuntimeException.Category.EXECUTION);
  }

  private static ResumeOutcome notOpen(String threadId) {
    return new ResumeOutcome.Rejected("agentNotOpen",
        "no open agent holds session " + threadId + "; open it with openAgent first", GateRuntimeException.Category.EXECUTION);
  }

  /**
   * The committed ticket an agent's turn is parked on.
   *
   * @param agent the agent
   * @return the ticket, if parked
   */
  public Optional<ResumeTicket> parkedTicket(RuntimeAgent agent) {
    return engine.parkedTicket(agent);
  }

  /**
   * Every call a live agent's turn is parked on.
   *
   * @return the parked calls
   */
  public List<AwaitingCall> awaiting() {
    return engine.awaiting(all());
  }

  /**
   * Runs the pre-step waterfall: prepended listeners first, then the others, each in registration
   * order; the innermost decision is Enter with the proposal.
   */
  CompletionStage<StepDecision> preStep(RuntimeAgent agent, List<UserMessage> proposal, long turn, long step, AbortSignal signal) {
    List<PreStepListener> chain;
    synchronized (this) {
      chain = new ArrayList<>(prepended);
      chain.addAll(appended);
    }
    return link(chain, 0, agent, List.copyOf(proposal), turn, step, signal);
  }

  private static CompletionStage<StepDecision> link(
      List<PreStepListener> chain, int index, RuntimeAgent agent, List<UserMessage> proposal, long turn, long step, AbortSignal signal) {
    if (index == chain.size()) {
      return CompletableFuture.completedFuture(new StepDecision.Enter(proposal));
    }
    PreStep context = new PreStep() {
      @Override
      public Agent agent() {
        return agent;
      }

      @Override
      public List<UserMessage> messages() {
        return proposal;
      }

      @Override
      public long turn() {
        return turn;
      }

      @Override
      public long step() {
        return step;
      }

      @Override
      public AbortSignal signal() {
        return signal;
      }

      @Override
      public CompletionStage<StepDecision> next() {
        return link(chain, index + 1, agent, proposal, turn, step, signal);
      }
    };
    try {
      return chain.get(index).onPreStep(context);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}

package dev.horae.runtime.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.gate.AwaitReason;
import dev.horae.gate.AwaitTarget;
import dev.horae.gate.EndCause;
import dev.horae.gate.Failure;
import dev.horae.gate.PermissionDecision;
import dev.horae.gate.ResolvedExecutionEnv;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeError;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.ResumeValidation;
import dev.horae.gate.RunState;
import dev.horae.gate.ToolAwaitReason;
import dev.horae.gate.runtime.ClaimGuard;
import dev.horae.gate.runtime.CommitRejectedException;
import dev.horae.gate.runtime.CommitStoreException;
import dev.horae.gate.runtime.CommittedRun;
import dev.horae.gate.runtime.GateRuntimeException;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.gate.runtime.SessionCommitStore;
import dev.horae.gate.runtime.internal.ToolBatch;
import dev.horae.gate.runtime.internal.ToolCallPhase;
import dev.horae.gate.runtime.internal.ToolWaitKind;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.runtime.gate.TurnRun;
import dev.horae.runtime.tool.RuntimeToolRegistry;
import dev.horae.spi.AbortController;
import dev.horae.spi.HoraeException;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.StateView;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.jobs.PromptSections;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.model.FinishReason;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.StreamSink;
import dev.horae.spi.model.ToolSpec;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.Session;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolResult;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The turn algorithm of host contract §6.1 for one agent, with durable tool-call gates: turn and
 * step events in the contract's order, the pre-step waterfall, a request rebuilt from the durable
 * model-visible history (§6.3) with the system prompt, prompt sections and the visible tools, the
 * model step, every tool call through the gate chain and the tool registry, the turn-stopping
 * hook, and a {@code turn/end} on every exit path with reason {@code completed}, {@code blocked},
 * {@code aborted}, {@code error} or {@code max-tokens}.
 *
 * <p>Allow, block and set-result act at once. {@code requireConfirmation} and {@code schedule}
 * (without an action kind, or with one the gate plugins contribute), and a call of a
 * client-executed tool (which bypasses the gates, gate specification §8.4), park the turn: the
 * step's tool batch and a resume ticket for the exact call are committed to the session log as a
 * {@code gate/commit} (gate specification §8.1, §12.0), the turn stays open and the agent holds
 * no thread. {@link #resume} continues that same turn — the answered call,
 * the step's remaining calls through the gates again, then the next steps with their pre-step
 * readings. A {@code schedule}d call is performed by the dispatcher (at once when the engine
 * dispatches, or when the embedder asks), and after a restart on the same data the reopened
 * agent finds its parked call again. The embedder may instead end a parked turn's Run ({@link
 * #halt}: cancel or stop, gate specification §9.5).
 *
 * <p>The loop is iterative: each step is a stage that the next step chains onto only after it
 * completed, so a long turn never deepens the stack.
 */
public final class TurnEngine {

  /** The rejection text when no committed ticket can be answered (gate specification §9.4). */
  static final String NOT_AWAITING = "run is not awaiting";

  /** The tool result of a call a stopped process left without one. */
  static final String UNKNOWN_OUTCOME = "Error: tool outcome unknown: the process stopped before the call settled";

  private final RuntimeToolRegistry tools;
  private final ToolGates gates;
  private final WarningSink warnings;
  private final Supplier<Optional<PromptSections>> sections;
  private final SessionCommitStore commits;
  private final InstantSource clock;
  private final boolean dispatch;
  private final Optional<Duration> awaitDeadline;
  private final OptionalInt maxSteps;
  private final ResolvedExecutionEnv environment;
  private volatile java.util.function.Consumer<Session> tracker;

  /**
   * Creates the engine.
   *
   * @param tools the tool registry calls go to
   * @param gates the tool-gate chain run before each call
   * @param warnings where contained failures go
   * @param sections the prompt-section registry, looked up for every request (a host may provide
   *     it after the engine was built)
   * @param commits the commit store over the session logs, where parked calls are committed
   * @param clock the clock a perform reads for the ticket deadline
   * @param dispatch true to perform a {@code schedule}d call as soon as it is committed (and when
   *     a reopened agent finds one); false leaves it for {@link #performScheduled}
   * @param limits the ticket deadline (gate specification §11) and the turn's step ceiling
   * @param environment the merged gate plugins (gate specification §10.3): the action kinds a
   *     {@code schedule} outcome may name (§10.4)
   */
  public TurnEngine(RuntimeToolRegistry tools, ToolGates gates, WarningSink warnings, Supplier<Optional<PromptSections>> sections,
      SessionCommitStore commits, InstantSource clock, boolean dispatch, TurnLimits limits,
      ResolvedExecutionEnv environment) {
    this.tools = tools;
    this.gates = gates;
    this.warnings = warnings;
    this.sections = sections;
    this.commits = commits;
    this.clock = clock;
    this.dispatch = dispatch;
    this.awaitDeadline = limits.awaitDeadline();
    this.maxSteps = limits.maxSteps();
    this.environment = environment;
    this.tracker = commits::track;
  }

  /**
   * Sets what folds a reopened session's log before its agent reads it; by default the commit
   * store alone. A durable dispatch queue keeping its facts in the same log (gate specification
   * §12.5.6) must fold them too, or a restarted node would not see the dispatch records, cancel
   * intents and answers of the sessions it reopens.
   *
   * @param tracker folds the session (the queue's {@code track}, which folds the commits as well)
   */
  public void trackReopenedWith(java.util.function.Consumer<Session> tracker) {
    this.tracker = java.util.Objects.requireNonNull(tracker, "tracker");
  }

  ResolvedExecutionEnv environment() {
    return environment;
  }

  InstantSource clock() {
    return clock;
  }

  /** The session (thread) a committed Run lives in, if any Run of that id was committed. */
  Optional<String> threadOf(String runId) {
    return commits.view().committedRun(runId).map(c -> c.record().threadId());
  }

  RuntimeToolRegistry tools() {
    return tools;
  }

  ToolGates gates() {
    return gates;
  }

  /** {@code base} with the registered prompt sections appended: every model call's system prompt. */
  String systemPrompt(String base, RuntimeAgent agent) {
    return sections.get().map(s -> s.appendTo(base, agent)).orElse(base);
  }

  /** A failed model request. */
  static final class ModelFailure extends HoraeException {
    private static final long serialVersionUID = 1L;

    ModelFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** A gate outcome the runtime cannot honour (an action kind no environment permits). */
  static final class CapabilityBoundFailure extends HoraeException {
    private static final long serialVersionUID = 1L;

    CapabilityBoundFailure(String message) {
      super(message);
    }
  }

  /** How a step ended, for the loop. */
  private enum StepEnd { CONTINUE, CONCLUDED, MAX_TOKENS, PARKED }

  /** The reason a parked turn's stage completes with; never written to the log. */
  private static final String PARKED = "\u0000parked";

  // ---- entry points ----------------------------------------------------------------------------

  /** Runs one turn; the stage completes with true when the turn parked rather than ended. */
  CompletionStage<Boolean> runTurn(RuntimeAgent agent, RuntimeAgents registry) {
    Session session = agent.session();
    long turn = TurnLog.nextTurnNumber(session);
    Turn t = new Turn(agent, registry, turn, 1, TurnRun.fresh(commits, session.id(), turn), null, "");
    CompletableFuture<String> reason;
    try {
      TurnEvents.turnStart(session, turn);
      reason = t.drive(t.step());
    } catch (RuntimeException e) {
      reason = CompletableFuture.failedFuture(e);
    }
    return t.close(reason);
  }

  /**
   * Continues a parked turn with an answer (gate specification §6.4, §9.2). The command is checked
   * against the committed ticket first; a rejection is a value, commits nothing and runs no tool.
   * An accepted answer is pre-committed (consuming the ticket) before the tool runs, and the turn
   * then runs on until it parks again or ends.
   *
   * @param agent the agent whose session holds the Run
   * @param registry the agent registry (for the driver)
   * @param command the answer
   * @return a stage with the outcome: the Run's state when the turn parked again or ended, or the
   *     rejection
   */
  CompletionStage<ResumeOutcome> resume(RuntimeAgent agent, RuntimeAgents registry, ResumeCommand command) {
    return resume(agent, registry, command, Optional.empty());
  }

  /**
   * {@link #resume(RuntimeAgent, RuntimeAgents, ResumeCommand)} for a durable dispatcher's attempt
   * (gate specification §12.5.3): every commit of the continued turn is fenced by the claim, and
   * no tool is entered once the claim no longer owns the Run.
   *
   * @param agent the agent whose session holds the Run
   * @param registry the agent registry (for the driver)
   * @param command the answer
   * @param claim the dispatch claim, if a dispatcher's attempt answers
   * @return a stage with the outcome
   */
  CompletionStage<ResumeOutcome> resume(RuntimeAgent agent, RuntimeAgents registry, ResumeCommand command, Optional<ClaimGuard> claim) {
    Optional<CommittedRun> committed = commits.view().committedRun(command.runId());
    if (committed.isEmpty() || committed.get().record().ticket().isEmpty()
        || !committed.get().record().threadId().equals(agent.session().id())) {
      return rejected("notAwaiting", NOT_AWAITING, GateRuntimeException.Category.EXECUTION);
    }
    ResumeTicket ticket = committed.get().record().ticket().get();
    Optional<ResumeError> invalid = ResumeValidation.validate(ticket, command);
    if (invalid.isPresent()) {
      return rejected(invalid.get().code(), invalid.get().message(), GateRuntimeException.Category.EXECUTION);
    }
    List<JsonNode> freshContext = new ArrayList<>();
    List<UserMessage> context = new ArrayList<>();
    for (JsonNode m : command.contextMessages()) {
      // gate specification §6.4 step 3: a message already committed (same id, same payload) is a
      // replay and dropped; the same id with another payload is a conflict
      UserMessage message;
      try {
        message = UserMessage.fromJson(m);
      } catch (IllegalArgumentException e) {
        return rejected("invalidContext", "resume context message is not a user message: " + e.getMessage(),
            GateRuntimeException.Category.EXECUTION);
      }
      Optional<JsonNode> known = java.util.stream.Stream.concat(committed.get().messages().stream(), freshContext.stream())
          .filter(c -> c.path("id").asText().equals(message.id())).findFirst();
      if (known.isPresent() && !known.get().equals(m)) {
        return rejected("contextConflict", "resume context message " + message.id() + " conflicts with a committed message",
            GateRuntimeException.Category.EXECUTION);
      }
      if (known.isEmpty()) {
        freshContext.add(m);
        context.add(message);
      }
    }
    if (!ticket.snapshotId().equals(TurnRun.snapshotId(agent.id()))) {
      return rejected("snapshotNotFound", "snapshot for resume not found", GateRuntimeException.Category.RESOLUTION);
    }
    if (!ticket.catalogFingerprint().equals(fingerprint(agent))) {
      return rejected("fingerprintMismatch", "resume catalog fingerprint does not match the registered snapshot",
          GateRuntimeException.Category.RESOLUTION);
    }
    TurnRun run = TurnRun.committed(commits, committed.get());
    if (!(ticket.target() instanceof AwaitTarget.ToolCallTarget target) || run.batch().isEmpty()
        || run.batch().get().validateAwaitingTicket(ticket.threadId(), ticket).isPresent()) {
      return rejected("waitMismatch", "tool wait kind or correlation does not match", GateRuntimeException.Category.EXECUTION);
    }
    Optional<TurnLog.OpenTurn> open = TurnLog.openTurn(agent.session());
    if (open.isEmpty() || !TurnRun.runId(agent.session().id(), open.get().turn()).equals(ticket.runId()) || !agent.unpark()) {
      return rejected("notAwaiting", NOT_AWAITING, GateRuntimeException.Category.EXECUTION);
    }
    ToolBatch batch = run.batch().get();
    claim.ifPresent(g -> run.fencedBy(g.fence()));
    run.withContext(freshContext);
    Turn t = new Turn(agent, registry, open.get().turn(), batch.step(), run, open.get().trigger().orElse(null), open.get().finalText());
    CompletableFuture<ResumeOutcome> outcome = new CompletableFuture<>();
    t.answered = outcome;
    t.claim = claim.orElse(null);
    t.context = List.copyOf(context);
    registry.continueParked(agent, () -> t.close(t.drive(t.answer(batch, target, ticket, command.result()))));
    return outcome;
  }

  /**
   * Performs the parked scheduled action of an agent (gate specification §9.2): the command is
   * built from the committed ticket's own identity with a permission allow.
   *
   * @param agent the agent
   * @param registry the agent registry
   * @return a stage with the outcome; {@code notAwaiting} or {@code notScheduledAction} when there
   *     is nothing to perform
   */
  CompletionStage<ResumeOutcome> performScheduled(RuntimeAgent agent, RuntimeAgents registry) {
    return performScheduled(agent, registry, clock.millis(), Optional.empty());
  }

  /**
   * Performs the parked scheduled action of an agent for a caller with its own clock reading and,
   * for a durable dispatcher's attempt, its claim (see {@link #resume(RuntimeAgent, RuntimeAgents,
   * ResumeCommand, Optional)}).
   *
   * @param agent the agent
   * @param registry the agent registry
   * @param nowMs the caller's clock reading, for the ticket deadline
   * @param claim the dispatch claim, if any
   * @return a stage with the outcome
   */
  CompletionStage<ResumeOutcome> performScheduled(RuntimeAgent agent, RuntimeAgents registry, long nowMs, Optional<ClaimGuard> claim) {
    Optional<ResumeTicket> ticket = parkedTicket(agent);
    if (ticket.isEmpty()) {
      return rejected("notAwaiting", NOT_AWAITING, GateRuntimeException.Category.EXECUTION);
    }
    if (ticket.get().reason() != AwaitReason.SCHEDULED_ACTION) {
      return rejected("notScheduledAction", "run is not awaiting on a scheduled action", GateRuntimeException.Category.EXECUTION);
    }
    return resume(agent, registry, ResumeCommand.fromTicket(ticket.get(), ResumeResult.allow(), nowMs), claim);
  }

  /**
   * Ends a parked turn's Run by the embedder's word (gate specification §9.5): {@code
   * ended(cancelled)} or {@code ended(stopped(reason))} is committed through the Run's end — its
   * ticket is gone and its open batch sealed — every call of the step without a result gets
   * {@code unanswered}, and the turn ends with {@code turnEndReason}. A Run that has already
   * ended commits nothing and its terminal state is the answer.
   *
   * @param agent the agent whose session holds the Run
   * @param registry the agent registry (for the driver)
   * @param runId the Run
   * @param cause the terminal cause
   * @param turnEndReason the host {@code turn/end} reason (host contract §6.1)
   * @param unanswered the result of every call the ended turn leaves without one
   * @return a stage with the Run's terminal state, or {@code notAwaiting} when the Run is neither
   *     parked, nor ended, nor driven by this process right now (unknown, never committed)
   */
  CompletionStage<ResumeOutcome> halt(RuntimeAgent agent, RuntimeAgents registry, String runId, EndCause cause,
      String turnEndReason, ToolResult unanswered) {
    return halt(agent, registry, runId, cause, turnEndReason, unanswered, Optional.empty());
  }

  /**
   * {@link #halt(RuntimeAgent, RuntimeAgents, String, EndCause, String, ToolResult)} with the
   * Run's end fenced by a durable dispatcher's claim, if one is given.
   *
   * @param agent the agent whose session holds the Run
   * @param registry the agent registry (for the driver)
   * @param runId the Run
   * @param cause the terminal cause
   * @param turnEndReason the host {@code turn/end} reason (host contract §6.1)
   * @param unanswered the result of every call the ended turn leaves without one
   * @param claim the dispatch claim, if any
   * @return a stage with the Run's terminal state, or {@code notAwaiting}
   */
  CompletionStage<ResumeOutcome> halt(RuntimeAgent agent, RuntimeAgents registry, String runId, EndCause cause,
      String turnEndReason, ToolResult unanswered, Optional<ClaimGuard> claim) {
    Optional<CommittedRun> committed = commits.view().committedRun(runId);
    if (committed.isEmpty() || !committed.get().record().threadId().equals(agent.session().id())) {
      return rejected("notAwaiting", NOT_AWAITING, GateRuntimeException.Category.EXECUTION);
    }
    RunState state = committed.get().record().state();
    if (state.isTerminal()) {
      return CompletableFuture.completedFuture(new ResumeOutcome.Advanced(state));
    }
    Optional<TurnLog.OpenTurn> open = TurnLog.openTurn(agent.session());
    boolean ofOpenTurn = open.isPresent() && TurnRun.runId(agent.session().id(), open.get().turn()).equals(runId);
    if (committed.get().record().ticket().isEmpty() && ofOpenTurn && agent.driving()) {
      // a Run driven in this process right now (an answer or a perform running its calls) ends at
      // once, and its turn is cancelled so it stops at its next boundary (gate specification §9.5)
      return endRunning(agent, runId, cause, "run " + runId + " ended " + cause, claim);
    }
    if (committed.get().record().ticket().isEmpty() || !ofOpenTurn || !agent.unpark()) {
      return rejected("notAwaiting", NOT_AWAITING, GateRuntimeException.Category.EXECUTION);
    }
    TurnRun run = TurnRun.committed(commits, committed.get());
    claim.ifPresent(g -> run.fencedBy(g.fence()));
    long step = run.batch().map(ToolBatch::step).orElse(1);
    Turn t = new Turn(agent, registry, open.get().turn(), step, run, open.get().trigger().orElse(null), open.get().finalText());
    CompletableFuture<ResumeOutcome> outcome = new CompletableFuture<>();
    t.answered = outcome;
    t.endAs = cause;
    registry.continueParked(agent, () -> t.close(t.drive(t.halted(turnEndReason, unanswered))));
    return outcome;
  }

  /**
   * Ends a Run whose turn is running rather than parked, by a durable dispatcher's word (gate
   * specification §12.5.5: its retry budget is spent): {@code ended(cause)} is committed with the
   * open batch sealed, fenced by the claim, and then the running turn is cancelled, so it ends
   * {@code aborted} and its own end finds the Run ended already. A Run that has already ended
   * commits nothing and its terminal state is the answer.
   *
   * @param agent the agent whose session holds the Run
   * @param runId the Run
   * @param cause the terminal cause
   * @param reason why, the running turn's abort cause
   * @param claim the dispatch claim, if any
   * @return a stage with the Run's terminal state, or {@code notAwaiting} for a Run of another
   *     session or none; it fails when the end cannot be committed
   */
  CompletionStage<ResumeOutcome> endRunning(RuntimeAgent agent, String runId, EndCause cause, String reason, Optional<ClaimGuard> claim) {
    Optional<CommittedRun> committed = commits.view().committedRun(runId);
    if (committed.isEmpty() || !committed.get().record().threadId().equals(agent.session().id())) {
      return rejected("notAwaiting", NOT_AWAITING, GateRuntimeException.Category.EXECUTION);
    }
    if (committed.get().record().state().isTerminal()) {
      return CompletableFuture.completedFuture(new ResumeOutcome.Advanced(committed.get().record().state()));
    }
    TurnRun run = TurnRun.committed(commits, committed.get());
    claim.ifPresent(g -> run.fencedBy(g.fence()));
    return run.end(cause, false).thenApply(v -> {
      agent.cancelTurn(reason);
      return new ResumeOutcome.Advanced(RunState.ended(cause));
    });
  }

  /**
   * Recovers a running Run that no turn of this process drives (a durable dispatcher's recovery
   * claim, gate specification §12.5.4 step 4): the turn that drove it has ended — its last commits
   * were fenced once its attempt's claim was lost — so nothing will end the Run but this. The
   * runtime never runs a call twice (recovery policy {@code neverReplay}), so, as for a turn a
   * crash cut, the Run ends {@code stopped("interrupted")} with its open batch sealed, fenced by
   * the claim. A Run whose turn is still open here (driven, parked or left for the next open) is
   * refused with a failed stage, and the dispatcher leaves the claim for its lease.
   *
   * @param agent the agent whose session holds the Run
   * @param runId the Run
   * @param claim the recovery claim, if any
   * @return a stage with the Run's terminal state
   */
  CompletionStage<RunState> recoverOrphan(RuntimeAgent agent, String runId, Optional<ClaimGuard> claim) {
    Optional<CommittedRun> committed = commits.view().committedRun(runId);
    if (committed.isEmpty() || !committed.get().record().threadId().equals(agent.session().id())) {
      return CompletableFuture.failedFuture(new GateRuntimeException.Execution("run " + runId + " has no committed state", null));
    }
    RunState state = committed.get().record().state();
    if (state.isTerminal()) {
      return CompletableFuture.completedFuture(state);
    }
    Optional<TurnLog.OpenTurn> open = TurnLog.openTurn(agent.session());
    if (open.isPresent() && TurnRun.runId(agent.session().id(), open.get().turn()).equals(runId)) {
      return CompletableFuture.failedFuture(new GateRuntimeException.Execution(
          "run " + runId + " is running in a turn of this process; it is not recovered beside it", null));
    }
    EndCause cause = TurnRun.causeOf("interrupted");
    TurnRun run = TurnRun.committed(commits, committed.get());
    claim.ifPresent(g -> run.fencedBy(g.fence()));
    return run.end(cause, false).thenApply(v -> RunState.ended(cause));
  }

  /**
   * The call an agent's open turn is parked on, if any.
   *
   * @param agent the agent
   * @return the committed ticket of its open turn's Run
   */
  Optional<ResumeTicket> parkedTicket(RuntimeAgent agent) {
    return TurnLog.openTurn(agent.session())
        .flatMap(open -> commits.view().resumeTicket(TurnRun.runId(agent.session().id(), open.turn())));
  }

  /**
   * Every parked call of the given agents.
   *
   * @param agents the agents
   * @return their parked calls
   */
  List<AwaitingCall> awaiting(List<RuntimeAgent> agents) {
    List<AwaitingCall> out = new ArrayList<>();
    for (RuntimeAgent a : agents) {
      parkedTicket(a).flatMap(AwaitingCall::of).ifPresent(out::add);
    }
    return out;
  }

  /**
   * Reopens a resumed agent's log before anything else sees the agent: a turn parked on a
   * committed ticket stays open and the agent parked (its scheduled action is performed when the
   * engine dispatches); any other open turn — one a crash cut — is closed (host contract §6.1,
   * reason {@code interrupted}): each of its calls without a result gets the unknown-outcome
   * result, so the history stays well formed, the open step is closed, and a Run it committed gets
   * its terminal fact.
   *
   * @param agent the new agent
   * @param registry the agent registry
   */
  void reopen(RuntimeAgent agent, RuntimeAgents registry) {
    Session session = agent.session();
    // folded first: a Run whose turn is over may still hold a dispatch record to recover
    tracker.accept(session);
    Optional<TurnLog.OpenTurn> open = TurnLog.openTurn(session);
    if (open.isEmpty()) {
      return;
    }
    String runId = TurnRun.runId(session.id(), open.get().turn());
    Optional<CommittedRun> committed = commits.view().committedRun(runId);
    if (committed.isPresent() && committed.get().record().ticket().isPresent()) {
      agent.restoreParked();
      AwaitingCall.of(committed.get().record().ticket().get()).ifPresent(registry::awaiting);
      if (dispatch && committed.get().record().ticket().get().reason() == AwaitReason.SCHEDULED_ACTION) {
        agent.defer(() -> dispatchQuietly(agent, registry));
      }
      return;
    }
    closeOpenStep(session, open.get(), ToolResult.error(UNKNOWN_OUTCOME, Optional.empty()));
    if (committed.isPresent()) {
      // appended now, before turn/end; its flush completes on its own
      var unused = TurnRun.committed(commits, committed.get()).end(TurnRun.causeOf("interrupted"), false).exceptionally(e -> {
        warnings.warn("the interrupted turn's run " + runId + " could not be ended", Optional.of(e));
        return null;
      });
    }
    TurnEvents.turnEnd(session, open.get().turn(), "interrupted");
  }

  private void dispatchQuietly(RuntimeAgent agent, RuntimeAgents registry) {
    var unused = performScheduled(agent, registry).whenComplete((outcome, failure) -> {
      if (failure != null) {
        warnings.warn("scheduled action of " + agent.id() + " failed", Optional.of(failure));
      } else if (outcome instanceof ResumeOutcome.Rejected r && r.code().equals("expired")) {
        // the dispatcher stops an action found past its deadline (gate specification §11, §15 D-08)
        parkedTicket(agent).ifPresent(ticket -> stopExpired(agent, registry, ticket.runId()));
      } else if (outcome instanceof ResumeOutcome.Rejected r) {
        warnings.warn("scheduled action of " + agent.id() + " was not performed: " + r.display(), Optional.empty());
      }
    });
  }

  /** The stop reason of a scheduled action the dispatcher found past its deadline. */
  static final String EXPIRED_ACTION = "scheduled action expired";

  private void stopExpired(RuntimeAgent agent, RuntimeAgents registry, String runId) {
    var unused = halt(agent, registry, runId, EndCause.stopped(EXPIRED_ACTION), STOPPED, stopped(EXPIRED_ACTION))
        .whenComplete((outcome, failure) -> {
          if (failure != null) {
            warnings.warn("the expired scheduled action of " + agent.id() + " could not be stopped", Optional.of(failure));
          }
        });
  }

  /** The {@code turn/end} reason of a turn whose Run the host stopped (a policy refused it further steps). */
  static final String STOPPED = "blocked";

  /** The turn/end reason of a turn whose Run was cancelled (host contract §6.1). */
  static final String CANCELLED = "aborted";

  /**
   * The {@code turn/end} reason of a turn its step ceiling stopped: the host contract's closed set
   * of reasons (host contract §6.1) has no own one, and like a stop the turn was refused further steps.
   */
  static final String MAX_STEPS = STOPPED;

  /**
   * The result of a call that a stopped Run leaves without one.
   *
   * @param reason the stop reason
   * @return {@code Error: stopped: <reason>}
   */
  static ToolResult stopped(String reason) {
    return ToolResult.error("Error: stopped: " + reason, Optional.of(ToolResult.ABORTED));
  }

  private static CompletionStage<ResumeOutcome> rejected(String code, String message, GateRuntimeException.Category category) {
    return CompletableFuture.completedFuture(new ResumeOutcome.Rejected(code, message, category));
  }

  // ---- one turn --------------------------------------------------------------------------------

  /** The steps of one turn, chained one stage after another; also the continuation of a parked one. */
  private final class Turn {
    private final RuntimeAgent agent;
    private final RuntimeAgents registry;
    private final long turn;
    private final AbortController signal;
    private final TurnRun run;
    private final CompletableFuture<String> done = new CompletableFuture<>();
    private long step;
    private boolean concluded;
    /** The message that opened the turn. */
    @Nullable UserMessage trigger;
    /** The last assistant text so far. */
    String finalText;
    /** The answer whose outcome waits for this continuation to park again or end. */
    @Nullable CompletableFuture<ResumeOutcome> answered;
    /** The ticket committed when the turn parked. */
    @Nullable ResumeTicket parkedOn;
    /** The Run's terminal cause when the embedder ended it, in place of the one the reason maps to. */
    @Nullable EndCause endAs;
    /** The dispatch claim of the durable dispatcher's attempt that continues this turn, if any. */
    @Nullable ClaimGuard claim;
    /** The answer's context messages, read by the model from the next step once the answer's first commit landed. */
    List<UserMessage> context = List.of();

    Turn(RuntimeAgent agent, RuntimeAgents registry, long turn, long step, TurnRun run, @Nullable UserMessage trigger, String finalText) {
      this.agent = agent;
      this.registry = registry;
      this.turn = turn;
      this.step = step;
      this.run = run;
      this.trigger = trigger;
      this.finalText = finalText;
      this.signal = agent.beginTurn();
    }

    /** Runs {@code first}, then one step after another until the turn ends or parks. */
    CompletableFuture<String> drive(CompletionStage<Optional<String>> first) {
      follow(first);
      return done;
    }

    private void follow(CompletionStage<Optional<String>> current) {
      var unused = current.whenComplete((end, failure) -> {
        if (failure != null) {
          done.completeExceptionally(failure);
        } else if (end.isPresent()) {
          done.complete(end.get());
        } else {
          step++;
          CompletionStage<Optional<String>> next;
          try {
            next = step();
          } catch (RuntimeException e) {
            next = CompletableFuture.failedFuture(e);
          }
          follow(next);
        }
      });
    }

    /** One step; an empty result means "go on with the next step". */
    CompletionStage<Optional<String>> step() {
      if (signal.aborted()) {
        return end("aborted");
      }
      List<UserMessage> claimed = agent.claim(step == 1, turn);
      if (step == 1 && !claimed.isEmpty()) {
        trigger = claimed.get(0);
      }
      return registry.preStep(agent, claimed, turn, step, signal).thenCompose(decision -> {
        if (signal.aborted()) {
          return end("aborted");
        }
        if (decision instanceof StepDecision.Reject) {
          return end("blocked");
        }
        List<UserMessage> messages = ((StepDecision.Enter) decision).messages();
        if (messages.isEmpty() && (step == 1 || concluded)) {
          return end("completed");
        }
        TurnEvents.stepStart(agent.session(), turn, step, messages);
        return afterModelStep(modelStep());
      });
    }

    /** Closes the step a model answer (or a resumed batch) ended, and decides what comes next. */
    private CompletionStage<Optional<String>> afterModelStep(CompletionStage<StepEnd> stepEnd) {
      return stepEnd.handle((end, failure) -> {
        if (failure == null && end == StepEnd.PARKED) {
          return end(PARKED);
        }
        TurnEvents.stepEnd(agent.session(), turn, step);
        if (failure != null) {
          return CompletableFuture.<Optional<String>>failedFuture(failure);
        }
        if (signal.aborted()) {
          return end("aborted");
        }
        if (end == StepEnd.MAX_TOKENS) {
          return end("max-tokens");
        }
        concluded = end == StepEnd.CONCLUDED;
        if (!concluded && maxSteps.isPresent() && step >= maxSteps.getAsInt()) {
          // the loop's own ceiling (gate specification §9.5): the turn stops after its last
          // allowed step, and its Run ends maxSteps
          endAs = EndCause.maxSteps();
          return end(MAX_STEPS);
        }
        if (concluded && !agent.hasNextStepInput()) {
          registry.turnStopping(agent, turn);
          if (!agent.hasNextStepInput()) {
            return end("completed");
          }
        }
        return CompletableFuture.completedFuture(Optional.<String>empty());
      }).thenCompose(s -> s);
    }

    private CompletionStage<Optional<String>> end(String reason) {
      return CompletableFuture.completedFuture(Optional.of(reason));
    }

    /**
     * The first stage of a resumed turn: the pre-commit (which consumes the ticket), the answered
     * call, the rest of the step's batch, then the step's close.
     */
    CompletionStage<Optional<String>> answer(ToolBatch batch, AwaitTarget.ToolCallTarget target, ResumeTicket ticket, ResumeResult result) {
      ToolCall call = target.toolCall().orElseThrow();
      CompletionStage<Void> pre;
      Supplier<CompletionStage<ToolResult>> outcome;
      if (result instanceof ResumeResult.ToolResult client) {
        // the client ran it (gate specification §8.4): its output reads as a gate's set result would
        ToolResult supplied = ToolResult.ofGate(GateOutcome.setResult(client.output()));
        pre = run.supply(call, client.output());
        outcome = () -> CompletableFuture.completedFuture(supplied);
      } else if (result instanceof ResumeResult.Permission p && p.decision() instanceof PermissionDecision.Deny d) {
        ToolResult blocked = ToolResult.ofGate(GateOutcome.block(d.reason().orElse("denied")));
        pre = run.deny(call, output(call.callId(), blocked));
        outcome = () -> CompletableFuture.completedFuture(blocked);
      } else {
        pre = run.approve(call, ToolWaitKind.of(target.kind()), ticket.correlationId());
        outcome = () -> invoke(call);
      }
      return pre.handle((v, failure) -> {
        if (failure != null) {
          Throwable c = unwrap(failure);
          if (c instanceof CommitRejectedException cr && (cr.code().equals("runHeadMoved") || cr.code().equals("terminalFinal"))) {
            throw new LostRace("notAwaiting", NOT_AWAITING);
          }
          if (c instanceof CommitRejectedException cr && cr.code().equals("fenced")) {
            // a dispatcher's attempt whose claim was superseded (gate specification §12.5.3): the
            // ticket is untouched and the turn stays parked for the claim's current owner
            throw new LostRace("fenced", Objects.requireNonNullElse(cr.getMessage(), "the dispatch claim is no longer current"));
          }
          throw new CompletionException(c);
        }
        // the context committed with the answer reaches the model as the next step's input
        context.forEach(agent::inject);
        return null;
      }).thenCompose(v -> {
        return outcome.get().thenCompose(r -> {
          settle(call, r);
          List<ToolCall> calls = batch.calls().stream().map(c -> c.call()).toList();
          Map<String, ToolOutput> settled = settledOutputs(batch);
          settled.put(call.callId(), output(call.callId(), r));
          int next = calls.indexOf(call) + 1;
          return afterModelStep(runCalls(calls, next, settled).thenApply(parked -> parked ? StepEnd.PARKED : StepEnd.CONTINUE));
        });
      });
    }

    /**
     * The only stage of a parked turn the embedder ends: the step's calls without a result get
     * {@code unanswered} and the step is closed, then the turn ends with {@code reason}.
     */
    CompletionStage<Optional<String>> halted(String reason, ToolResult unanswered) {
      TurnLog.openTurn(agent.session()).ifPresent(o -> closeOpenStep(agent.session(), o, unanswered));
      return end(reason);
    }

    // ---- the model step ------------------------------------------------------------------------

    private CompletionStage<StepEnd> modelStep() {
      Session session = agent.session();
      ModelPort model = agent.model();
      if (model == null) {
        return CompletableFuture.failedFuture(new IllegalStateException("agent " + agent.id() + " has no model"));
      }
      TurnEvents.requestHeader(session, turn, step);
      AtomicBoolean open = new AtomicBoolean(true);
      AtomicBoolean streamed = new AtomicBoolean();
      StreamSink sink = text -> {
        // pieces that arrive after the response completed would land after assistant/message
        if (open.get() && !text.isEmpty()) {
          streamed.set(true);
          TurnEvents.chunk(session, turn, step, text);
        }
      };
      ModelRequest request = new ModelRequest(agent.id(), session.id(), turn, step, systemPrompt(agent),
          agent.history(session.events()), toolSpecs(agent), signal, sink);
      CompletionStage<ModelResponse> answer;
      try {
        answer = model.complete(request);
      } catch (RuntimeException e) {
        answer = CompletableFuture.failedFuture(e);
      }
      return answer.handle((response, failure) -> {
        open.set(false);
        if (failure != null) {
          return CompletableFuture.<StepEnd>failedFuture(new ModelFailure("model request failed", failure));
        }
        if (!response.text().isEmpty()) {
          finalText = response.text();
        }
        return record(response, streamed.get());
      }).thenCompose(s -> s);
    }

    private CompletionStage<StepEnd> record(ModelResponse response, boolean streamed) {
      Session session = agent.session();
      if (!response.text().isEmpty() && !streamed) {
        TurnEvents.chunk(session, turn, step, response.text());
      }
      TurnEvents.assistant(session, turn, step, response);
      if (response.finish() == FinishReason.MAX_TOKENS) {
        // a response cut at the token limit is not acted on: its calls may be incomplete
        return CompletableFuture.completedFuture(StepEnd.MAX_TOKENS);
      }
      if (response.toolCalls().isEmpty()) {
        return CompletableFuture.completedFuture(StepEnd.CONCLUDED);
      }
      return runCalls(response.toolCalls(), 0, new HashMap<>()).thenApply(parked -> parked ? StepEnd.PARKED : StepEnd.CONTINUE);
    }

    // ---- tool calls ----------------------------------------------------------------------------

    /** Runs {@code calls[from..]} in model order; completes with true when one of them parked the turn. */
    private CompletionStage<Boolean> runCalls(List<ToolCall> calls, int from, Map<String, ToolOutput> settled) {
      CompletionStage<Boolean> chain = CompletableFuture.completedFuture(false);
      for (int i = from; i < calls.size(); i++) {
        ToolCall c = calls.get(i);
        chain = chain.thenCompose(parked -> parked ? CompletableFuture.completedFuture(true) : callTool(calls, c, settled));
      }
      return chain;
    }

    private CompletionStage<Boolean> callTool(List<ToolCall> calls, ToolCall call, Map<String, ToolOutput> settled) {
      if (tools.isClientExecuted(agent, call.toolId())) {
        // a client-executed tool bypasses the gate chain and waits on the client's result for this
        // exact call id (gate specification §8.4); the host never runs it
        TurnEvents.toolCall(agent.session(), turn, step, call);
        return park(calls, call, settled, ToolAwaitReason.CLIENT_EXECUTION, call.callId(), Optional.empty());
      }
      return GatedCall.call(agent.session(), turn, step, call, gates.gates(), new View(), environment, new GatedCall.Steps<Boolean>() {
        @Override
        public CompletionStage<ToolResult> run(ToolCall c) {
          return invoke(c);
        }

        @Override
        public Boolean answered(ToolCall c, ToolResult r) {
          run.settled(c.callId(), output(c.callId(), r));
          settled.put(c.callId(), output(c.callId(), r));
          return false;
        }

        @Override
        public CompletionStage<Boolean> park(ToolCall c, GateOutcome outcome) {
          String correlationId = outcome instanceof GateOutcome.RequireConfirmation rc ? rc.correlationId()
              : ((GateOutcome.Schedule) outcome).correlationId();
          ToolAwaitReason reason = outcome instanceof GateOutcome.Schedule ? ToolAwaitReason.SCHEDULED_ACTION : ToolAwaitReason.PERMISSION;
          return Turn.this.park(calls, c, settled, reason, correlationId, Optional.of(outcome.auditLabel()));
        }

        @Override
        public CompletionStage<Boolean> refuse(ToolCall c, GateOutcome.Schedule outcome, String refusal) {
          // the call never runs, the model sees why, and the Run ends capability-bound
          settle(c, ToolResult.blocked(refusal));
          return CompletableFuture.failedFuture(new CapabilityBoundFailure(refusal));
        }

        @Override
        public Optional<ToolResult> failedRun(Throwable cause) {
          // the turn fails; its end answers the call with the unknown outcome
          return Optional.empty();
        }
      });
    }

    private CompletionStage<Boolean> park(List<ToolCall> calls, ToolCall call, Map<String, ToolOutput> settled,
        ToolAwaitReason reason, String correlationId, Optional<String> auditLabel) {
      OptionalLong deadline = awaitDeadline.map(d -> OptionalLong.of(clock.millis() + d.toMillis())).orElse(OptionalLong.empty());
      return run.park((int) step, calls, settled, call, reason, correlationId, auditLabel,
          TurnRun.snapshotId(agent.id()), fingerprint(agent), deadline).thenApply(ticket -> {
            parkedOn = ticket;
            return true;
          });
    }

    private CompletionStage<ToolResult> invoke(ToolCall call) {
      ClaimGuard guard = claim;
      if (guard != null && !guard.ownsExecution().getAsBoolean()) {
        // LEASE-06: an attempt whose claim lapsed or was superseded never enters a tool
        return CompletableFuture.failedFuture(new GateRuntimeException.Execution(ClaimGuard.lostOwnership(run.runId()), null));
      }
      return tools.call(new dev.horae.spi.tool.ToolInvocation(agent, call), signal);
    }

    private void settle(ToolCall call, ToolResult result) {
      TurnEvents.toolResult(agent.session(), turn, step, call.callId(), call.toolId(), result);
      run.settled(call.callId(), output(call.callId(), result));
    }

    // ---- the end -------------------------------------------------------------------------------

    /**
     * Ends the turn (or parks it): {@code turn/end} with the reason, the Run's terminal fact when
     * it committed anything, the turn listeners; or, for a parked turn, the agent parked and the
     * scheduled action dispatched. Completes when that is done, never exceptionally: with true when
     * the turn is parked (again), so the driver that ran it lets go without touching the phase — an
     * answer given meanwhile (from an awaiting listener, say) already drives the turn on.
     */
    CompletionStage<Boolean> close(CompletableFuture<String> reason) {
      return reason.handle((r, failure) -> {
        if (failure != null && unwrap(failure) instanceof LostRace lost) {
          // another answer consumed the ticket first, or the claim was fenced: nothing was written,
          // the turn stays parked
          agent.endTurn();
          agent.repark();
          complete(new ResumeOutcome.Rejected(lost.code, lost.text, GateRuntimeException.Category.EXECUTION));
          return CompletableFuture.completedFuture(true);
        }
        if (failure == null && PARKED.equals(r)) {
          agent.endTurn();
          agent.park();
          complete(new ResumeOutcome.Advanced(RunState.awaiting()));
          ResumeTicket ticket = parkedOn;
          if (ticket != null) {
            AwaitingCall.of(ticket).ifPresent(registry::awaiting);
          }
          if (dispatch && ticket != null && ticket.reason() == AwaitReason.SCHEDULED_ACTION) {
            agent.defer(() -> dispatchQuietly(agent, registry));
          }
          return CompletableFuture.completedFuture(true);
        }
        return finish(r, failure).thenApply(v -> false);
      }).thenCompose(s -> s);
    }

    private CompletionStage<Void> finish(@Nullable String r, @Nullable Throwable failure) {
      Session session = agent.session();
      Throwable cause = failure == null ? null : unwrap(failure);
      String why = cause == null && r != null ? r : signal.aborted() ? "aborted" : "error";
      if (cause != null && !signal.aborted()) {
        warnings.warn("turn " + turn + " of " + agent.id() + " failed", Optional.of(cause));
      }
      EndCause endCause = endAs != null && cause == null ? endAs
          : cause instanceof CapabilityBoundFailure ? EndCause.error(Failure.capabilityBound()) : TurnRun.causeOf(why);
      RunState state = RunState.ended(endCause);
      boolean ended = true;
      CompletionStage<Void> terminal;
      try {
        Optional<TurnLog.OpenTurn> open = cause == null ? Optional.empty() : TurnLog.openTurn(session);
        // a failure can leave a step open and calls unanswered (a resumed batch, a failed park)
        open.ifPresent(o -> closeOpenStep(session, o, ToolResult.error(UNKNOWN_OUTCOME, Optional.empty())));
        // the Run's terminal fact is appended before turn/end (its flush may finish later), so a
        // turn/end is always the last event of a finished turn; a refused action kind ends the
        // Run even when it committed nothing before (gate specification §9.1 step 2)
        terminal = run.end(endCause, cause instanceof CapabilityBoundFailure);
        TurnEvents.turnEnd(session, turn, why);
      } catch (RuntimeException e) {
        ended = false;
        terminal = CompletableFuture.completedFuture(null);
        warnings.warn("turn/end could not be appended for " + agent.id(), Optional.of(e));
      }
      boolean wasEnded = ended;
      return terminal.handle((v, e) -> {
        agent.endTurn();
        // terminal observers hear of an end only once it is committed (gate specification §5.6 step 5)
        if (wasEnded && e == null) {
          registry.turnEnded(new TurnOutcome(agent.id(), session.id(), turn, why, Optional.ofNullable(trigger), finalText));
        }
        if (e != null) {
          warnings.warn("the terminal fact of run " + run.runId() + " could not be committed", Optional.of(e));
          // persistence uncertain is never reported as an end: the answer fails, and a durable
          // dispatcher retries the Run after its lease (gate specification §12.0)
          Throwable stored = unwrap(e);
          fail(stored instanceof GateRuntimeException g ? g
              : new CommitStoreException("the end of run " + run.runId() + " could not be made durable", stored));
        } else {
          // the committed end is the answer: a cancel or stop given while the turn ran ended the
          // Run before the turn's own end found it ended
          complete(new ResumeOutcome.Advanced(commits.view().committedRun(run.runId()).map(c -> c.record().state())
              .filter(RunState::isTerminal).orElse(state)));
        }
        return null;
      });
    }

    private void complete(ResumeOutcome outcome) {
      CompletableFuture<ResumeOutcome> waiter = answered;
      if (waiter != null) {
        waiter.complete(outcome);
      }
    }

    private void fail(GateRuntimeException uncertain) {
      CompletableFuture<ResumeOutcome> waiter = answered;
      if (waiter != null) {
        waiter.completeExceptionally(uncertain);
      }
    }

    /** The read-only Run view a gate sees. */
    private final class View implements StateView {
      @Override
      public String runId() {
        return run.runId();
      }

      @Override
      public String threadId() {
        return agent.session().id();
      }

      @Override
      public int step() {
        return (int) step;
      }

      @Override
      public Optional<JsonNode> state(String key) {
        return Optional.ofNullable(commits.view().committedRunState(run.runId()).get(key)).map(JsonNode::deepCopy);
      }
    }
  }

  /** The pre-commit did not land: another answer consumed the ticket first, or the attempt's claim was fenced. */
  private static final class LostRace extends HoraeException {
    private static final long serialVersionUID = 1L;

    /** The rejection code the answer gets. */
    final String code;
    /** The rejection message the answer gets. */
    final String text;

    LostRace(String code, String text) {
      super(text);
      this.code = code;
      this.text = text;
    }
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private static Map<String, ToolOutput> settledOutputs(ToolBatch batch) {
    Map<String, ToolOutput> out = new HashMap<>();
    for (var c : batch.calls()) {
      if (c.phase() instanceof ToolCallPhase.Completed done) {
        out.put(c.call().callId(), done.output());
      }
    }
    return out;
  }

  private static ToolOutput output(String callId, ToolResult result) {
    return new ToolOutput(callId, TextNode.valueOf(result.text()), result.isError());
  }

  private String systemPrompt(RuntimeAgent agent) {
    return systemPrompt(agent.systemPrompt(), agent);
  }

  private List<ToolSpec> toolSpecs(RuntimeAgent agent) {
    return tools.visibleTo(agent).stream().map(ToolSpec::of).toList();
  }

  private String fingerprint(RuntimeAgent agent) {
    return TurnRun.fingerprint(tools.visibleTo(agent).stream().map(ToolDefinition::name).toList());
  }

  static Throwable unwrap(Throwable t) {
    Throwable c = t;
    while (c instanceof CompletionException && c.getCause() != null) {
      c = c.getCause();
    }
    return c;
  }

  /**
   * Closes the open step of an open turn: every call of the turn without a result gets {@code
   * unanswered} (a model request must never carry a call without its result), and the open step
   * gets its {@code step/end}.
   */
  private static void closeOpenStep(Session session, TurnLog.OpenTurn open, ToolResult unanswered) {
    long turn = open.turn();
    for (Map.Entry<String, String> call : open.unanswered().entrySet()) {
      TurnEvents.toolResult(session, turn, Math.max(open.openStep(), 1), call.getKey(), call.getValue(),
          unanswered);
    }
    if (open.openStep() > 0) {
      TurnEvents.stepEnd(session, turn, open.openStep());
    }
  }
}

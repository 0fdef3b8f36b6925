package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.AwaitReason;
import dev.horae.gate.AwaitTarget;
import dev.horae.gate.EndCause;
import dev.horae.gate.Failure;
import dev.horae.gate.Plugin;
import dev.horae.gate.PermissionDecision;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeError;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.ResumeValidation;
import dev.horae.gate.RunState;
import dev.horae.gate.ToolAwaitReason;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.gate.ToolOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The run engine (gate specification §13): executes Runs over the host's {@link Inference} and
 * {@link ToolExecutor}, gates every tool call (per-Run policy, then the host's {@link ToolGates}
 * chain, then the selected plugins' gates in dependency order), and commits every transition
 * through one finish boundary. Perform and resume read tickets only from the committed view;
 * rejections are {@link ResumeOutcome.Rejected} values and run no tool.
 */
public final class AgentRuntime implements DispatchTarget {

  private static final String NOT_AWAITING = "run is not awaiting";

  /** The Run-scoped state key recording which snapshot a Run executes (for recovery). */
  static final String SNAPSHOT_KEY = "runtime.snapshot_id.v1";

  private final Inference inference;
  private final ToolExecutor executor;
  private final ToolGates hostGates;
  private final List<Plugin> plugins;
  private final RunListener listener;
  private final Map<String, AgentSnapshot> snapshots = new ConcurrentHashMap<>();

  private AgentRuntime(Builder b) {
    this.inference = Objects.requireNonNull(b.inference, "inference");
    this.executor = Objects.requireNonNull(b.executor, "executor");
    this.hostGates = b.hostGates;
    this.plugins = List.copyOf(b.plugins);
    this.listener = b.listener;
  }

  /**
   * Starts a builder.
   *
   * @param inference the model port
   * @param executor the tool executor
   * @return the builder
   */
  public static Builder builder(Inference inference, ToolExecutor executor) {
    return new Builder(inference, executor);
  }

  /** Configures an {@link AgentRuntime}. */
  public static final class Builder {
    private final Inference inference;
    private final ToolExecutor executor;
    private ToolGates hostGates = ToolGates.create();
    private final List<Plugin> plugins = new ArrayList<>();
    private RunListener listener = RunListener.none();

    private Builder(Inference inference, ToolExecutor executor) {
      this.inference = inference;
      this.executor = executor;
    }

    /**
     * The host's gate chain (host gate, then host-registered gates).
     *
     * @param gates the chain
     * @return this builder
     */
    public Builder gates(ToolGates gates) {
      this.hostGates = Objects.requireNonNull(gates, "gates");
      return this;
    }

    /**
     * Makes a plugin available; a snapshot selects plugins by id.
     *
     * @param plugin the plugin
     * @return this builder
     */
    public Builder plugin(Plugin plugin) {
      plugins.add(Objects.requireNonNull(plugin, "plugin"));
      return this;
    }

    /**
     * Receives live facts and terminal notifications.
     *
     * @param l the listener
     * @return this builder
     */
    public Builder listener(RunListener l) {
      this.listener = Objects.requireNonNull(l, "listener");
      return this;
    }

    /**
     * Builds the runtime.
     *
     * @return the runtime
     */
    public AgentRuntime build() {
      return new AgentRuntime(this);
    }
  }

  Inference inference() {
    return inference;
  }

  ToolExecutor executor() {
    return executor;
  }

  ToolGates hostGates() {
    return hostGates;
  }

  List<Plugin> plugins() {
    return plugins;
  }

  void emit(JsonNode event) {
    try {
      listener.onEvent(event);
    } catch (RuntimeException ignored) {
      // live facts are best-effort and never change a Run
    }
  }

  void terminal(String runId, RunState state) {
    try {
      listener.onTerminal(runId, state);
    } catch (RuntimeException ignored) {
      // a failing observer never undoes the committed end
    }
  }

  /**
   * Registers an executable snapshot (replacing one with the same id).
   *
   * @param snapshot the snapshot
   */
  public void registerSnapshot(AgentSnapshot snapshot) {
    snapshots.put(snapshot.id(), snapshot);
  }

  /**
   * A registered snapshot.
   *
   * @param id the snapshot id
   * @return the snapshot, if registered
   */
  public Optional<AgentSnapshot> snapshot(String id) {
    return Optional.ofNullable(snapshots.get(id));
  }

  /**
   * Executes a new Run until it awaits or ends. An environment that violates a plugin bound ends
   * the Run {@code error(capabilityBound)} before any model call.
   *
   * @param activation the input
   * @param context store, cancellation, policy
   * @return a stage with the Run's state; it fails with {@link GateRuntimeException} when the
   *     snapshot is unknown, the Run already exists, or a commit fails
   */
  @Override
  public CompletionStage<RunState> execute(RunActivation activation, RunContext context) {
    AgentSnapshot snap = snapshots.get(activation.snapshotId());
    if (snap == null) {
      return CompletableFuture.failedFuture(new GateRuntimeException.Resolution(
          "snapshot " + activation.snapshotId() + " not found"));
    }
    if (context.store().isPresent() && context.store().get().view().run(activation.runId()).isPresent()) {
      return CompletableFuture.failedFuture(new GateRuntimeException.Execution(
          "run " + activation.runId() + " already exists", null));
    }
    RunDriver d = new RunDriver(this, context, activation.runId(), activation.threadId(), snap, 0L,
        context.store().map(s -> s.view().committedMessages(activation.threadId())).orElse(List.of()),
        Optional.empty(), 0);
    d.stage(new StateCommand(SNAPSHOT_KEY, RunDriver.text(snap.id())));
    if (!d.resolveEnv()) {
      return d.end(EndCause.error(Failure.capabilityBound()), List.of());
    }
    var input = dev.horae.spi.session.Json.mapper().createObjectNode();
    input.put("role", "user");
    input.put("content", activation.input());
    return d.commit(new RunDisposition.Running(activation.runId()), List.of(input), List.of())
        .thenCompose(v -> d.runSteps())
        .handle((state, err) -> err == null
            ? CompletableFuture.completedFuture(state) : d.recoverEndedElsewhere(err))
        .thenCompose(s -> s);
  }

  /**
   * Performs the committed scheduled action of a Run (gate specification §9.2): reads the
   * committed ticket, builds the command from the ticket's own identity with a permission allow,
   * and enters the ordinary resume path. The pre-commit consumes the ticket before the tool runs.
   *
   * @param runId the Run
   * @param context store, cancellation, policy
   * @param nowMs the caller's clock reading, for the ticket deadline
   * @return a stage with the outcome; {@code notAwaiting} or {@code notScheduledAction} when there
   *     is nothing to perform
   */
  @Override
  public CompletionStage<ResumeOutcome> performScheduledAction(String runId, RunContext context, long nowMs) {
    Optional<ResumeTicket> ticket = context.store().flatMap(s -> s.view().resumeTicket(runId));
    if (ticket.isEmpty()) {
      return rejected("notAwaiting", NOT_AWAITING, GateRuntimeException.Category.EXECUTION);
    }
    if (ticket.get().reason() != AwaitReason.SCHEDULED_ACTION) {
      return rejected("notScheduledAction", "run is not awaiting on a scheduled action",
          GateRuntimeException.Category.EXECUTION);
    }
    return resume(ResumeCommand.fromTicket(ticket.get(), ResumeResult.allow(), nowMs), context);
  }

  /**
   * The ordinary resume path (gate specification §6.4).
   *
   * @param command the answer with its identity
   * @param context store, cancellation, policy
   * @return a stage with the outcome; rejections leave committed facts unchanged and run no tool
   */
  @Override
  public CompletionStage<ResumeOutcome> resume(ResumeCommand command, RunContext context) {
    if (context.store().isEmpty()) {
      return rejected("notAwaiting", NOT_AWAITING, GateRuntimeException.Category.EXECUTION);
    }
    // one consistent read: the ticket, the batch and the transcript of the same commit
    Optional<CommittedRun> committedRun = context.store().get().view().committedRun(command.runId());
    if (committedRun.isEmpty() || committedRun.get().record().ticket().isEmpty()) {
      return rejected("notAwaiting", NOT_AWAITING, GateRuntimeException.Category.EXECUTION);
    }
    RunRecord record = committedRun.get().record();
    ResumeTicket ticket = record.ticket().get();
    Optional<ResumeError> invalid = ResumeValidation.validate(ticket, command);
    if (invalid.isPresent()) {
      return rejected(invalid.get().code(), invalid.get().message(), GateRuntimeException.Category.EXECUTION);
    }
    List<JsonNode> committed = committedRun.get().messages();
    List<JsonNode> context0 = new ArrayList<>();
    for (JsonNode m : command.contextMessages()) {
      Optional<JsonNode> same = m.hasNonNull("id")
          ? committed.stream().filter(c -> m.get("id").equals(c.get("id"))).findFirst()
          : Optional.empty();
      if (same.isPresent()) {
        if (!same.get().equals(m)) {
          return rejected("contextConflict", "resume context message " + m.get("id").asText()
              + " conflicts with a committed message", GateRuntimeException.Category.EXECUTION);
        }
        continue; // a replay of a committed message
      }
      context0.add(m);
    }
    AgentSnapshot snap = snapshots.get(ticket.snapshotId());
    if (snap == null) {
      return rejected("snapshotNotFound", "snapshot for resume not found",
          GateRuntimeException.Category.RESOLUTION);
    }
    if (!snap.catalogFingerprint().equals(ticket.catalogFingerprint())) {
      return rejected("fingerprintMismatch",
          "resume catalog fingerprint does not match the registered snapshot",
          GateRuntimeException.Category.RESOLUTION);
    }
    Optional<ToolBatch> batch = Optional.ofNullable(committedRun.get().state().get(ToolBatch.STATE_KEY))
        .map(CommitCodec::decodeBatch)
        .filter(b -> b.runId().equals(ticket.runId()));
    RunDriver d = new RunDriver(this, context, ticket.runId(), ticket.threadId(), snap,
        record.headSequence(), committed, batch, batch.map(ToolBatch::step).orElse(0));
    // new context messages land with the resume's first commit
    d.stageMessages(context0);
    if (!d.resolveEnv()) {
      return d.end(EndCause.error(Failure.capabilityBound()), List.of())
          .thenApply(ResumeOutcome.Advanced::new);
    }
    CompletionStage<RunState> drive;
    if (ticket.target() instanceof AwaitTarget.ToolCallTarget t) {
      if (batch.isEmpty()) {
        return rejected("waitMismatch", "tool wait kind or correlation does not match",
            GateRuntimeException.Category.EXECUTION);
      }
      Optional<String> drift = batch.get().validateAwaitingTicket(ticket.threadId(), ticket);
      if (drift.isPresent()) {
        return rejected("waitMismatch", "tool wait kind or correlation does not match",
            GateRuntimeException.Category.EXECUTION);
      }
      ToolCall call = t.toolCall().orElseThrow();
      drive = applyToCall(d, t, call, ticket.correlationId(), command.result());
    } else {
      drive = d.input(((ResumeResult.Input) command.result()).text());
    }
    return drive.handle((state, err) -> {
      if (err == null) {
        return CompletableFuture.<ResumeOutcome>completedFuture(new ResumeOutcome.Advanced(state));
      }
      Throwable c = RunDriver.unwrap(err);
      // the first commit is conditioned on the head read above: losing that race means
      // another answer consumed the ticket first
      if (c instanceof CommitRejectedException cr
          && (cr.code().equals("runHeadMoved") || cr.code().equals("terminalFinal"))
          && !d.consumedTicket()) {
        return CompletableFuture.<ResumeOutcome>completedFuture(new ResumeOutcome.Rejected(
            "notAwaiting", NOT_AWAITING, GateRuntimeException.Category.EXECUTION));
      }
      return d.recoverEndedElsewhere(c).thenApply(st -> (ResumeOutcome) new ResumeOutcome.Advanced(st));
    }).thenCompose(s -> s);
  }

  private static CompletionStage<RunState> applyToCall(RunDriver d, AwaitTarget.ToolCallTarget t,
      ToolCall call, String correlation, ResumeResult result) {
    if (result instanceof ResumeResult.Permission p) {
      if (p.decision() instanceof PermissionDecision.Deny deny) {
        return d.deny(call, deny.reason().orElse("denied"));
      }
      return d.approve(call, ToolWaitKind.of(t.kind()), correlation);
    }
    if (result instanceof ResumeResult.ToolResult r) {
      return d.completeWith(r.output());
    }
    // free-form input for a delegated call becomes that call's result
    return d.completeWith(new ToolOutput(call.callId(),
        RunDriver.text(((ResumeResult.Input) result).text()), false));
  }

  /**
   * Continues a running Run whose driver was lost (a crash, a dropped process), from committed
   * state (gate specification §7.5): a call found executing follows its pinned recovery policy
   * ({@code neverReplay} → indeterminate; {@code replaySafe} and {@code durableRequest} → executed
   * again with the next attempt and the same operation id, until their attempts are exhausted), an
   * awaiting call without a ticket is drift and becomes indeterminate, requested calls are
   * re-gated. An awaiting or ended Run is returned unchanged: its wake is perform or resume. The
   * first commit is conditioned on the head read, so two recoveries cannot both proceed.
   *
   * @param runId the Run
   * @param context store, cancellation, policy
   * @return a stage with the Run's state; it fails when the Run has no committed state or its
   *     snapshot is not registered
   */
  @Override
  public CompletionStage<RunState> recover(String runId, RunContext context) {
    Optional<CommittedRun> committedRun = context.store().flatMap(s -> s.view().committedRun(runId));
    if (committedRun.isEmpty()) {
      return CompletableFuture.failedFuture(new GateRuntimeException.Execution(
          "run " + runId + " has no committed state", null));
    }
    RunRecord record = committedRun.get().record();
    if (!(record.state() instanceof RunState.Running)) {
      return CompletableFuture.completedFuture(record.state());
    }
    Optional<ToolBatch> batch = Optional.ofNullable(committedRun.get().state().get(ToolBatch.STATE_KEY))
        .map(CommitCodec::decodeBatch).filter(b -> b.runId().equals(runId));
    Optional<String> snapshotId = Optional.ofNullable(committedRun.get().state().get(SNAPSHOT_KEY))
        .map(JsonNode::asText);
    AgentSnapshot snap = snapshotId.map(snapshots::get).orElse(null);
    if (snap == null) {
      return CompletableFuture.failedFuture(new GateRuntimeException.Resolution(
          "snapshot for recovery of run " + runId + " not found"));
    }
    RunDriver d = new RunDriver(this, context, runId, record.threadId(), snap, record.headSequence(),
        committedRun.get().messages(), batch, batch.map(ToolBatch::step).orElse(0));
    if (!d.resolveEnv()) {
      return d.end(EndCause.error(Failure.capabilityBound()), List.of());
    }
    return d.recover()
        .handle((state, err) -> err == null
            ? CompletableFuture.completedFuture(state) : d.recoverEndedElsewhere(err))
        .thenCompose(s -> s);
  }

  /**
   * Cancels a Run: commits {@code ended(cancelled)}, sealing the batch, so the ticket disappears
   * and a late perform is rejected. On an ended Run nothing is committed and its state returned.
   *
   * @param runId the Run
   * @param threadId its thread
   * @param context store
   * @return a stage with the Run's state
   */
  @Override
  public CompletionStage<RunState> cancelRun(String runId, String threadId, RunContext context) {
    return endFromOutside(runId, threadId, EndCause.cancelled(), RunDriver.SEAL_REASON, context, 8);
  }

  /**
   * Stops a Run for a host policy: commits {@code ended(stopped(reason))}, sealing the batch. On
   * an ended Run nothing is committed and its state returned.
   *
   * @param runId the Run
   * @param threadId its thread
   * @param reason why
   * @param context store
   * @return a stage with the Run's state
   */
  @Override
  public CompletionStage<RunState> stopRun(String runId, String threadId, String reason, RunContext context) {
    return endFromOutside(runId, threadId, EndCause.stopped(reason), RunDriver.SEAL_REASON, context, 8);
  }

  /**
   * Ends a Run whose retry budget is spent (gate specification §12.5.5): commits {@code
   * ended(indeterminate)}, sealing every unsettled call with {@code sealReason}. On an ended Run
   * nothing is committed and its state returned.
   *
   * @param runId the Run
   * @param threadId its thread
   * @param sealReason why its unsettled calls are sealed
   * @param context store
   * @return a stage with the Run's state
   */
  @Override
  public CompletionStage<RunState> endIndeterminate(String runId, String threadId, String sealReason, RunContext context) {
    return endFromOutside(runId, threadId, EndCause.indeterminate(), sealReason, context, 8);
  }

  private CompletionStage<RunState> endFromOutside(
      String runId, String threadId, EndCause cause, String sealReason, RunContext context, int retries) {
    if (context.store().isEmpty()) {
      return CompletableFuture.failedFuture(new GateRuntimeException.Execution(
          "run " + runId + " has no committed state", null));
    }
    Optional<CommittedRun> committedRun = context.store().get().view().committedRun(runId);
    Optional<RunRecord> record = committedRun.map(CommittedRun::record);
    if (record.isEmpty() || !record.get().threadId().equals(threadId)) {
      return CompletableFuture.failedFuture(new GateRuntimeException.Execution(
          "run " + runId + " has no committed state on thread " + threadId, null));
    }
    if (record.get().state().isTerminal()) {
      return CompletableFuture.completedFuture(record.get().state());
    }
    AgentSnapshot snap = record.get().ticket().map(ResumeTicket::snapshotId).map(snapshots::get)
        .orElseGet(() -> placeholderSnapshot(runId));
    Optional<ToolBatch> batch = Optional.ofNullable(committedRun.get().state().get(ToolBatch.STATE_KEY))
        .map(CommitCodec::decodeBatch).filter(b -> b.runId().equals(runId));
    RunDriver d = new RunDriver(this, context, runId, threadId, snap, record.get().headSequence(),
        List.of(), batch, 0);
    return d.end(cause, List.of(), sealReason).handle((state, err) -> {
      if (err == null) {
        return CompletableFuture.completedFuture(state);
      }
      Throwable c = RunDriver.unwrap(err);
      if (c instanceof CommitRejectedException cr && retries > 0
          && (cr.code().equals("runHeadMoved") || cr.code().equals("terminalFinal"))) {
        // a driver committed meanwhile: read again (an ended Run is then returned as is)
        return endFromOutside(runId, threadId, cause, sealReason, context, retries - 1);
      }
      return CompletableFuture.<RunState>failedFuture(c);
    }).thenCompose(s -> s);
  }

  // ending a Run needs no snapshot content; the driver only uses its identity for tickets
  private static AgentSnapshot placeholderSnapshot(String runId) {
    return new AgentSnapshot("unknown-snapshot-of-" + runId, "unknown", java.util.Set.of(), List.of(), 1);
  }

  private static CompletionStage<ResumeOutcome> rejected(
      String code, String message, GateRuntimeException.Category category) {
    return CompletableFuture.completedFuture(new ResumeOutcome.Rejected(code, message, category));
  }
}

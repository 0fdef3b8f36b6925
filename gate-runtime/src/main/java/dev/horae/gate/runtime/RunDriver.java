package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.gate.AwaitTarget;
import dev.horae.gate.EndCause;
import dev.horae.gate.Failure;
import dev.horae.gate.GateJson;
import dev.horae.gate.PendingTool;
import dev.horae.gate.ResolvedExecutionEnv;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.gate.ToolAwaitReason;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.StateView;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.model.FinishReason;
import dev.horae.spi.model.ModelResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * Drives one Run from a known committed point: the step loop, the tool batch under gates, and
 * the single finish boundary. One driver per operation; not shared between threads.
 */
final class RunDriver {

  static final String SEAL_REASON = "owning run ended before every tool call settled";

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private final AgentRuntime runtime;
  private final RunContext ctx;
  final String runId;
  final String threadId;
  final AgentSnapshot snapshot;
  private ResolvedExecutionEnv env = ResolvedExecutionEnv.empty();
  private long head;
  // the committed transcript this driver started from, plus what it committed since
  private final List<JsonNode> base;
  private final AppendOnlyList<JsonNode> added = new AppendOnlyList<>();
  private Optional<ToolBatch> batch;
  private int step;
  private int landed;
  // audits of calls settled without their own commit; they ride the next commit
  private final List<JsonNode> pendingAudits = new ArrayList<>();
  // state commands staged for the next commit besides the batch
  private final List<StateCommand> pendingState = new ArrayList<>();
  // transcript messages staged for the next commit (a resume's new context messages)
  private final List<JsonNode> pendingMessages = new ArrayList<>();

  RunDriver(AgentRuntime runtime, RunContext ctx, String runId, String threadId,
      AgentSnapshot snapshot, long head, List<JsonNode> transcript, Optional<ToolBatch> batch, int step) {
    this.runtime = runtime;
    this.ctx = ctx;
    this.runId = runId;
    this.threadId = threadId;
    this.snapshot = snapshot;
    this.head = head;
    this.base = transcript;
    this.batch = batch;
    this.step = step;
  }

  Optional<ToolBatch> batch() {
    return batch;
  }

  /** Whether any commit of this driver has landed (for a resume: the ticket is consumed). */
  boolean consumedTicket() {
    return landed > 0;
  }

  /**
   * Maps a drive failure: a Run ended by someone else (cancel, stop) after this driver's first
   * commit is not a failure of the drive; the committed terminal state is its result.
   */
  CompletionStage<RunState> recoverEndedElsewhere(Throwable err) {
    Throwable c = unwrap(err);
    if (c instanceof CommitRejectedException cr && cr.code().equals("terminalFinal") && landed > 0
        && ctx.store().isPresent()) {
      Optional<RunState> committed = ctx.store().get().view().runState(runId);
      if (committed.isPresent()) {
        return CompletableFuture.completedFuture(committed.get());
      }
    }
    return CompletableFuture.failedFuture(c);
  }

  /** Stages transcript messages for the next commit, ahead of that commit's own messages. */
  void stageMessages(List<JsonNode> messages) {
    pendingMessages.addAll(messages);
  }

  /** Stages a Run-scoped state command for the next commit. */
  void stage(StateCommand command) {
    pendingState.add(command);
  }

  /** Merges the snapshot's plugin environment; false when it violates a bound. */
  boolean resolveEnv() {
    try {
      env = ResolvedExecutionEnv.merge(runtime.plugins(), snapshot.pluginIds());
      return true;
    } catch (dev.horae.gate.EnvMergeException e) {
      return false;
    }
  }

  // ---------------------------------------------------------------- commits

  /** One commit through the store (or nowhere, without a store), conditioned on the run head. */
  CompletionStage<Void> commit(RunDisposition d, List<JsonNode> own, List<JsonNode> extras) {
    List<JsonNode> messages = pendingMessages.isEmpty() ? own : AppendOnlyList.concat(List.copyOf(pendingMessages), own);
    List<StateCommand> state = new ArrayList<>(pendingState);
    batch.ifPresent(b -> state.add(new StateCommand(ToolBatch.STATE_KEY, CommitCodec.encodeBatch(b))));
    Set<String> keys = new HashSet<>();
    for (StateCommand s : state) {
      if (!keys.add(s.key())) {
        // an exclusive-key conflict turns the outcome into a state-conflict end with no state
        d = new RunDisposition.Ended(runId, EndCause.error(Failure.stateConflict()));
        state.clear();
        break;
      }
    }
    List<JsonNode> extraEvents = new ArrayList<>(pendingAudits);
    extraEvents.addAll(extras);
    ThreadCommit c = ThreadCommit.assemble(threadId, d, messages, state, extraEvents);
    if (ctx.store().isEmpty()) {
      pendingAudits.clear();
      pendingState.clear();
      pendingMessages.clear();
      added.addAll(messages);
      return CompletableFuture.completedFuture(null);
    }
    return ctx.store().get().commit(c, ctx.conditions(head)).thenAccept(rec -> {
      head = rec.sequence();
      landed++;
      pendingAudits.clear();
      pendingState.clear();
      pendingMessages.clear();
      added.addAll(messages);
    });
  }

  /** The finish boundary for awaiting: bind the ticket to the thread, commit, emit the live fact. */
  CompletionStage<RunState> park(AwaitTarget target, String correlationId, List<JsonNode> extras) {
    ResumeTicket ticket = ResumeTicket.of(correlationId, runId, threadId, snapshot.id(),
        snapshot.catalogFingerprint(), target);
    OptionalLong deadline = ctx.awaitDeadlinePolicy().deadline(target, ctx.nowMs());
    if (deadline.isPresent()) {
      ticket = ticket.withDeadline(deadline.getAsLong());
    }
    ticket = ticket.boundTo(threadId);
    return commit(new RunDisposition.Awaiting(ticket), List.of(), extras).thenApply(v -> {
      ObjectNode live = F.objectNode();
      live.put("type", "awaiting");
      live.put("runId", runId);
      target.callId().ifPresent(id -> live.put("pendingToolUseId", id));
      live.put("reason", target.reason().streamToken());
      runtime.emit(live);
      return RunState.awaiting();
    });
  }

  /** The finish boundary for ended: seal the batch in the same commit, then notify. */
  CompletionStage<RunState> end(EndCause cause, List<JsonNode> messages) {
    return end(cause, messages, SEAL_REASON);
  }

  /** The finish boundary, sealing unsettled calls with {@code sealReason}. */
  CompletionStage<RunState> end(EndCause cause, List<JsonNode> messages, String sealReason) {
    batch = batch.map(b -> b.sealOnRunEnd(sealReason));
    RunState state = RunState.ended(cause);
    return commit(new RunDisposition.Ended(runId, cause), messages, List.of()).thenApply(v -> {
      if (ctx.store().isPresent()) {
        runtime.terminal(runId, state);
      }
      ObjectNode live = F.objectNode();
      if (cause instanceof EndCause.Failed f) {
        live.put("type", "runFailed");
        live.put("runId", runId);
        live.put("code", f.failure().code());
        live.put("message", f.failure().message());
        runtime.emit(live);
      }
      ObjectNode fin = F.objectNode();
      fin.put("type", "runFinished");
      fin.put("runId", runId);
      fin.set("state", GateJson.encodeRunState(state));
      runtime.emit(fin);
      return state;
    });
  }

  // ---------------------------------------------------------------- the step loop

  CompletionStage<RunState> runSteps() {
    if (ctx.cancellation().aborted()) {
      return end(EndCause.cancelled(), List.of());
    }
    if (step >= snapshot.maxSteps()) {
      return end(EndCause.maxSteps(), List.of());
    }
    step++;
    CompletionStage<ModelResponse> reply;
    try {
      reply = runtime.inference().infer(
          new InferenceRequest(runId, threadId, step, AppendOnlyList.concat(base, added.snapshot()),
              snapshot.tools()));
    } catch (RuntimeException e) {
      reply = CompletableFuture.failedFuture(e);
    }
    return reply.handle((r, err) -> {
      if (err != null) {
        Throwable cause = unwrap(err);
        Failure failure = cause instanceof InferenceException ie
            ? Failure.of(ie.code(), String.valueOf(ie.getMessage()))
            : Failure.of("inference_error", String.valueOf(cause.getMessage()));
        return end(EndCause.error(failure), List.of());
      }
      return onReply(r);
    }).thenCompose(s -> s);
  }

  private CompletionStage<RunState> onReply(ModelResponse reply) {
    ObjectNode assistant = F.objectNode();
    assistant.put("role", "assistant");
    assistant.put("content", reply.text());
    if (reply.finish() == FinishReason.MAX_TOKENS) {
      // a response cut at the token limit may hold incomplete calls: it is recorded as given and
      // none of its calls runs (see Inference); gate specification §4.2 lets a running Run end only
      // naturally, at max steps, in failure or indeterminate, so the cut is an inference failure
      if (!reply.toolCalls().isEmpty()) {
        ArrayNode cut = assistant.putArray("toolCalls");
        reply.toolCalls().forEach(c -> cut.add(GateJson.encodeToolCall(c)));
      }
      return end(EndCause.error(Failure.of(Inference.MAX_TOKENS_CODE,
          "the model output reached its token limit; the cut response was not acted on")),
          List.of(assistant));
    }
    if (reply.toolCalls().isEmpty()) {
      return end(EndCause.naturalEnd(), List.of(assistant));
    }
    ArrayNode calls = assistant.putArray("toolCalls");
    List<DurableToolCall> durable = new ArrayList<>();
    for (ToolCall asked : reply.toolCalls()) {
      calls.add(GateJson.encodeToolCall(asked));
      // presentation aliases are mapped back before any gate, the batch or the executor sees the call
      ToolCall c = new ToolCall(asked.callId(), snapshot.canonical(asked.toolId()), asked.arguments());
      ToolRecoveryPolicy policy = snapshot.tool(c.toolId())
          .map(ToolDescriptor::recoveryPolicy).orElse(ToolRecoveryPolicy.neverReplay());
      durable.add(new DurableToolCall(c, policy, new ToolCallPhase.Requested()));
    }
    batch = Optional.of(ToolBatch.open(runId, step, durable));
    return commit(new RunDisposition.Running(runId), List.of(assistant), List.of())
        .thenCompose(v -> processBatch());
  }

  // ---------------------------------------------------------------- the tool batch

  /** Handles the next requested call in model order, or publishes a settled batch. */
  CompletionStage<RunState> processBatch() {
    if (ctx.cancellation().aborted()) {
      return end(EndCause.cancelled(), List.of());
    }
    ToolBatch b = batch.orElseThrow();
    Optional<DurableToolCall> next = b.calls().stream()
        .filter(c -> c.phase() instanceof ToolCallPhase.Requested).findFirst();
    if (next.isEmpty()) {
      return publish();
    }
    ToolCall call = next.get().call();
    if (isConcurrent(call)) {
      return wave(b);
    }
    if (snapshot.tool(call.toolId()).map(ToolDescriptor::clientExecuted).orElse(false)) {
      // client-executed tools bypass the chain and wait for the client's result
      batch = Optional.of(b.markAwaiting(call.callId(), ToolWaitKind.EXTERNAL_RESULT, call.callId()));
      return park(AwaitTarget.toolCall(ToolAwaitReason.CLIENT_EXECUTION, call.callId(), pending(call)),
          call.callId(), List.of());
    }
    return evaluate(call).thenCompose(outcome -> onOutcome(call, outcome));
  }

  private CompletionStage<Optional<GateOutcome>> evaluate(ToolCall call) {
    return RunGateChain.evaluate(ctx.policy(), runtime.hostGates().gates(), env.gates(), call, new View());
  }

  private CompletionStage<RunState> onOutcome(ToolCall call, Optional<GateOutcome> evaluated) {
    GateOutcome outcome = evaluated.orElse(GateOutcome.allow());
    List<JsonNode> audit = evaluated.isPresent()
        ? List.of(audit(call, outcome.auditLabel())) : List.of();
    ToolBatch b = batch.orElseThrow();
    if (outcome instanceof GateOutcome.Block block) {
      batch = Optional.of(b.complete(call.callId(), ToolOutput.error(call.callId(), "blocked: " + block.reason())));
      pendingAudits.addAll(audit);
      return processBatch();
    }
    if (outcome instanceof GateOutcome.SetResult set) {
      if (!set.output().callId().equals(call.callId())) {
        return CompletableFuture.failedFuture(new GateRuntimeException.Execution(
            "a gate set a result for call " + set.output().callId() + " on call " + call.callId(), null));
      }
      batch = Optional.of(b.complete(call.callId(), set.output()));
      pendingAudits.addAll(audit);
      return processBatch();
    }
    if (outcome instanceof GateOutcome.RequireConfirmation rc) {
      batch = Optional.of(b.markAwaiting(call.callId(), ToolWaitKind.TOOL_PERMISSION, rc.correlationId()));
      return park(AwaitTarget.toolCall(ToolAwaitReason.PERMISSION, call.callId(), pending(call)),
          rc.correlationId(), audit);
    }
    if (outcome instanceof GateOutcome.Schedule s) {
      if (s.actionKind().isPresent() && !env.permitsActionKind(s.actionKind().get())) {
        // absence is denial: no ticket, no wait mark, no execution
        pendingAudits.addAll(audit);
        return end(EndCause.error(Failure.capabilityBound()), List.of());
      }
      batch = Optional.of(b.markAwaiting(call.callId(), ToolWaitKind.SCHEDULED_ACTION, s.correlationId()));
      return park(AwaitTarget.toolCall(ToolAwaitReason.SCHEDULED_ACTION, call.callId(), pending(call)),
          s.correlationId(), audit);
    }
    return allow(call, audit);
  }

  private boolean isConcurrent(ToolCall call) {
    return snapshot.tool(call.toolId()).map(t -> t.concurrent() && !t.clientExecuted()).orElse(false);
  }

  /**
   * A parallel wave (§8.2): the maximal run of consecutive requested concurrent calls. Every gate
   * of the wave is evaluated first; the first wait outcome (in model order) parks the Run before
   * any executor of the wave starts, leaving the wave's other undecided calls requested for
   * re-gating after the resume. Otherwise the allowed calls move to executing in one commit and
   * run together.
   */
  private CompletionStage<RunState> wave(ToolBatch b) {
    List<ToolCall> members = new ArrayList<>();
    boolean started = false;
    for (DurableToolCall c : b.calls()) {
      boolean requested = c.phase() instanceof ToolCallPhase.Requested;
      if (!started && requested) {
        started = true;
      }
      if (started) {
        if (!requested || !isConcurrent(c.call())) {
          break;
        }
        members.add(c.call());
      }
    }
    List<CompletableFuture<Optional<GateOutcome>>> decisions = new ArrayList<>();
    for (ToolCall m : members) {
      decisions.add(evaluate(m).toCompletableFuture());
    }
    return CompletableFuture.allOf(decisions.toArray(CompletableFuture[]::new)).thenCompose(v -> {
      for (int i = 0; i < members.size(); i++) {
        GateOutcome o = decisions.get(i).join().orElse(GateOutcome.allow());
        if (o instanceof GateOutcome.RequireConfirmation || o instanceof GateOutcome.Schedule) {
          return onOutcome(members.get(i), decisions.get(i).join());
        }
      }
      List<ToolCall> allowed = new ArrayList<>();
      List<JsonNode> audits = new ArrayList<>();
      for (int i = 0; i < members.size(); i++) {
        ToolCall m = members.get(i);
        Optional<GateOutcome> decided = decisions.get(i).join();
        GateOutcome o = decided.orElse(GateOutcome.allow());
        List<JsonNode> audit = decided.isPresent() ? List.of(audit(m, o.auditLabel())) : List.of();
        ToolBatch cur = batch.orElseThrow();
        DurableToolCall d = cur.call(m.callId()).orElseThrow();
        if (o instanceof GateOutcome.Block block) {
          batch = Optional.of(cur.complete(m.callId(), ToolOutput.error(m.callId(), "blocked: " + block.reason())));
        } else if (o instanceof GateOutcome.SetResult set) {
          if (!set.output().callId().equals(m.callId())) {
            return CompletableFuture.failedFuture(new GateRuntimeException.Execution(
                "a gate set a result for call " + set.output().callId() + " on call " + m.callId(), null));
          }
          batch = Optional.of(cur.complete(m.callId(), set.output()));
        } else if (!runtime.executor().canHonour(m.toolId(), d.recoveryPolicy())) {
          batch = Optional.of(cur.complete(m.callId(), ToolOutput.error(m.callId(),
              "tool " + m.toolId() + " cannot honour recovery policy " + d.recoveryPolicy().type())));
        } else {
          batch = Optional.of(cur.markExecuting(m.callId()));
          allowed.add(m);
        }
        audits.addAll(audit);
      }
      pendingAudits.addAll(audits);
      if (allowed.isEmpty()) {
        return processBatch();
      }
      return commit(new RunDisposition.Running(runId), List.of(), List.of()).thenCompose(c -> runTogether(allowed));
    });
  }

  /** Runs calls whose move to executing has committed, all at once, then folds their outputs in. */
  private CompletionStage<RunState> runTogether(List<ToolCall> calls) {
    List<CompletableFuture<ToolOutput>> outputs = new ArrayList<>();
    for (ToolCall call : calls) {
      outputs.add(run(call).toCompletableFuture());
    }
    return CompletableFuture.allOf(outputs.toArray(CompletableFuture[]::new)).thenCompose(all -> {
      ToolBatch cur = batch.orElseThrow();
      for (int i = 0; i < calls.size(); i++) {
        cur = cur.complete(calls.get(i).callId(), outputs.get(i).join());
      }
      batch = Optional.of(cur);
      if (cur.allSettled()) {
        return publish();
      }
      return commit(new RunDisposition.Running(runId), List.of(), List.of()).thenCompose(x -> processBatch());
    });
  }

  private CompletionStage<RunState> allow(ToolCall call, List<JsonNode> audit) {
    ToolBatch b = batch.orElseThrow();
    DurableToolCall d = b.call(call.callId()).orElseThrow();
    if (!runtime.executor().canHonour(call.toolId(), d.recoveryPolicy())) {
      batch = Optional.of(b.complete(call.callId(), ToolOutput.error(call.callId(),
          "tool " + call.toolId() + " cannot honour recovery policy " + d.recoveryPolicy().type())));
      pendingAudits.addAll(audit);
      return processBatch();
    }
    batch = Optional.of(b.markExecuting(call.callId()));
    return commit(new RunDisposition.Running(runId), List.of(), audit)
        .thenCompose(v -> execute(call));
  }

  /** Runs a call whose move to executing has committed, then folds its output in. */
  CompletionStage<RunState> execute(ToolCall call) {
    return run(call).thenCompose(output -> {
      batch = Optional.of(batch.orElseThrow().complete(call.callId(), output));
      if (batch.orElseThrow().allSettled()) {
        return publish();
      }
      return commit(new RunDisposition.Running(runId), List.of(), List.of()).thenCompose(v -> processBatch());
    });
  }

  /** Enters the executor for a call whose move to executing has committed; never fails. */
  private CompletionStage<ToolOutput> run(ToolCall call) {
    ToolBatch b = batch.orElseThrow();
    int attempt = ((ToolCallPhase.Executing) b.call(call.callId()).orElseThrow().phase()).attempt();
    String opId = b.operationId(call.callId());
    ToolContext tc = new ToolContext() {
      @Override
      public String operationId() {
        return opId;
      }

      @Override
      public int attempt() {
        return attempt;
      }

      @Override
      public AbortSignal cancellation() {
        return ctx.cancellation();
      }
    };
    if (ctx.claim().isPresent() && !ctx.claim().get().ownsExecution().getAsBoolean()) {
      // §12.5.3 (LEASE-06): a lapsed or superseded claim aborts before the effect; the call stays
      // executing in the log, so the owner's recovery applies the call's pinned policy
      return CompletableFuture.failedFuture(
          new GateRuntimeException.Execution(ClaimGuard.lostOwnership(runId), null));
    }
    CompletionStage<ToolOutput> out;
    try {
      out = runtime.executor().execute(call, tc);
    } catch (RuntimeException e) {
      out = CompletableFuture.failedFuture(e);
    }
    return out.handle((o, err) -> {
      if (err != null) {
        return ToolOutput.error(call.callId(), "Error: " + unwrap(err).getMessage());
      }
      return o.callId().equals(call.callId()) ? o : new ToolOutput(call.callId(), o.content(), o.isError());
    });
  }

  /** Finalizes a settled batch and publishes every result in model order, then continues. */
  private CompletionStage<RunState> publish() {
    ToolBatch b = batch.orElseThrow().finalizeBatch();
    batch = Optional.of(b);
    List<JsonNode> messages = new ArrayList<>();
    for (DurableToolCall c : b.calls()) {
      ToolOutput o = c.phase() instanceof ToolCallPhase.Completed done
          ? done.output()
          : ToolOutput.error(c.call().callId(),
              "tool outcome unknown: " + ((ToolCallPhase.Indeterminate) c.phase()).reason());
      ObjectNode m = F.objectNode();
      m.put("role", "tool");
      m.put("callId", o.callId());
      m.set("content", o.content());
      if (o.isError()) {
        m.put("isError", true);
      }
      messages.add(m);
    }
    return commit(new RunDisposition.Running(runId), messages, List.of()).thenCompose(v -> runSteps());
  }

  // ---------------------------------------------------------------- resume entry points

  /** Permission allow (and every perform): the pre-commit consumes the ticket, then the tool runs. */
  CompletionStage<RunState> approve(ToolCall call, ToolWaitKind kind, String correlationId) {
    batch = Optional.of(batch.orElseThrow().resumeExecuting(call.callId(), kind, correlationId));
    return commit(new RunDisposition.Running(runId), List.of(), List.of(audit(call, "approved")))
        .thenCompose(v -> execute(call));
  }

  /** Permission deny: the call completes blocked; the tool never runs. */
  CompletionStage<RunState> deny(ToolCall call, String reason) {
    batch = Optional.of(batch.orElseThrow().complete(call.callId(),
        ToolOutput.error(call.callId(), "blocked: " + reason)));
    pendingAudits.add(audit(call, "denied"));
    return settleThenContinue();
  }

  /** A client or delegated result: the call completes with it; the executor is never entered. */
  CompletionStage<RunState> completeWith(ToolOutput output) {
    batch = Optional.of(batch.orElseThrow().complete(output.callId(), output));
    return settleThenContinue();
  }

  /** Free-form input for a remote-input or pause wait: appended as the next user input. */
  CompletionStage<RunState> input(String text) {
    ObjectNode m = F.objectNode();
    m.put("role", "user");
    m.put("content", text);
    return commit(new RunDisposition.Running(runId), List.of(m), List.of()).thenCompose(v -> runSteps());
  }

  // the first commit after a resume must land (head condition) before anything continues
  private CompletionStage<RunState> settleThenContinue() {
    if (batch.orElseThrow().allSettled()) {
      return publish();
    }
    return commit(new RunDisposition.Running(runId), List.of(), List.of()).thenCompose(v -> processBatch());
  }

  // ---------------------------------------------------------------- recovery (§7.5)

  static final String NO_REPLAY = "execution was interrupted and the recovery policy forbids replay";
  static final String EXHAUSTED = "recovery attempts exhausted";

  /**
   * Continues a running Run from committed state after its driver was lost: an open batch's
   * executing call follows its pinned policy, an awaiting call is drift, requested calls are
   * re-gated; a settled or absent batch continues with the next step.
   */
  CompletionStage<RunState> recover() {
    if (batch.isEmpty() || batch.get().finalized()) {
      return runSteps();
    }
    ToolBatch b = batch.get();
    List<ToolCall> replays = new ArrayList<>();
    for (DurableToolCall c : b.calls()) {
      String id = c.call().callId();
      if (c.phase() instanceof ToolCallPhase.Awaiting a) {
        b = b.markIndeterminate(id, "orphan wait " + a.kind().wireName() + " correlation " + a.correlationId());
      } else if (c.phase() instanceof ToolCallPhase.Executing e) {
        if (c.recoveryPolicy() instanceof ToolRecoveryPolicy.NeverReplay) {
          b = b.markIndeterminate(id, NO_REPLAY);
        } else if (e.attempt() >= c.recoveryPolicy().maxAttempts()) {
          b = b.markIndeterminate(id, EXHAUSTED);
        } else {
          b = b.markExecuting(id);
          replays.add(c.call());
        }
      }
    }
    batch = Optional.of(b);
    if (replays.isEmpty()) {
      return b.allSettled() ? publish() : processBatch();
    }
    // the next attempts are committed before the executor is entered, with the same operation ids
    return commit(new RunDisposition.Running(runId), List.of(), List.of()).thenCompose(v -> runTogether(replays));
  }

  // ---------------------------------------------------------------- helpers

  private static PendingTool pending(ToolCall call) {
    return new PendingTool(call.toolId(), call.arguments());
  }

  private static ObjectNode audit(ToolCall call, String label) {
    return ThreadCommit.permissionDecided(call, label);
  }

  static Throwable unwrap(Throwable t) {
    Throwable c = t;
    while ((c instanceof CompletionException || c instanceof java.util.concurrent.ExecutionException)
        && c.getCause() != null) {
      c = c.getCause();
    }
    return c;
  }

  /** The read-only Run view a gate sees. */
  private final class View implements StateView {
    @Override
    public String runId() {
      return runId;
    }

    @Override
    public String threadId() {
      return threadId;
    }

    @Override
    public int step() {
      return step;
    }

    @Override
    public Optional<JsonNode> state(String key) {
      if (key.equals(ToolBatch.STATE_KEY)) {
        return batch.map(CommitCodec::encodeBatch);
      }
      return ctx.store().flatMap(s -> Optional.ofNullable(s.view().committedRunState(runId).get(key)))
          .map(JsonNode::deepCopy);
    }
  }

  static JsonNode text(String s) {
    return TextNode.valueOf(s);
  }
}

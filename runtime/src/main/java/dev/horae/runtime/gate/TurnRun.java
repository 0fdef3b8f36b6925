package dev.horae.runtime.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.AwaitTarget;
import dev.horae.gate.EndCause;
import dev.horae.gate.Failure;
import dev.horae.gate.PendingTool;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.ToolAwaitReason;
import dev.horae.gate.runtime.CatalogFingerprint;
import dev.horae.gate.runtime.CommitConditions;
import dev.horae.gate.runtime.CommitStore;
import dev.horae.gate.runtime.CommittedRun;
import dev.horae.gate.runtime.LeaseFence;
import dev.horae.gate.runtime.RunDisposition;
import dev.horae.gate.runtime.StateCommand;
import dev.horae.gate.runtime.ThreadCommit;
import dev.horae.gate.runtime.ToolDescriptor;
import dev.horae.gate.runtime.ToolRecoveryPolicy;
import dev.horae.gate.runtime.internal.CommitCodec;
import dev.horae.gate.runtime.internal.DurableToolCall;
import dev.horae.gate.runtime.internal.ToolBatch;
import dev.horae.gate.runtime.internal.ToolCallPhase;
import dev.horae.gate.runtime.internal.ToolWaitKind;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolOutput;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The gate Run of one turn and the commits it makes (gate specification §5, §8.1, §9). A turn
 * commits nothing while every gate allows, blocks or sets a result; its first
 * {@code requireConfirmation} or {@code schedule} outcome commits the step's tool batch with that
 * call awaiting and the ticket for it, so the exact call survives a restart. Every later commit
 * of the Run is conditioned on the head this object last wrote or read (§5.4), which makes the
 * pre-commit that consumes a ticket a compare-and-append: of two answers to one ticket exactly
 * one lands (§15 D-01).
 *
 * <p>Not thread-safe: one turn driver owns it at a time.
 */
public final class TurnRun {

  /** The snapshot id prefix: a turn executes the agent's own tool catalog. */
  public static final String SNAPSHOT_PREFIX = "agent:";

  /** Why a batch is sealed when its turn ends with a call unsettled (gate specification §5.6). */
  static final String SEAL_REASON = "owning run ended before every tool call settled";

  private final CommitStore store;
  private final String runId;
  private final String threadId;
  private long head;
  private Optional<ToolBatch> batch;
  private Optional<LeaseFence> fence = Optional.empty();
  private List<JsonNode> context = List.of();

  private TurnRun(CommitStore store, String runId, String threadId, long head, Optional<ToolBatch> batch) {
    this.store = store;
    this.runId = runId;
    this.threadId = threadId;
    this.head = head;
    this.batch = batch;
  }

  /**
   * The Run of a turn that has committed nothing yet.
   *
   * @param store where its commits go
   * @param sessionId the session (thread)
   * @param turn the turn number
   * @return the Run
   */
  public static TurnRun fresh(CommitStore store, String sessionId, long turn) {
    return new TurnRun(store, runId(sessionId, turn), sessionId, 0L, Optional.empty());
  }

  /**
   * The Run of a turn as committed: its head and its open tool batch.
   *
   * @param store the store to read and commit through
   * @param committed the Run's committed truth
   * @return the Run
   */
  public static TurnRun committed(CommitStore store, CommittedRun committed) {
    Optional<ToolBatch> batch = Optional.ofNullable(committed.state().get(ToolBatch.STATE_KEY)).map(CommitCodec::decodeBatch);
    return new TurnRun(store, committed.record().runId(), committed.record().threadId(), committed.record().headSequence(), batch);
  }

  /**
   * The Run id of a turn: {@code <sessionId>/turn-<turn>}. A session is the gate's thread and a
   * turn number is never reused in it, so the id is unique for the thread's whole life.
   *
   * @param sessionId the session
   * @param turn the turn number
   * @return the id
   */
  public static String runId(String sessionId, long turn) {
    return sessionId + "/turn-" + turn;
  }

  /**
   * The snapshot id a turn of an agent executes.
   *
   * @param agentId the agent
   * @return {@code agent:<agentId>}
   */
  public static String snapshotId(String agentId) {
    return SNAPSHOT_PREFIX + agentId;
  }

  /**
   * The catalog fingerprint of the tools an agent sees (gate specification §13, §15 D-07): a
   * resumed call runs only against the catalog it was gated under.
   *
   * @param toolIds the visible tool names
   * @return {@code sha256:<hex>}
   */
  public static String fingerprint(Collection<String> toolIds) {
    return CatalogFingerprint.of(toolIds.stream().sorted().map(ToolDescriptor::of).toList());
  }

  /**
   * Conditions every later commit of this Run on a dispatch claim (gate specification §12.5.3): a
   * durable dispatcher's attempt commits nothing once another owner holds the Run.
   *
   * @param claim the claim's fence
   * @return this Run
   */
  public TurnRun fencedBy(LeaseFence claim) {
    this.fence = Optional.of(claim);
    return this;
  }

  /**
   * The Run id.
   *
   * @return the id
   */
  public String runId() {
    return runId;
  }

  /**
   * The open tool batch, when one was committed or resumed.
   *
   * @return the batch
   */
  public Optional<ToolBatch> batch() {
    return batch;
  }

  /**
   * Parks a call (gate specification §8.1, §9.1): commits the step's batch — the calls before it
   * completed with their outputs, this call awaiting, the calls after it requested — and the
   * awaiting disposition with the ticket, plus the gate's audit, in one commit.
   *
   * @param step the step that issued the calls
   * @param calls every call of the step, in model order
   * @param settled the outputs of the calls already handled
   * @param waiting the call that parks
   * @param reason why it waits: a scheduling outcome, a {@code requireConfirmation}, or a
   *     client-executed tool (gate specification §8.4)
   * @param correlationId the wait's correlation id
   * @param auditLabel the gate outcome's audit label; empty when no gate decided (a client-executed
   *     tool bypasses the chain)
   * @param snapshotId the executing snapshot
   * @param fingerprint the catalog fingerprint of the agent's visible tools
   * @param deadlineMs the ticket's deadline (gate specification §11), if the host sets one
   * @return a stage with the committed ticket; it fails when the commit is rejected or its
   *     durability is uncertain
   */
  public CompletionStage<ResumeTicket> park(int step, List<ToolCall> calls, Map<String, ToolOutput> settled, ToolCall waiting,
      ToolAwaitReason reason, String correlationId, Optional<String> auditLabel, String snapshotId, String fingerprint,
      OptionalLong deadlineMs) {
    ToolBatch b;
    ResumeTicket ticket;
    try {
      List<DurableToolCall> durable = new ArrayList<>();
      for (ToolCall c : calls) {
        durable.add(new DurableToolCall(c, ToolRecoveryPolicy.neverReplay(), new ToolCallPhase.Requested()));
      }
      b = ToolBatch.open(runId, step, durable);
      for (ToolCall c : calls) {
        ToolOutput out = settled.get(c.callId());
        if (out != null) {
          b = b.complete(c.callId(), out);
        }
      }
      b = b.markAwaiting(waiting.callId(), ToolWaitKind.of(reason), correlationId);
      ticket = ResumeTicket.of(correlationId, runId, threadId, snapshotId, fingerprint,
          AwaitTarget.toolCall(reason, waiting.callId(), new PendingTool(waiting.toolId(), waiting.arguments())));
      if (deadlineMs.isPresent()) {
        ticket = ticket.withDeadline(deadlineMs.getAsLong());
      }
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    ResumeTicket committed = ticket;
    List<JsonNode> audit = auditLabel.map(label -> List.<JsonNode>of(ThreadCommit.permissionDecided(waiting, label))).orElse(List.of());
    return commit(new RunDisposition.Awaiting(ticket), b, audit).thenApply(v -> committed);
  }

  /**
   * The pre-commit of an approval or a perform (gate specification §6.4 step 8, §9.2 step 4): the
   * awaiting call moves to executing and the Run to running with audit {@code approved}, before the
   * tool runs. It consumes the ticket.
   *
   * @param call the awaiting call
   * @param kind its wait kind
   * @param correlationId its wait correlation
   * @return a stage that fails with {@code runHeadMoved} when another answer landed first
   */
  public CompletionStage<Void> approve(ToolCall call, ToolWaitKind kind, String correlationId) {
    ToolBatch b;
    try {
      b = batch.orElseThrow().resumeExecuting(call.callId(), kind, correlationId);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return commit(new RunDisposition.Running(runId), b, List.of(ThreadCommit.permissionDecided(call, "approved")));
  }

  /**
   * A denial (gate specification §6.3): the awaiting call completes with the blocked output and the
   * Run runs on, audit {@code denied}; the tool never runs. It consumes the ticket.
   *
   * @param call the awaiting call
   * @param output the blocked output the model receives
   * @return a stage that fails with {@code runHeadMoved} when another answer landed first
   */
  public CompletionStage<Void> deny(ToolCall call, ToolOutput output) {
    return completeAwaiting(call, output, List.of(ThreadCommit.permissionDecided(call, "denied")));
  }

  /**
   * The client's result for a client-executed call (gate specification §8.4): the awaiting call
   * completes with that output and the Run runs on, before the output is recorded for the model.
   * It consumes the ticket; no gate decided, so no audit is written.
   *
   * @param call the awaiting call
   * @param output the client's output
   * @return a stage that fails with {@code runHeadMoved} when another answer landed first
   */
  public CompletionStage<Void> supply(ToolCall call, ToolOutput output) {
    return completeAwaiting(call, output, List.of());
  }

  /** Completes the awaiting call with {@code output} and runs the Run on, in one commit with {@code audit}. */
  private CompletionStage<Void> completeAwaiting(ToolCall call, ToolOutput output, List<JsonNode> audit) {
    ToolBatch b;
    try {
      b = batch.orElseThrow().complete(call.callId(), output);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return commit(new RunDisposition.Running(runId), b, audit);
  }

  /**
   * Records, without a commit, that a call of the open batch settled: the host log's
   * {@code tool/result} is the durable fact; the batch carries it into the Run's next commit.
   *
   * @param callId the call
   * @param output its output
   */
  public void settled(String callId, ToolOutput output) {
    if (batch.isEmpty()) {
      return;
    }
    ToolBatch b = batch.get();
    Optional<ToolCallPhase> phase = b.call(callId).map(DurableToolCall::phase);
    if (phase.isPresent() && (phase.get() instanceof ToolCallPhase.Requested || phase.get() instanceof ToolCallPhase.Executing)) {
      batch = Optional.of(b.complete(callId, output));
    }
  }

  /**
   * The terminal fact (gate specification §5.6): commits {@code ended(cause)} with the open batch
   * sealed, when the Run has committed anything that is not terminal yet. The head is read again
   * from the committed view first: a commit whose append landed but whose flush failed moved it
   * without this object knowing, and that Run still needs its end.
   *
   * @param cause why the Run ended
   * @param always true to commit the fact even for a Run that committed nothing before
   * @return a stage that completes when the fact is durable (at once when nothing is written)
   */
  public CompletionStage<Void> end(EndCause cause, boolean always) {
    Optional<CommittedRun> committed = store.view().committedRun(runId);
    if (committed.isPresent()) {
      if (committed.get().record().state().isTerminal()) {
        return CompletableFuture.completedFuture(null);
      }
      head = committed.get().record().headSequence();
      batch = Optional.ofNullable(committed.get().state().get(ToolBatch.STATE_KEY)).map(CommitCodec::decodeBatch)
          .map(b -> mergeSettled(b)).or(() -> batch);
    } else if (!always) {
      return CompletableFuture.completedFuture(null);
    }
    ToolBatch sealed;
    try {
      sealed = batch.map(b -> b.sealOnRunEnd(SEAL_REASON)).orElse(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return commit(new RunDisposition.Ended(runId, cause), sealed, List.of());
  }

  /** The committed batch with the settlements this object saw since (they are in the host log). */
  private ToolBatch mergeSettled(ToolBatch committed) {
    if (batch.isEmpty() || batch.get().step() != committed.step()) {
      return committed;
    }
    ToolBatch merged = committed;
    for (DurableToolCall c : batch.get().calls()) {
      Optional<ToolCallPhase> was = merged.call(c.call().callId()).map(DurableToolCall::phase);
      if (c.phase() instanceof ToolCallPhase.Completed done && was.isPresent()
          && (was.get() instanceof ToolCallPhase.Requested || was.get() instanceof ToolCallPhase.Executing)) {
        merged = merged.complete(c.call().callId(), done.output());
      }
    }
    return merged;
  }

  /**
   * The Run's end cause for a host turn end reason (host contract §6.1): {@code completed} is the
   * natural end, {@code aborted} a cancel, {@code error} a failure, the others a stop with the
   * reason.
   *
   * @param reason the {@code turn/end} reason
   * @return the cause
   */
  public static EndCause causeOf(String reason) {
    return switch (reason) {
      case "completed" -> EndCause.naturalEnd();
      case "aborted" -> EndCause.cancelled();
      case "error" -> EndCause.error(Failure.of("turn_error", "the turn ended with an error"));
      default -> EndCause.stopped(reason);
    };
  }

  /**
   * Transcript messages the next commit carries (gate specification §6.4 step 3: a resume's
   * context messages land with its first commit); once that commit lands they are not sent again.
   *
   * @param messages the messages, already de-duplicated against the committed ones
   */
  public void withContext(List<JsonNode> messages) {
    context = List.copyOf(messages);
  }

  private CompletionStage<Void> commit(RunDisposition run, @org.jspecify.annotations.Nullable ToolBatch b, List<JsonNode> extras) {
    List<StateCommand> state = b == null ? List.of() : List.of(new StateCommand(ToolBatch.STATE_KEY, CommitCodec.encodeBatch(b)));
    ThreadCommit commit = ThreadCommit.assemble(threadId, run, context, state, extras);
    CompletionStage<Void> landed;
    try {
      landed = store.commit(commit, new CommitConditions(OptionalLong.of(head), fence)).thenAccept(record -> {
        head = record.sequence();
        batch = Optional.ofNullable(b);
        context = List.of();
      });
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return landed;
  }
}

package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.gate.EndCause;
import dev.horae.gate.PermissionDecision;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.session.Json;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Every row of "rejections before tool execution" (gate specification §9.4): no tool runs. */
class RejectionTableTest {

  private static ResumeOutcome.Rejected rejected(ResumeOutcome o) {
    assertThat(o).isInstanceOf(ResumeOutcome.Rejected.class);
    return (ResumeOutcome.Rejected) o;
  }

  private static Fixture scheduled() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    assertThat(f.execute("run-1")).isEqualTo(RunState.awaiting());
    return f;
  }

  private ResumeOutcome resume(Fixture f, ResumeCommand c) {
    return f.runtime.resume(c, f.ctx()).toCompletableFuture().join();
  }

  @Test
  void unknownRunIsNotAwaiting() {
    Fixture f = scheduled();
    assertThat(rejected(f.perform("no-such-run")).code()).isEqualTo("notAwaiting");
    assertThat(f.toolRuns).hasValue(0);
  }

  @Test
  void wrongWaitKindIsNotScheduledAction() {
    Fixture f = new Fixture();
    f.gate((call, state) -> CompletableFuture.completedFuture(GateOutcome.requireConfirmation("ask-1")));
    f.execute("run-1");
    ResumeOutcome.Rejected r = rejected(f.perform("run-1"));
    assertThat(r.code()).isEqualTo("notScheduledAction");
    assertThat(r.display()).isEqualTo("runtime execution failed: run is not awaiting on a scheduled action");
    assertThat(f.toolRuns).hasValue(0);
    assertThat(f.store.view().resumeTicket("run-1")).isPresent();
  }

  @Test
  void eachIdentityMismatchIsRejectedAndTheTicketStays() {
    Fixture f = scheduled();
    ResumeTicket t = f.store.view().resumeTicket("run-1").orElseThrow();
    ResumeResult allow = ResumeResult.allow();
    long now = 0;
    assertThat(rejected(resume(f, ResumeCommand.of("x", t.runId(), t.threadId(), t.snapshotId(), t.catalogFingerprint(), allow, now))).code())
        .isEqualTo("correlationMismatch");
    assertThat(rejected(resume(f, ResumeCommand.of(t.correlationId(), t.runId(), "other-thread", t.snapshotId(), t.catalogFingerprint(), allow, now))).code())
        .isEqualTo("threadMismatch");
    assertThat(rejected(resume(f, ResumeCommand.of(t.correlationId(), t.runId(), t.threadId(), "other-snap", t.catalogFingerprint(), allow, now))).code())
        .isEqualTo("snapshotMismatch");
    assertThat(rejected(resume(f, ResumeCommand.of(t.correlationId(), t.runId(), t.threadId(), t.snapshotId(), "sha256:other", allow, now))).code())
        .isEqualTo("fingerprintMismatch");
    // a run mismatch can only be aimed through another run id: that run has no ticket
    assertThat(rejected(resume(f, ResumeCommand.of(t.correlationId(), "run-2", t.threadId(), t.snapshotId(), t.catalogFingerprint(), allow, now))).code())
        .isEqualTo("notAwaiting");
    assertThat(rejected(resume(f, ResumeCommand.fromTicket(t, new ResumeResult.Input("go"), now))).code())
        .isEqualTo("resultKindMismatch");
    assertThat(rejected(resume(f, ResumeCommand.fromTicket(t,
        new ResumeResult.ToolResult(ToolOutput.success("call-1", Json.parse("\"x\""))), now))).code())
        .isEqualTo("resultKindMismatch");
    assertThat(f.toolRuns).hasValue(0);
    assertThat(f.store.view().resumeTicket("run-1")).contains(t);
  }

  @Test
  void expiredTicketIsRejectedAndStaysInProcess() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    RunContext ctx = f.ctx().withDeadlinePolicy((target, now) -> OptionalLong.of(now + 1000)).at(5000);
    f.runtime.execute(new RunActivation("run-1", f.thread(), Fixture.SNAPSHOT, "go"), ctx).toCompletableFuture().join();
    assertThat(f.store.view().resumeTicket("run-1").orElseThrow().deadlineMs()).hasValue(6000);

    ResumeOutcome late = f.runtime.performScheduledAction("run-1", f.ctx(), 6001).toCompletableFuture().join();
    assertThat(rejected(late).code()).isEqualTo("expired");
    assertThat(rejected(late).message()).isEqualTo("resume is past the ticket deadline");
    assertThat(f.toolRuns).hasValue(0);
    assertThat(f.store.view().runState("run-1")).contains(RunState.awaiting());

    ResumeOutcome onTime = f.runtime.performScheduledAction("run-1", f.ctx(), 6000).toCompletableFuture().join();
    assertThat(onTime).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
    assertThat(f.toolRuns).hasValue(1);
  }

  @Test
  void uncommittedCandidateIsNotWakeable() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    RunState s = f.runtime.execute(new RunActivation("run-1", f.thread(), Fixture.SNAPSHOT, "go"),
        RunContext.uncommitted()).toCompletableFuture().join();
    assertThat(s).isEqualTo(RunState.awaiting());
    assertThat(rejected(f.perform("run-1")).code()).isEqualTo("notAwaiting");
    assertThat(rejected(f.runtime.performScheduledAction("run-1", RunContext.uncommitted(), 0)
        .toCompletableFuture().join()).code()).isEqualTo("notAwaiting");
    assertThat(f.toolRuns).hasValue(0);
    assertThat(f.session.events()).noneMatch(e -> e.type().equals("gate/commit"));
  }

  @Test
  void alreadyPerformedIsRejected() {
    Fixture f = scheduled();
    f.perform("run-1");
    assertThat(rejected(f.perform("run-1")).code()).isEqualTo("notAwaiting");
    assertThat(f.toolRuns).hasValue(1);
  }

  @Test
  void cancelledRunRejectsALatePerformAndSealsTheBatch() {
    Fixture f = scheduled();
    RunState s = f.runtime.cancelRun("run-1", f.thread(), f.ctx()).toCompletableFuture().join();
    assertThat(s).isEqualTo(RunState.ended(EndCause.cancelled()));
    assertThat(f.store.view().resumeTicket("run-1")).isEmpty();
    ToolBatch batch = CommitCodec.decodeBatch(java.util.Objects.requireNonNull(
        f.store.view().committedRunState("run-1").get(ToolBatch.STATE_KEY)));
    assertThat(batch.finalized()).isTrue();
    assertThat(batch.calls().get(0).phase())
        .isEqualTo(new ToolCallPhase.Indeterminate("owning run ended before every tool call settled"));

    assertThat(rejected(f.perform("run-1")).code()).isEqualTo("notAwaiting");
    assertThat(f.toolRuns).hasValue(0);
    // cancel on an ended Run commits nothing and returns the terminal state
    long before = f.session.length();
    assertThat(f.runtime.stopRun("run-1", f.thread(), "late", f.ctx()).toCompletableFuture().join())
        .isEqualTo(RunState.ended(EndCause.cancelled()));
    assertThat(f.session.length()).isEqualTo(before);
  }

  @Test
  void stoppedRunRejectsALatePerform() {
    Fixture f = scheduled();
    RunState s = f.runtime.stopRun("run-1", f.thread(), "budget exhausted", f.ctx()).toCompletableFuture().join();
    assertThat(s).isEqualTo(RunState.ended(EndCause.stopped("budget exhausted")));
    assertThat(rejected(f.perform("run-1")).code()).isEqualTo("notAwaiting");
    assertThat(f.toolRuns).hasValue(0);
  }

  @Test
  void unregisteredSnapshotAndForeignFingerprintAreResolutionRejections() {
    Fixture f = scheduled();
    AgentRuntime other = AgentRuntime.builder(Fixture::script, f::echo).build();
    ResumeOutcome.Rejected missing = rejected(other.performScheduledAction("run-1", f.ctx(), 0).toCompletableFuture().join());
    assertThat(missing.code()).isEqualTo("snapshotNotFound");
    assertThat(missing.display()).isEqualTo("runtime resolution failed: snapshot for resume not found");

    other.registerSnapshot(AgentSnapshot.of(Fixture.SNAPSHOT, java.util.Set.of(),
        java.util.List.of(ToolDescriptor.of("echo"), ToolDescriptor.of("extra")), 8));
    ResumeOutcome.Rejected foreign = rejected(other.performScheduledAction("run-1", f.ctx(), 0).toCompletableFuture().join());
    assertThat(foreign.code()).isEqualTo("fingerprintMismatch");
    assertThat(foreign.message()).isEqualTo("resume catalog fingerprint does not match the registered snapshot");
    assertThat(f.toolRuns).hasValue(0);
    assertThat(f.store.view().resumeTicket("run-1")).isPresent();
  }

  @Test
  void permissionDenyBlocksWithoutRunningTheTool() {
    Fixture f = new Fixture();
    f.gate((call, state) -> CompletableFuture.completedFuture(GateOutcome.requireConfirmation("ask-1")));
    f.execute("run-1");
    ResumeTicket t = f.store.view().resumeTicket("run-1").orElseThrow();
    ResumeOutcome o = resume(f, ResumeCommand.fromTicket(t,
        new ResumeResult.Permission(new PermissionDecision.Deny(Optional.of("operator policy"))), 0));
    assertThat(o).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
    assertThat(f.toolRuns).hasValue(0);
    assertThat(f.store.view().committedMessages(f.thread()))
        .anySatisfy(m -> assertThat(m.path("content").asText()).isEqualTo("blocked: operator policy"));
    // a second answer after completion finds no ticket
    assertThat(rejected(resume(f, ResumeCommand.fromTicket(t, ResumeResult.allow(), 0))).code()).isEqualTo("notAwaiting");
  }
}

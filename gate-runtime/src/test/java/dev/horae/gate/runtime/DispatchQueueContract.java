package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.gate.AwaitTarget;
import dev.horae.gate.PauseReason;
import dev.horae.gate.PendingTool;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.ToolAwaitReason;
import dev.horae.spi.session.Json;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dispatch queue TCK (gate specification §12.5.1–§12.5.3, §12.5.5): every backend runs it.
 */
abstract class DispatchQueueContract {

  static final long LEASE = 1_000;
  static final int MAX = 5;

  DispatchRig rig;
  DispatchQueue q;

  abstract DispatchRig.Kind kind();

  @BeforeEach
  void open() {
    rig = DispatchRig.of(kind());
    q = rig.queue;
  }

  RunActivation act(String runId) {
    return rig.activation(runId, "go");
  }

  DispatchClaim claim(String owner, long now) {
    return q.claim(owner, LEASE, now, MAX).orElseThrow();
  }

  ResumeCommand input(String runId, String correlation) {
    return ResumeCommand.of(correlation, runId, rig.thread, DispatchRig.SNAPSHOT, "fp",
        new ResumeResult.Input("hi"), 0);
  }

  ThreadCommit running(String thread, String run) {
    return new ThreadCommit(thread, new RunDisposition.Running(run), List.of(), List.of(), List.of());
  }

  ThreadCommit awaiting(String run, ToolAwaitReason reason) {
    ResumeTicket t = ResumeTicket.of("c", run, rig.thread, "snap", "fp", AwaitTarget.toolCall(reason, "call-1",
        new PendingTool("echo", Json.mapper().createObjectNode())));
    return new ThreadCommit(rig.thread, new RunDisposition.Awaiting(t), List.of(), List.of(), List.of());
  }

  CommitRecord commit(ThreadCommit c, Optional<LeaseFence> fence) {
    return rig.store().commit(c, new CommitConditions(OptionalLong.empty(), fence)).toCompletableFuture().join();
  }

  @Test
  void aClaimTakesAPendingRecordOnceAvailableAndAssignsOwnerEpochAndLease() {
    assertThat(q.submit(act("r1"), 100)).isTrue();
    assertThat(q.submit(act("r1"), 100)).as("one record per Run").isFalse();
    assertThat(q.claim("a", LEASE, 99, MAX)).as("not before availableAtMs").isEmpty();
    DispatchClaim c = claim("a", 100);
    assertThat(c).isEqualTo(new DispatchClaim("r1", rig.thread, "a", 1, 100 + LEASE, 0, false,
        Optional.of(act("r1")), false));
    DispatchRecord r = q.record("r1").orElseThrow();
    assertThat(r.status()).isEqualTo(DispatchStatus.RUNNING);
    assertThat(r.owner()).contains("a");
    assertThat(r.leaseExpiresMs()).hasValue(100 + LEASE);
  }

  @Test
  void claimsFollowAvailabilityThenRunId() {
    q.submit(act("r2"), 5);
    q.submit(act("r3"), 1);
    q.submit(act("r1"), 5);
    assertThat(List.of(claim("a", 10).runId(), claim("a", 10).runId(), claim("a", 10).runId()))
        .containsExactly("r3", "r1", "r2");
    assertThat(q.claim("a", LEASE, 10, MAX)).isEmpty();
  }

  @Test
  void aLiveLeaseFencesEveryOtherClaimerAndAStrictlyExpiredOneIsARecovery() {
    q.submit(act("r1"), 0);
    DispatchClaim first = claim("a", 0);
    // LEASE-01: leaseExpiresMs >= nowMs still fences, equality included
    assertThat(q.claim("b", LEASE, LEASE, MAX)).isEmpty();
    DispatchClaim second = claim("b", LEASE + 1);
    assertThat(second.recovery()).isTrue();
    assertThat(second.attemptCount()).isEqualTo(1);
    assertThat(second.epoch()).isEqualTo(first.epoch() + 1);
    assertThat(second.owner()).isEqualTo("b");
    DispatchClaim third = claim("c", 2 * LEASE + 2);
    assertThat(third.attemptCount()).isEqualTo(2);
    assertThat(third.epoch()).isEqualTo(3);
  }

  @Test
  void renewExtendsOnlyACurrentClaim() {
    q.submit(act("r1"), 0);
    DispatchClaim first = claim("a", 0);
    assertThat(q.renew(first, LEASE, 900)).isTrue();
    assertThat(q.record("r1").orElseThrow().leaseExpiresMs()).hasValue(900 + LEASE);
    assertThat(q.claim("b", LEASE, LEASE + 1, MAX)).as("the renewed lease still fences").isEmpty();
    DispatchClaim second = claim("b", 900 + LEASE + 1);
    assertThat(q.renew(first, LEASE, 2_000)).as("stale epoch").isFalse();
    assertThat(q.record("r1").orElseThrow().leaseExpiresMs()).hasValue(900 + LEASE + 1 + LEASE);
    assertThat(q.renew(second, LEASE, 2_000)).isTrue();
  }

  @Test
  void aStaleSettleIsFencedAndChangesNothing() {
    q.submit(act("r1"), 0);
    DispatchClaim first = claim("a", 0);
    DispatchClaim second = claim("b", LEASE + 1);
    DispatchRecord before = q.record("r1").orElseThrow();
    assertThat(q.settle(first, DispatchQueue.Settlement.DONE, List.of())).isEqualTo(DispatchQueue.SettleResult.FENCED);
    assertThat(q.settle(first, DispatchQueue.Settlement.AWAITING, List.of())).isEqualTo(DispatchQueue.SettleResult.FENCED);
    assertThat(q.record("r1")).contains(before);
    assertThat(q.settle(second, DispatchQueue.Settlement.DONE, List.of())).isEqualTo(DispatchQueue.SettleResult.SETTLED);
    assertThat(q.record("r1")).isEmpty();
    assertThat(q.settle(second, DispatchQueue.Settlement.DONE, List.of())).as("missing record")
        .isEqualTo(DispatchQueue.SettleResult.FENCED);
  }

  @Test
  void settlingAwaitingClearsTheLeaseAndResetsTheAttemptCount() {
    q.submit(act("r1"), 0);
    claim("a", 0);
    DispatchClaim recovery = claim("b", LEASE + 1);
    assertThat(recovery.attemptCount()).isEqualTo(1);
    q.settle(recovery, DispatchQueue.Settlement.AWAITING, List.of());
    DispatchRecord r = q.record("r1").orElseThrow();
    assertThat(r.status()).isEqualTo(DispatchStatus.AWAITING);
    assertThat(r.attemptCount()).isZero();
    assertThat(r.leaseExpiresMs()).isEmpty();
    assertThat(r.owner()).isEmpty();
    assertThat(q.claim("c", LEASE, 10 * LEASE, MAX)).as("an awaiting record is not claimable").isEmpty();
  }

  @Test
  void resumeCommandsWakeAnAwaitingRecordAndAreConsumedExactly() {
    q.submit(act("r1"), 0);
    DispatchClaim c = claim("a", 0);
    q.settle(c, DispatchQueue.Settlement.AWAITING, List.of());
    long one = q.submitResume(input("r1", "x"), 7);
    assertThat(q.record("r1").orElseThrow().status()).isEqualTo(DispatchStatus.PENDING);
    DispatchClaim d = claim("a", 7);
    long two = q.submitResume(input("r1", "y"), 8);
    assertThat(two).isGreaterThan(one);
    assertThat(q.record("r1").orElseThrow().status()).as("a running record only stores the command")
        .isEqualTo(DispatchStatus.RUNNING);
    assertThat(q.resumes("r1")).extracting(PendingResume::id).containsExactly(one, two);
    q.settle(d, DispatchQueue.Settlement.AWAITING, List.of(one));
    assertThat(q.resumes("r1")).extracting(PendingResume::id).containsExactly(two);
    assertThat(q.resumes("r1").get(0).command()).isEqualTo(input("r1", "y"));
    assertThat(q.record("r1").orElseThrow().status()).as("woken while running: pending, not awaiting")
        .isEqualTo(DispatchStatus.PENDING);
    DispatchClaim e = claim("a", 9);
    q.settle(e, DispatchQueue.Settlement.AWAITING, List.of(two));
    assertThat(q.record("r1").orElseThrow().status()).isEqualTo(DispatchStatus.AWAITING);
    q.submitResume(input("r1", "z"), 10);
    DispatchClaim f = claim("a", 10);
    q.settle(f, DispatchQueue.Settlement.DONE, List.of());
    assertThat(q.resumes("r1")).as("done drops the Run's commands").isEmpty();
  }

  @Test
  void aResumeOrCancelForAnUnknownRunCreatesAPendingRecord() {
    q.submitResume(input("r1", "x"), 3);
    assertThat(q.record("r1").orElseThrow().status()).isEqualTo(DispatchStatus.PENDING);
    assertThat(q.record("r1").orElseThrow().availableAtMs()).isEqualTo(3);
    q.cancel("r2", rig.thread, 4);
    DispatchRecord r2 = q.record("r2").orElseThrow();
    assertThat(r2.cancelRequested()).isTrue();
    assertThat(r2.status()).isEqualTo(DispatchStatus.PENDING);
  }

  @Test
  void aCancelWakesAnAwaitingRecordAndMarksARunningOne() {
    q.submit(act("r1"), 0);
    DispatchClaim c = claim("a", 0);
    q.cancel("r1", rig.thread, 1);
    assertThat(q.record("r1").orElseThrow().status()).isEqualTo(DispatchStatus.RUNNING);
    assertThat(q.record("r1").orElseThrow().cancelRequested()).isTrue();
    q.settle(c, DispatchQueue.Settlement.AWAITING, List.of());
    assertThat(q.record("r1").orElseThrow().status()).isEqualTo(DispatchStatus.PENDING);
    assertThat(claim("b", 2).cancelRequested()).isTrue();
  }

  @Test
  void reconciliationIsAnIdempotentUpsert() {
    assertThat(q.reconcile("r1", rig.thread, 5)).isTrue();
    DispatchClaim c = claim("a", 5);
    assertThat(q.reconcile("r1", rig.thread, 6)).isFalse();
    assertThat(q.record("r1").orElseThrow().epoch()).isEqualTo(c.epoch());
    assertThat(q.record("r1").orElseThrow().status()).isEqualTo(DispatchStatus.RUNNING);
  }

  @Test
  void theRetryBudgetClaimTakesOnlyExhaustedExpiredRecords() {
    q.submit(act("r1"), 0);
    long now = 0;
    claim("a", now);
    for (int i = 1; i <= MAX; i++) {
      now += LEASE + 1;
      assertThat(q.claimRetryExhausted("x", LEASE, MAX, now)).isEmpty();
      assertThat(claim("a" + i, now).attemptCount()).isEqualTo(i);
    }
    assertThat(q.claimRetryExhausted("x", LEASE, MAX, now)).as("the lease is live").isEmpty();
    now += LEASE + 1;
    assertThat(q.claim("y", LEASE, now, MAX)).as("the budget is spent").isEmpty();
    DispatchClaim ex = q.claimRetryExhausted("x", LEASE, MAX, now).orElseThrow();
    assertThat(ex.attemptCount()).isEqualTo(MAX);
    assertThat(ex.recovery()).isTrue();
    assertThat(ex.epoch()).isEqualTo(MAX + 2);
  }

  // ---------------------------------------------------------------- outbox and fence

  @Test
  void anAwaitingScheduledActionCommitCreatesThePendingRecordInTheSameStep() {
    commit(running(rig.thread, "r1"), Optional.empty());
    assertThat(q.record("r1")).isEmpty();
    commit(awaiting("r1", ToolAwaitReason.PERMISSION), Optional.empty());
    assertThat(q.record("r1")).as("only scheduled actions are outboxed").isEmpty();
    commit(awaiting("r2", ToolAwaitReason.SCHEDULED_ACTION), Optional.empty());
    DispatchRecord r = q.record("r2").orElseThrow();
    assertThat(r.status()).isEqualTo(DispatchStatus.PENDING);
    assertThat(r.threadId()).isEqualTo(rig.thread);
    assertThat(r.activation()).isEmpty();
  }

  @Test
  void theOutboxTurnsAwaitingToPendingAndLeavesARunningRecordAlone() {
    q.reconcile("r1", rig.thread, 0);
    DispatchClaim c = claim("a", 0);
    commit(awaiting("r1", ToolAwaitReason.SCHEDULED_ACTION), Optional.of(c.fence()));
    assertThat(q.record("r1").orElseThrow().status()).isEqualTo(DispatchStatus.RUNNING);
    assertThat(q.record("r1").orElseThrow().epoch()).isEqualTo(c.epoch());
    q.settle(c, DispatchQueue.Settlement.AWAITING, List.of());
    commit(running(rig.thread, "r1"), Optional.empty());
    commit(awaiting("r1", ToolAwaitReason.SCHEDULED_ACTION), Optional.empty());
    assertThat(q.record("r1").orElseThrow().status()).isEqualTo(DispatchStatus.PENDING);
  }

  @Test
  void everyFencedCommitNeedsTheCurrentClaimOfTheSameRunAndThread() {
    // DUR-07: the current owner's commit lands; stale epoch, other run, other thread and a
    // missing record are fenced, writing nothing and moving no sequence
    q.submit(act("r1"), 0);
    DispatchClaim stale = claim("a", 0);
    DispatchClaim current = claim("b", LEASE + 1);
    assertThat(commit(running(rig.thread, "r1"), Optional.of(current.fence())).sequence()).isEqualTo(1);
    fenced(running(rig.thread, "r1"), stale.fence());
    fenced(running(rig.thread, "r2"), current.fence());
    fenced(running(rig.thread, "r1"), new LeaseFence("r1", "other-thread", "b", current.epoch()));
    fenced(running(rig.thread, "r3"), new LeaseFence("r3", rig.thread, "b", 1));
    fenced(running(rig.thread, "r1"), new LeaseFence("r1", rig.thread, "someone-else", current.epoch()));
    assertThat(rig.store().view().run("r1").orElseThrow().headSequence()).isEqualTo(1);
    assertThat(rig.store().view().run("r2")).isEmpty();
    assertThat(commit(running(rig.thread, "r1"), Optional.of(current.fence())).sequence()).isEqualTo(2);
  }

  private void fenced(ThreadCommit c, LeaseFence fence) {
    assertThatThrownBy(() -> commit(c, Optional.of(fence))).isInstanceOf(CompletionException.class).cause()
        .isInstanceOf(CommitRejectedException.class)
        .hasMessage("commit for run " + c.run().runId() + " is fenced: the dispatch claim (owner "
            + fence.owner() + ", epoch " + fence.epoch() + ") is no longer current")
        .satisfies(e -> assertThat(((CommitRejectedException) e).code()).isEqualTo("fenced"));
  }

  @Test
  void aPauseTicketIsNotScheduledWork() {
    ResumeTicket t = ResumeTicket.of("c", "r1", rig.thread, "snap", "fp", AwaitTarget.pause(PauseReason.MANUAL));
    commit(new ThreadCommit(rig.thread, new RunDisposition.Awaiting(t), List.of(), List.of(), List.of()),
        Optional.empty());
    assertThat(q.record("r1")).isEmpty();
  }
}

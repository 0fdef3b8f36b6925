package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.gate.AwaitTarget;
import dev.horae.gate.EndCause;
import dev.horae.gate.PauseReason;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.session.Json;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The durable dispatcher's rules (gate specification §12.5.2–§12.5.8) on a manual clock, for
 * every backend. A crash is a claim taken and dropped (or an attempt left hanging with renewal
 * off), then the clock moved past the lease.
 */
abstract class DurableDispatcherContract {

  static final long LEASE = 1_000;
  static final DispatcherOptions OPTIONS = DispatcherOptions.withLease(LEASE);
  static final DispatcherOptions NO_RENEWAL = OPTIONS.renewingEvery(0);

  DispatchRig rig;

  abstract DispatchRig.Kind kind();

  @BeforeEach
  void open() {
    rig = DispatchRig.of(kind());
  }

  DurableDispatcher.Attempt tick(DurableDispatcher d) {
    return d.tick().toCompletableFuture().join().orElseThrow();
  }

  static RunState ended(EndCause cause) {
    return RunState.ended(cause);
  }

  ToolBatch batch(String runId) {
    return CommitCodec.decodeBatch(java.util.Objects.requireNonNull(
        rig.store().view().committedRunState(runId).get(ToolBatch.STATE_KEY)));
  }

  ResumeCommand answer(String runId, String correlation, ResumeResult result) {
    ResumeTicket t = rig.store().view().resumeTicket(runId).orElseThrow();
    return ResumeCommand.of(correlation, runId, t.threadId(), t.snapshotId(), t.catalogFingerprint(), result, rig.now());
  }

  @Test
  void aCommittedScheduledActionIsPerformedFromTheOutboxRecord() {
    // DUR-01
    rig.scheduleEveryCall();
    assertThat(rig.execute("run-1", "go")).isEqualTo(RunState.awaiting());
    assertThat(rig.queue.record("run-1").orElseThrow().status()).isEqualTo(DispatchStatus.PENDING);
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    DurableDispatcher.Attempt a = tick(d);
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(a.claim().recovery()).isFalse();
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
    assertThat(rig.toolRuns).hasValue(1);
    assertThat(rig.queue.record("run-1")).isEmpty();
    assertThat(d.tick().toCompletableFuture().join()).isEmpty();
  }

  @Test
  void aClaimDroppedByACrashIsRecoveredAfterTheLeaseAndPerformsOnce() {
    // DUR-02
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    DispatchClaim dead = rig.queue.claim("dead-owner", LEASE, rig.now(), 5).orElseThrow();
    DurableDispatcher d = rig.dispatcher("owner-b", OPTIONS);
    assertThat(d.tick().toCompletableFuture().join()).as("the dead owner's lease is live").isEmpty();
    rig.timers.advance(LEASE + 1);
    DurableDispatcher.Attempt a = tick(d);
    assertThat(a.claim().recovery()).isTrue();
    assertThat(a.claim().attemptCount()).isEqualTo(1);
    assertThat(a.claim().epoch()).isEqualTo(dead.epoch() + 1);
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.toolRuns).hasValue(1);
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
  }

  @Test
  void aCrashAfterThePreCommitRecoversTheCallByItsPolicyAndTheLateOwnerIsFenced() {
    // DUR-03, LEASE-02: the first attempt dies inside a neverReplay tool; the recovery marks the
    // call indeterminate and finishes the Run; the first owner's late result is fenced
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    CompletableFuture<ToolOutput> held = new CompletableFuture<>();
    rig.holdTools(held);
    DurableDispatcher first = rig.dispatcher("owner-a", NO_RENEWAL);
    CompletableFuture<Optional<DurableDispatcher.Attempt>> hanging = first.tick().toCompletableFuture();
    assertThat(hanging).isNotDone();
    assertThat(rig.toolRuns).hasValue(1);
    rig.tool = rig::echo;
    rig.timers.advance(LEASE + 1);
    DurableDispatcher second = rig.dispatcher("owner-b", OPTIONS);
    DurableDispatcher.Attempt a = tick(second);
    assertThat(a.claim().recovery()).isTrue();
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
    assertThat(rig.toolRuns).as("neverReplay: not run again").hasValue(1);
    ToolBatch batch = batch("run-1");
    assertThat(batch.call("call-1").orElseThrow().phase())
        .isEqualTo(new ToolCallPhase.Indeterminate(RunDriver.NO_REPLAY));

    held.complete(ToolOutput.success("call-1", Json.parse("\"late\"")));
    DurableDispatcher.Attempt late = hanging.join().orElseThrow();
    assertThat(late.result()).as("the Run ended meanwhile: settle finds the claim stale")
        .isEqualTo(DurableDispatcher.Result.FENCED);
    assertThat(rig.terminals).containsExactly(ended(EndCause.naturalEnd()));
  }

  @Test
  void aLapsedLeaseLetsASecondOwnerRunAReplaySafeToolAgainButTheLogRecordsOneOutcome() {
    // LEASE-05: tool ran 2, one ended fact
    rig.scheduleEveryCall();
    rig.execute("run-1", "tool:replayable");
    CompletableFuture<ToolOutput> held = new CompletableFuture<>();
    rig.holdTools(held);
    DurableDispatcher first = rig.dispatcher("owner-a", NO_RENEWAL);
    CompletableFuture<Optional<DurableDispatcher.Attempt>> hanging = first.tick().toCompletableFuture();
    rig.tool = rig::echo;
    rig.timers.advance(LEASE + 1);
    DurableDispatcher.Attempt second = tick(rig.dispatcher("owner-b", OPTIONS));
    assertThat(second.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.toolRuns).hasValue(2);
    held.complete(ToolOutput.success("call-1", Json.parse("\"late\"")));
    hanging.join();
    assertThat(rig.terminals).containsExactly(ended(EndCause.naturalEnd()));
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
  }

  @Test
  void renewalKeepsALongAttemptOwnedAndWithoutItTheLeaseLapses() {
    // LEASE-04
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    rig.execute("run-2", "go");
    CompletableFuture<ToolOutput> held = new CompletableFuture<>();
    rig.holdTools(held);
    DurableDispatcher renewing = rig.dispatcher("owner-a", OPTIONS);
    List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
    var unused = renewing.onActivity((activity, claim) -> heard.add(activity + " " + claim.runId()));
    CompletableFuture<Optional<DurableDispatcher.Attempt>> one = renewing.tick().toCompletableFuture();
    DurableDispatcher silent = rig.dispatcher("owner-s", NO_RENEWAL);
    CompletableFuture<Optional<DurableDispatcher.Attempt>> two = silent.tick().toCompletableFuture();
    rig.timers.advance(3 * LEASE);
    DispatchRecord kept = rig.queue.record("run-1").orElseThrow();
    assertThat(kept.owner()).contains("owner-a");
    assertThat(kept.leaseExpiresMs().getAsLong()).isGreaterThanOrEqualTo(rig.now());
    assertThat(rig.queue.record("run-2").orElseThrow().leaseExpiresMs().getAsLong()).isLessThan(rig.now());
    DispatchClaim other = rig.queue.claim("owner-b", LEASE, rig.now(), 5).orElseThrow();
    assertThat(other.runId()).as("only the unrenewed claim is recoverable").isEqualTo("run-2");
    // one claim, then a renewal every third of the lease (333 ms) through the 3 s
    assertThat(heard).first().isEqualTo("CLAIMED run-1");
    assertThat(heard).hasSize(10).filteredOn(h -> h.equals("RENEWED run-1")).hasSize(9);
    held.complete(ToolOutput.success("call-1", Json.parse("\"ok\"")));
    assertThat(one.join().orElseThrow().result()).isEqualTo(DurableDispatcher.Result.DONE);
    two.join();
    assertThat(rig.queue.record("run-2").orElseThrow().owner()).contains("owner-b");
  }

  @Test
  void anAttemptThatLostItsLeaseAbortsBeforeTheExecutor() {
    // LEASE-06: the gate runs past the lease; the executing move lands (the epoch is current) but
    // the ownership check stops the tool
    rig.gate((call, state) -> {
      rig.host.advance(Duration.ofMillis(LEASE + 1));
      return CompletableFuture.completedFuture(GateOutcome.allow());
    });
    DurableDispatcher d = rig.dispatcher("owner-a", NO_RENEWAL);
    d.submit(rig.activation("run-1", "go"));
    DurableDispatcher.Attempt a = tick(d);
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.LEFT);
    assertThat(a.failure().orElseThrow()).isInstanceOf(GateRuntimeException.Execution.class)
        .hasMessage("dispatch claim for run run-1 no longer owns external execution");
    assertThat(rig.toolRuns).hasValue(0);
    assertThat(rig.state("run-1")).contains(RunState.running());
    assertThat(rig.queue.record("run-1").orElseThrow().status()).isEqualTo(DispatchStatus.RUNNING);
  }

  @Test
  void chainedScheduledActionsArePerformedInOneDrive() {
    // DUR-10
    rig.scheduleEveryCall();
    rig.execute("run-1", "calls:3");
    DurableDispatcher.Attempt a = tick(rig.dispatcher("owner-a", OPTIONS));
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.toolRuns).hasValue(3);
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
  }

  @Test
  void settleFollowsTheCommittedStateAwaitingOrDone() {
    // DUR-04: awaiting → awaiting, ended → done; a rejected perform that moved nothing is left
    rig.confirmEveryCall();
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    d.submit(rig.activation("run-1", "go"));
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.AWAITING);
    assertThat(rig.queue.record("run-1").orElseThrow().status()).isEqualTo(DispatchStatus.AWAITING);
    d.submitResume(answer("run-1", "confirm-call-1", ResumeResult.allow()));
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
    assertThat(rig.queue.record("run-1")).isEmpty();
  }

  @Test
  void aPerformRejectedWithoutProgressIsLeftForItsLeaseToExpire() {
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    AgentRuntime bare = AgentRuntime.builder(r -> CompletableFuture.failedFuture(new IllegalStateException()),
        (c, x) -> CompletableFuture.failedFuture(new IllegalStateException())).build();
    DurableDispatcher d = DurableDispatcher.builder(bare, rig.queue).clock(rig.host.clock())
        .timers(rig.timers).executor(rig.executor()).owner("owner-a").options(OPTIONS).build();
    DurableDispatcher.Attempt a = tick(d);
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.LEFT);
    assertThat(a.failure().orElseThrow().getMessage()).contains("snapshot for resume not found");
    assertThat(rig.store().view().resumeTicket("run-1")).isPresent();
    assertThat(rig.queue.record("run-1").orElseThrow().status()).isEqualTo(DispatchStatus.RUNNING);
  }

  @Test
  void freeFormInputNeverAnswersAPermissionWait() {
    // DUR-05
    rig.confirmEveryCall();
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    d.submit(rig.activation("run-1", "go"));
    tick(d);
    d.submitResume(answer("run-1", "confirm-call-1", new ResumeResult.Input("yes please")));
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.AWAITING);
    assertThat(rig.toolRuns).hasValue(0);
    assertThat(rig.store().view().resumeTicket("run-1")).isPresent();
    assertThat(rig.queue.resumes("run-1")).as("the rejected command is consumed").isEmpty();
  }

  @Test
  void freeFormInputAnswersAManualPause() {
    // DUR-06
    ResumeTicket pause = ResumeTicket.of("pause-1", "run-1", rig.thread, DispatchRig.SNAPSHOT,
        rig.runtime.snapshot(DispatchRig.SNAPSHOT).orElseThrow().catalogFingerprint(),
        AwaitTarget.pause(PauseReason.MANUAL));
    rig.store().commit(new ThreadCommit(rig.thread, new RunDisposition.Awaiting(pause), List.of(), List.of(),
        List.of()), CommitConditions.none()).toCompletableFuture().join();
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    d.submitResume(answer("run-1", "pause-1", new ResumeResult.Input("carry on")));
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
    assertThat(rig.toolRuns).hasValue(1);
  }

  @Test
  void staleAnswersAreDroppedAndOnlyTheMatchingOneIsDelivered() {
    rig.confirmEveryCall();
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    d.submit(rig.activation("run-1", "calls:2"));
    tick(d);
    long stale = d.submitResume(answer("run-1", "confirm-call-0", ResumeResult.allow()));
    long good = d.submitResume(answer("run-1", "confirm-call-1", ResumeResult.allow()));
    long early = d.submitResume(answer("run-1", "confirm-call-2", ResumeResult.allow()));
    // the early answer matches the next ticket, so the same drive delivers it too
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(List.of(stale, good, early)).doesNotHaveDuplicates();
    assertThat(rig.toolRuns).hasValue(2);
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
  }

  @Test
  void aRedeliveryAfterACrashBetweenResumeAndSettleIsDroppedByCorrelation() {
    // CRASH-02
    rig.confirmEveryCall();
    DurableDispatcher d = rig.dispatcher("owner-b", OPTIONS);
    d.submit(rig.activation("run-1", "calls:2"));
    tick(d);
    ResumeCommand first = answer("run-1", "confirm-call-1", ResumeResult.allow());
    d.submitResume(first);
    // the dead owner claims, delivers the answer (it commits) and dies before settling
    DispatchClaim dead = rig.queue.claim("dead-owner", LEASE, rig.now(), 5).orElseThrow();
    RunContext deadCtx = rig.ctx().withClaim(new ClaimGuard(dead.fence(), () -> true));
    assertThat(rig.runtime.resume(first, deadCtx).toCompletableFuture().join())
        .isEqualTo(new ResumeOutcome.Advanced(RunState.awaiting()));
    assertThat(rig.toolRuns).hasValue(1);
    rig.timers.advance(LEASE + 1);
    DurableDispatcher.Attempt a = tick(d);
    assertThat(a.claim().recovery()).isTrue();
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.AWAITING);
    assertThat(rig.toolRuns).as("the answer is not applied twice").hasValue(1);
    assertThat(rig.queue.resumes("run-1")).isEmpty();
    assertThat(rig.store().view().resumeTicket("run-1").orElseThrow().correlationId()).isEqualTo("confirm-call-2");
  }

  @Test
  void anEndedRunSettlesDoneWithoutExecutingAndDropsItsAnswers() {
    // LEASE-03
    rig.confirmEveryCall();
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    d.submit(rig.activation("run-1", "go"));
    tick(d);
    d.submitResume(answer("run-1", "confirm-call-1", ResumeResult.allow()));
    rig.runtime.stopRun("run-1", rig.thread, "budget", rig.ctx()).toCompletableFuture().join();
    int inferences = rig.inferences.get();
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.inferences).hasValue(inferences);
    assertThat(rig.toolRuns).hasValue(0);
    assertThat(rig.queue.record("run-1")).isEmpty();
    assertThat(rig.queue.resumes("run-1")).isEmpty();
  }

  @Test
  void aCancelIntentEndsTheRunWithoutCallingTheModel() {
    // DUR-09
    rig.confirmEveryCall();
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    d.submit(rig.activation("run-1", "go"));
    tick(d);
    int inferences = rig.inferences.get();
    d.cancel("run-1", rig.thread);
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.cancelled()));
    assertThat(rig.inferences).hasValue(inferences);
    assertThat(rig.queue.record("run-1")).isEmpty();
  }

  @Test
  void aCancelIntentSurvivesACrashedClaim() {
    // CRASH-01
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    DurableDispatcher d = rig.dispatcher("owner-b", OPTIONS);
    d.cancel("run-1", rig.thread);
    assertThat(rig.queue.claim("dead-owner", LEASE, rig.now(), 5)).isPresent();
    rig.timers.advance(LEASE + 1);
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.cancelled()));
    assertThat(rig.toolRuns).hasValue(0);
  }

  @Test
  void aCancelDuringTheDriveEndsTheRunAtItsNextBoundary() {
    rig.scheduleEveryCall();
    rig.execute("run-1", "calls:2");
    CompletableFuture<ToolOutput> held = new CompletableFuture<>();
    rig.holdTools(held);
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    CompletableFuture<Optional<DurableDispatcher.Attempt>> drive = d.tick().toCompletableFuture();
    d.cancel("run-1", rig.thread);
    rig.timers.advance(OPTIONS.renewIntervalMs());
    held.complete(ToolOutput.success("call-1", Json.parse("\"ok\"")));
    assertThat(drive.join().orElseThrow().result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.cancelled()));
    assertThat(rig.toolRuns).as("the second scheduled action never ran").hasValue(1);
  }

  @Test
  void theRetryBudgetEndsTheRunIndeterminate() {
    // RETRY-01: first attempt plus maxRecoveryAttempts recoveries, then indeterminate
    DispatcherOptions opts = NO_RENEWAL.recoveringAtMost(2);
    rig.holdTools(new CompletableFuture<>());
    DurableDispatcher first = rig.dispatcher("owner-0", opts);
    first.submit(rig.activation("run-1", "go"));
    assertThat(first.tick().toCompletableFuture()).isNotDone();
    for (int i = 1; i <= 2; i++) {
      rig.timers.advance(LEASE + 1);
      assertThat(rig.queue.claim("dead-" + i, LEASE, rig.now(), 2).orElseThrow().attemptCount()).isEqualTo(i);
    }
    rig.timers.advance(LEASE + 1);
    DurableDispatcher last = rig.dispatcher("owner-z", opts);
    List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
    var unused = last.onActivity((activity, claim) -> heard.add(activity + " " + claim.runId() + " " + claim.attemptCount()));
    DurableDispatcher.Attempt a = tick(last);
    assertThat(heard).containsExactly("CLAIMED run-1 2", "ENDED_INDETERMINATE run-1 2");
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.indeterminate()));
    assertThat(rig.terminals).containsExactly(ended(EndCause.indeterminate()));
    ToolBatch batch = batch("run-1");
    assertThat(batch.call("call-1").orElseThrow().phase())
        .isEqualTo(new ToolCallPhase.Indeterminate("retry budget exhausted after 2 recovery attempts"));
    assertThat(rig.toolRuns).hasValue(1);
    assertThat(rig.queue.record("run-1")).isEmpty();
  }

  @Test
  void anExpiredScheduledActionIsStoppedNotPerformed() {
    rig.scheduleEveryCall();
    rig.runtime.execute(rig.activation("run-1", "go"), rig.ctx().withDeadlinePolicy((t, now) -> OptionalLong.of(now + 10))
        .at(rig.now())).toCompletableFuture().join();
    rig.timers.advance(11);
    DurableDispatcher.Attempt a = tick(rig.dispatcher("owner-a", OPTIONS));
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.stopped(DurableDispatcher.EXPIRED)));
    assertThat(rig.toolRuns).hasValue(0);
  }

  @Test
  void aFreshClaimOnARunDrivenElsewhereReleasesIt() {
    rig.gate((call, state) -> {
      // while the embedded caller drives the Run, a reconcile gives it a record
      rig.queue.reconcile("run-1", rig.thread, rig.now());
      DurableDispatcher.Attempt a = tick(rig.dispatcher("owner-a", OPTIONS));
      assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
      return CompletableFuture.completedFuture(GateOutcome.allow());
    });
    assertThat(rig.execute("run-1", "go")).isEqualTo(ended(EndCause.naturalEnd()));
    assertThat(rig.toolRuns).hasValue(1);
    assertThat(rig.queue.record("run-1")).isEmpty();
  }

  @Test
  void startReconcilesClaimsOnWakeAndPollsOnTheClock() {
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    d.start();
    rig.runWork();
    d.submit(rig.activation("run-1", "go"));
    rig.runWork();
    assertThat(rig.state("run-1")).as("the wake hint drove it").contains(ended(EndCause.naturalEnd()));
    // a record available later is found by the poll, with no hint
    rig.queue.submit(rig.activation("run-2", "go"), rig.now() + 500);
    rig.runWork();
    assertThat(rig.state("run-2")).isEmpty();
    rig.timers.advance(OPTIONS.pollIntervalMs());
    rig.runWork();
    assertThat(rig.state("run-2")).contains(ended(EndCause.naturalEnd()));
    d.close();
    rig.queue.submit(rig.activation("run-3", "go"), rig.now());
    rig.timers.advance(10 * OPTIONS.pollIntervalMs());
    rig.runWork();
    assertThat(rig.state("run-3")).as("closed: nothing claimed").isEmpty();
  }

  @Test
  void ownerIdsAreUniquePerInstance() {
    DurableDispatcher a = DurableDispatcher.builder(rig.runtime, rig.queue).clock(rig.host.clock())
        .timers(rig.timers).executor(rig.executor()).build();
    DurableDispatcher b = DurableDispatcher.builder(rig.runtime, rig.queue).clock(rig.host.clock())
        .timers(rig.timers).executor(rig.executor()).build();
    assertThat(a.owner()).isNotEqualTo(b.owner()).contains(":" + ProcessHandle.current().pid() + ":");
  }

  @Test
  void workersBoundTheClaimsHeldAtOnce() {
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    rig.execute("run-2", "go");
    rig.execute("run-3", "go");
    CompletableFuture<ToolOutput> held = new CompletableFuture<>();
    rig.holdTools(held);
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS.withWorkers(2));
    d.start();
    rig.runWork();
    assertThat(rig.toolRuns).as("two workers, two attempts in flight").hasValue(2);
    assertThat(rig.queue.record("run-3").orElseThrow().status()).isEqualTo(DispatchStatus.PENDING);
    rig.tool = rig::echo;
    held.complete(ToolOutput.success("call-1", Json.parse("\"ok\"")));
    rig.runWork();
    assertThat(rig.toolRuns).hasValue(3);
    assertThat(List.of(rig.state("run-1"), rig.state("run-2"), rig.state("run-3")))
        .containsOnly(Optional.of(ended(EndCause.naturalEnd())));
    d.close();
  }

  @Test
  void aContextCommittingElsewhereIsRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> rig.dispatcher("owner-a")
            .context(RunContext.of(CommitStore.inMemory())).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the dispatcher's context must commit through the queue's store: the outbox and fence live there");
  }

  @Test
  void optionsOutOfRangeAreRejected() {
    for (long[] bad : new long[][] {{0, 0, 1, 0, 1, 1}, {1, -1, 1, 0, 1, 1}, {1, 0, 0, 0, 1, 1},
        {1, 0, 1, -1, 1, 1}, {1, 0, 1, 0, 0, 1}, {1, 0, 1, 0, 1, 0}}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DispatcherOptions(bad[0], bad[1], bad[2],
              (int) bad[3], bad[4], (int) bad[5]))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(new DispatcherOptions(1, 0, 1, 0, 1, 1).leaseMs()).isEqualTo(1);
    DispatcherOptions o = OPTIONS.pollingEvery(7).reconcilingEvery(8).recoveringAtMost(9).withWorkers(3).renewingEvery(4);
    assertThat(o).isEqualTo(new DispatcherOptions(LEASE, 4, 7, 9, 8, 3));
  }

  @Test
  void theDefaultsAreTheSpecifiedOnes() {
    assertThat(DispatcherOptions.defaults()).isEqualTo(new DispatcherOptions(30_000, 10_000, 1_000, 5, 60_000, 1));
  }
}

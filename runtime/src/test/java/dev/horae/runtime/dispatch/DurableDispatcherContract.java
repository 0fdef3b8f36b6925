package dev.horae.runtime.dispatch;

import static dev.horae.runtime.dispatch.DispatchRig.run;
import static dev.horae.runtime.dispatch.DispatchRig.tick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.EndCause;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.ClaimGuard;
import dev.horae.gate.runtime.CommitStore;
import dev.horae.gate.runtime.DispatchClaim;
import dev.horae.gate.runtime.DispatchRecord;
import dev.horae.gate.runtime.DispatchStatus;
import dev.horae.gate.runtime.DispatcherOptions;
import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.gate.runtime.RunContext;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The durable dispatcher's rules (gate specification §12.5.2–§12.5.8) driving the production turn
 * engine on a manual clock, for every backend. A Run is parked by a turn of the runtime (a {@code
 * schedule} or {@code requireConfirmation} verdict); a crash is a claim taken and dropped (or an
 * attempt left hanging with renewal off), then the clock moved past the lease. A Run's outcomes
 * are its terminal facts in the session log.
 *
 * <p>Three rules of the old engine's suite are not met by this engine and are not here: the
 * recovery of a Run whose attempt still runs in this process (DUR-03: the runtime refuses it while
 * the turn is open here, and ends it {@code stopped("interrupted")} once the turn is over), a
 * claim lost before a later call of the drive (LEASE-06: the call runs and the Run ends), and the
 * retry budget's reason on the sealed call (RETRY-01: the call reads the generic unsettled reason).
 */
@Timeout(60)
abstract class DurableDispatcherContract {

  static final long LEASE = 1_000;
  static final DispatcherOptions OPTIONS = DispatcherOptions.withLease(LEASE);
  static final DispatcherOptions NO_RENEWAL = OPTIONS.renewingEvery(0);

  @TempDir
  Path dir;

  DispatchRig rig;

  abstract DispatchRig.Kind kind();

  @BeforeEach
  void open() {
    rig = DispatchRig.of(kind(), dir);
  }

  @AfterEach
  void close() {
    rig.close();
  }

  static RunState ended(EndCause cause) {
    return RunState.ended(cause);
  }

  static JsonNode late() {
    return Json.parse("\"late\"");
  }

  /** Runs dispatcher work as it comes (from the runtime's threads too) until {@code done} holds. */
  void runWorkUntil(BooleanSupplier done) throws InterruptedException {
    while (!done.getAsBoolean()) {
      rig.runWork(1);
    }
  }

  @Test
  void aCommittedScheduledActionIsPerformedFromTheOutboxRecord() throws Exception {
    // DUR-01
    rig.scheduleEveryCall();
    assertThat(rig.execute("run-1", "go")).contains(RunState.awaiting());
    assertThat(rig.queue.record(run("run-1")).orElseThrow().status()).isEqualTo(DispatchStatus.PENDING);
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    DurableDispatcher.Attempt a = tick(d);
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(a.claim().recovery()).isFalse();
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
    assertThat(rig.toolRuns).hasValue(1);
    assertThat(rig.queue.record(run("run-1"))).isEmpty();
    assertThat(d.tick().toCompletableFuture().get(DispatchRig.BOUND_S, TimeUnit.SECONDS)).isEmpty();
    rig.awaitIdle("run-1");
    assertThat(rig.lastTurnEnd("run-1")).isEqualTo("completed");
  }

  @Test
  void aClaimDroppedByACrashIsRecoveredAfterTheLeaseAndPerformsOnce() throws Exception {
    // DUR-02
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    DispatchClaim dead = rig.queue.claim("dead-owner", LEASE, rig.now(), 5).orElseThrow();
    DurableDispatcher d = rig.dispatcher("owner-b", OPTIONS);
    assertThat(d.tick().toCompletableFuture().get(DispatchRig.BOUND_S, TimeUnit.SECONDS))
        .as("the dead owner's lease is live").isEmpty();
    rig.clock.advance(LEASE + 1);
    DurableDispatcher.Attempt a = tick(d);
    assertThat(a.claim().recovery()).isTrue();
    assertThat(a.claim().attemptCount()).isEqualTo(1);
    assertThat(a.claim().epoch()).isEqualTo(dead.epoch() + 1);
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.toolRuns).hasValue(1);
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
  }

  @Test
  void renewalKeepsALongAttemptOwnedAndWithoutItTheLeaseLapses() throws Exception {
    // LEASE-04
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    rig.execute("run-2", "go");
    CompletableFuture<JsonNode> held = new CompletableFuture<>();
    rig.holdTools(held);
    DurableDispatcher renewing = rig.dispatcher("owner-a", OPTIONS);
    List<String> heard = new CopyOnWriteArrayList<>();
    var unused = renewing.onActivity((activity, claim) -> heard.add(activity + " " + claim.runId()));
    CompletableFuture<Optional<DurableDispatcher.Attempt>> one = renewing.tick().toCompletableFuture();
    rig.awaitToolEntries(1);
    DurableDispatcher silent = rig.dispatcher("owner-s", NO_RENEWAL);
    CompletableFuture<Optional<DurableDispatcher.Attempt>> two = silent.tick().toCompletableFuture();
    rig.awaitToolEntries(1);
    String first = heard.get(0).substring("CLAIMED ".length());
    String second = first.equals(run("run-1")) ? run("run-2") : run("run-1");
    rig.clock.advance(3 * LEASE);
    DispatchRecord kept = rig.queue.record(first).orElseThrow();
    assertThat(kept.owner()).contains("owner-a");
    assertThat(kept.leaseExpiresMs().getAsLong()).isGreaterThanOrEqualTo(rig.now());
    DispatchClaim other = rig.queue.claim("owner-b", LEASE, rig.now(), 5).orElseThrow();
    assertThat(other.runId()).as("only the unrenewed claim is recoverable").isEqualTo(second);
    // one claim, then a renewal every third of the lease (333 ms) through the 3 s
    assertThat(heard).first().isEqualTo("CLAIMED " + first);
    assertThat(heard).hasSize(10).filteredOn(h -> h.equals("RENEWED " + first)).hasSize(9);
    held.complete(late());
    assertThat(one.get(DispatchRig.BOUND_S, TimeUnit.SECONDS).orElseThrow().result()).isEqualTo(DurableDispatcher.Result.DONE);
    two.get(DispatchRig.BOUND_S, TimeUnit.SECONDS);
    assertThat(rig.queue.record(second).orElseThrow().owner()).contains("owner-b");
  }

  @Test
  void chainedScheduledActionsArePerformedInOneDrive() throws Exception {
    // DUR-10
    rig.scheduleEveryCall();
    rig.execute("run-1", "calls:3");
    DurableDispatcher.Attempt a = tick(rig.dispatcher("owner-a", OPTIONS));
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.toolRuns).hasValue(3);
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
  }

  @Test
  void settleFollowsTheCommittedStateAwaitingOrDone() throws Exception {
    // DUR-04: awaiting → awaiting, ended → done
    rig.confirmEveryCall();
    rig.execute("run-1", "calls:2");
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    d.submitResume(rig.answer("run-1", "confirm-call-1", ResumeResult.allow()));
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.AWAITING);
    assertThat(rig.queue.record(run("run-1")).orElseThrow().status()).isEqualTo(DispatchStatus.AWAITING);
    d.submitResume(rig.answer("run-1", "confirm-call-2", ResumeResult.allow()));
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
    assertThat(rig.queue.record(run("run-1"))).isEmpty();
  }

  @Test
  void aPerformRejectedWithoutProgressIsLeftForItsLeaseToExpire() throws Exception {
    // the agent's tools changed on this node after the park: the perform is refused and moves nothing
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    rig.horae.tools().register(ToolDefinition.builder("other").description("Changes the catalog.")
        .parameters(Json.parse("{\"type\":\"object\"}")).body((args, exec) -> CompletableFuture.completedFuture(args)).build());
    DurableDispatcher.Attempt a = tick(rig.dispatcher("owner-a", OPTIONS));
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.LEFT);
    assertThat(a.failure().orElseThrow().getMessage()).startsWith("perform of run " + run("run-1") + " was rejected: ");
    assertThat(rig.commits().view().resumeTicket(run("run-1"))).isPresent();
    assertThat(rig.queue.record(run("run-1")).orElseThrow().status()).isEqualTo(DispatchStatus.RUNNING);
    assertThat(rig.toolRuns).hasValue(0);
  }

  @Test
  void freeFormInputNeverAnswersAPermissionWait() throws Exception {
    // DUR-05
    rig.confirmEveryCall();
    rig.execute("run-1", "go");
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    d.submitResume(rig.answer("run-1", "confirm-call-1", new ResumeResult.Input("yes please")));
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.AWAITING);
    assertThat(rig.toolRuns).hasValue(0);
    assertThat(rig.commits().view().resumeTicket(run("run-1"))).isPresent();
    assertThat(rig.queue.resumes(run("run-1"))).as("the rejected command is consumed").isEmpty();
  }

  @Test
  void staleAnswersAreDroppedAndOnlyTheMatchingOneIsDelivered() throws Exception {
    rig.confirmEveryCall();
    rig.execute("run-1", "calls:2");
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    long stale = d.submitResume(rig.answer("run-1", "confirm-call-0", ResumeResult.allow()));
    long good = d.submitResume(rig.answer("run-1", "confirm-call-1", ResumeResult.allow()));
    long early = d.submitResume(rig.answer("run-1", "confirm-call-2", ResumeResult.allow()));
    // the early answer matches the next ticket, so the same drive delivers it too
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(List.of(stale, good, early)).doesNotHaveDuplicates();
    assertThat(rig.toolRuns).hasValue(2);
    assertThat(rig.state("run-1")).contains(ended(EndCause.naturalEnd()));
  }

  @Test
  void aRedeliveryAfterACrashBetweenResumeAndSettleIsDroppedByCorrelation() throws Exception {
    // CRASH-02
    rig.confirmEveryCall();
    rig.execute("run-1", "calls:2");
    DurableDispatcher d = rig.dispatcher("owner-b", OPTIONS);
    ResumeCommand first = rig.answer("run-1", "confirm-call-1", ResumeResult.allow());
    d.submitResume(first);
    // the dead owner claims, delivers the answer (it commits) and dies before settling
    DispatchClaim dead = rig.queue.claim("dead-owner", LEASE, rig.now(), 5).orElseThrow();
    assertThat(rig.horae.agents().resume(first, Optional.of(new ClaimGuard(dead.fence(), () -> true)))
        .toCompletableFuture().get(DispatchRig.BOUND_S, TimeUnit.SECONDS))
        .isEqualTo(new ResumeOutcome.Advanced(RunState.awaiting()));
    assertThat(rig.toolRuns).hasValue(1);
    rig.clock.advance(LEASE + 1);
    DurableDispatcher.Attempt a = tick(d);
    assertThat(a.claim().recovery()).isTrue();
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.AWAITING);
    assertThat(rig.toolRuns).as("the answer is not applied twice").hasValue(1);
    assertThat(rig.queue.resumes(run("run-1"))).isEmpty();
    assertThat(rig.commits().view().resumeTicket(run("run-1")).orElseThrow().correlationId()).isEqualTo("confirm-call-2");
  }

  @Test
  void anEndedRunSettlesDoneWithoutExecutingAndDropsItsAnswers() throws Exception {
    // LEASE-03
    rig.confirmEveryCall();
    rig.execute("run-1", "go");
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    d.submitResume(rig.answer("run-1", "confirm-call-1", ResumeResult.allow()));
    rig.horae.stop(run("run-1"), "budget").toCompletableFuture().get(DispatchRig.BOUND_S, TimeUnit.SECONDS);
    int inferences = rig.inferences.get();
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.inferences).hasValue(inferences);
    assertThat(rig.toolRuns).hasValue(0);
    assertThat(rig.queue.record(run("run-1"))).isEmpty();
    assertThat(rig.queue.resumes(run("run-1"))).isEmpty();
  }

  @Test
  void aCancelIntentEndsTheRunWithoutCallingTheModel() throws Exception {
    // DUR-09
    rig.confirmEveryCall();
    rig.execute("run-1", "go");
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    int inferences = rig.inferences.get();
    d.cancel(run("run-1"), "run-1");
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.cancelled()));
    assertThat(rig.inferences).hasValue(inferences);
    assertThat(rig.queue.record(run("run-1"))).isEmpty();
  }

  @Test
  void aCancelIntentSurvivesACrashedClaim() throws Exception {
    // CRASH-01
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    DurableDispatcher d = rig.dispatcher("owner-b", OPTIONS);
    d.cancel(run("run-1"), "run-1");
    assertThat(rig.queue.claim("dead-owner", LEASE, rig.now(), 5)).isPresent();
    rig.clock.advance(LEASE + 1);
    assertThat(tick(d).result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.cancelled()));
    assertThat(rig.toolRuns).hasValue(0);
  }

  @Test
  void aCancelDuringTheDriveEndsTheRunAtItsNextBoundary() throws Exception {
    rig.scheduleEveryCall();
    rig.execute("run-1", "calls:2");
    CompletableFuture<JsonNode> held = new CompletableFuture<>();
    rig.holdTools(held);
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    CompletableFuture<Optional<DurableDispatcher.Attempt>> drive = d.tick().toCompletableFuture();
    rig.awaitToolEntries(1);
    d.cancel(run("run-1"), "run-1");
    rig.clock.advance(OPTIONS.renewIntervalMs());
    held.complete(late());
    assertThat(drive.get(DispatchRig.BOUND_S, TimeUnit.SECONDS).orElseThrow().result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.cancelled()));
    assertThat(rig.toolRuns).as("the second scheduled action never ran").hasValue(1);
  }

  @Test
  void anExpiredScheduledActionIsStoppedNotPerformed() throws Exception {
    rig.close();
    rig = DispatchRig.of(kind(), dir.resolve("deadline"), b -> b.awaitDeadline(Duration.ofMillis(10)));
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    rig.clock.advance(11);
    DurableDispatcher.Attempt a = tick(rig.dispatcher("owner-a", OPTIONS));
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(ended(EndCause.stopped(DurableDispatcher.EXPIRED)));
    assertThat(rig.toolRuns).hasValue(0);
  }

  @Test
  void aFreshClaimOnARunDrivenElsewhereReleasesIt() throws Exception {
    // the embedded caller approves; while its resumed turn drives the Run, a reconcile gives the
    // Run a record and a dispatcher claims it: the Run is running here, so the claim is released
    List<Optional<RunState>> seen = new CopyOnWriteArrayList<>();
    List<DurableDispatcher.Result> results = new CopyOnWriteArrayList<>();
    rig.gate((call, state) -> {
      if (call.callId().equals("call-1")) {
        return CompletableFuture.completedFuture(GateOutcome.requireConfirmation("confirm-1"));
      }
      seen.add(rig.state("run-1"));
      rig.queue.reconcile(run("run-1"), "run-1", rig.now());
      try {
        results.add(tick(rig.dispatcher("owner-a", OPTIONS)).result());
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      return CompletableFuture.completedFuture(GateOutcome.allow());
    });
    rig.execute("run-1", "calls:2");
    assertThat(rig.horae.approve(run("run-1")).toCompletableFuture().get(DispatchRig.BOUND_S, TimeUnit.SECONDS))
        .isEqualTo(new ResumeOutcome.Advanced(ended(EndCause.naturalEnd())));
    assertThat(seen).containsExactly(Optional.of(RunState.running()));
    assertThat(results).containsExactly(DurableDispatcher.Result.DONE);
    assertThat(rig.toolRuns).hasValue(2);
    assertThat(rig.queue.record(run("run-1"))).isEmpty();
  }

  @Test
  void startReconcilesClaimsOnWakeAndPollsOnTheClock() throws Exception {
    rig.confirmEveryCall();
    rig.execute("run-1", "go");
    rig.execute("run-2", "go");
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS);
    d.start();
    rig.runWork();
    d.submitResume(rig.answer("run-1", "confirm-call-1", ResumeResult.allow()));
    rig.runWork(1);
    rig.awaitIdle("run-1");
    assertThat(rig.state("run-1")).as("the wake hint drove it").contains(ended(EndCause.naturalEnd()));
    rig.runWork(1); // the pump after the attempt: nothing left, it waits again
    // an answer stored with no hint is found by the poll
    rig.queue.submitResume(rig.answer("run-2", "confirm-call-1", ResumeResult.allow()), rig.now());
    rig.runWork();
    assertThat(rig.state("run-2")).contains(RunState.awaiting());
    rig.clock.advance(OPTIONS.pollIntervalMs());
    runWorkUntil(() -> rig.state("run-2").map(RunState::isTerminal).orElse(false));
    assertThat(rig.state("run-2")).contains(ended(EndCause.naturalEnd()));
    d.close();
    rig.runWork();
    rig.execute("run-3", "go");
    rig.queue.submitResume(rig.answer("run-3", "confirm-call-1", ResumeResult.allow()), rig.now());
    rig.clock.advance(10 * OPTIONS.pollIntervalMs());
    rig.runWork();
    assertThat(rig.state("run-3")).as("closed: nothing claimed").contains(RunState.awaiting());
    assertThat(rig.queue.resumes(run("run-3"))).hasSize(1);
  }

  @Test
  void ownerIdsAreUniquePerInstance() {
    DurableDispatcher a = rig.horae.durableDispatcher().build();
    DurableDispatcher b = rig.horae.durableDispatcher().build();
    assertThat(a.owner()).isNotEqualTo(b.owner()).contains(":" + ProcessHandle.current().pid() + ":");
  }

  @Test
  void workersBoundTheClaimsHeldAtOnce() throws Exception {
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    rig.execute("run-2", "go");
    rig.execute("run-3", "go");
    CompletableFuture<JsonNode> held = new CompletableFuture<>();
    rig.holdTools(held);
    DurableDispatcher d = rig.dispatcher("owner-a", OPTIONS.withWorkers(2));
    d.start();
    rig.runWork();
    rig.awaitToolEntries(2);
    assertThat(rig.toolRuns).as("two workers, two attempts in flight").hasValue(2);
    List<String> pending = java.util.stream.Stream.of("run-1", "run-2", "run-3")
        .filter(n -> rig.queue.record(run(n)).map(r -> r.status() == DispatchStatus.PENDING).orElse(false)).toList();
    assertThat(pending).hasSize(1);
    rig.tool = DispatchRig::echo;
    held.complete(late());
    runWorkUntil(() -> rig.state(pending.get(0)).map(RunState::isTerminal).orElse(false));
    assertThat(rig.toolRuns).hasValue(3);
    for (String n : List.of("run-1", "run-2", "run-3")) {
      rig.awaitIdle(n);
      assertThat(rig.state(n)).as(n).contains(ended(EndCause.naturalEnd()));
    }
    d.close();
  }

  @Test
  void aContextCommittingElsewhereIsRefused() {
    assertThatThrownBy(() -> rig.dispatcher("owner-a").context(RunContext.of(CommitStore.inMemory())).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the dispatcher's context must commit through the queue's store: the outbox and fence live there");
  }

  @Test
  void optionsOutOfRangeAreRejected() {
    for (long[] bad : new long[][] {{0, 0, 1, 0, 1, 1}, {1, -1, 1, 0, 1, 1}, {1, 0, 0, 0, 1, 1},
        {1, 0, 1, -1, 1, 1}, {1, 0, 1, 0, 0, 1}, {1, 0, 1, 0, 1, 0}}) {
      assertThatThrownBy(() -> new DispatcherOptions(bad[0], bad[1], bad[2], (int) bad[3], bad[4], (int) bad[5]))
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

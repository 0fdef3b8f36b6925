package dev.horae.jobs.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.jobs.fakes.FakeAgent;
import dev.horae.jobs.fakes.FakeRegistry;
import dev.horae.jobs.fakes.FakeScope;
import dev.horae.jobs.fakes.ManualExecutor;
import dev.horae.jobs.fakes.ManualTime;
import dev.horae.jobs.fakes.TestJob;
import dev.horae.spi.AbortController;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.jobs.KillOutcome;
import dev.horae.spi.plugin.Scope;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LocalJobServiceTest {

  final ManualTime time = new ManualTime(1_755_650_000_000L);
  final ManualExecutor settlements = new ManualExecutor();
  final FakeRegistry registry = new FakeRegistry();
  final List<String> warnings = Collections.synchronizedList(new ArrayList<>());
  final FakeAgent alice = registry.add(new FakeAgent("sess-1"));
  final List<Map.Entry<JobSnapshot, Optional<Agent>>> reported = new ArrayList<>();

  LocalJobService service = newService(10);
  Registration controller =
      service.attachController(
          Optional.empty(), "tool-jobs", (s, o) -> reported.add(Map.entry(s, o)));

  LocalJobService newService(long limit) {
    return LocalJobService.builder(time, time)
        .config(new JobServiceConfig(limit))
        .agents(registry)
        .warnings((m, c) -> warnings.add(m))
        .settlementExecutor(settlements)
        .build();
  }

  JobId start(TestJob job, Optional<Agent> owner) {
    return service.start(JobStart.builder("bash", "sleep 60", job::stream).owner(owner).build());
  }

  JobId startFinal(TestJob job, Optional<Agent> owner) {
    return service.start(
        JobStart.builder("subagent", "research", job::finalOutput).owner(owner).build());
  }

  Optional<Agent> a(Agent agent) {
    return Optional.of(agent);
  }

  @Test
  void idsArePerKindCountersAndAFailedProducerConsumesNoId() {
    assertThat(start(new TestJob(), a(alice)).value()).isEqualTo("bash-1");
    assertThatThrownBy(
            () ->
                service.start(
                    JobStart.builder(
                            "bash",
                            "x",
                            () -> {
                              throw new IllegalStateException("spawn");
                            })
                        .build()))
        .hasMessage("spawn");
    assertThat(start(new TestJob(), a(alice)).value()).isEqualTo("bash-2");
    assertThat(startFinal(new TestJob(), a(alice)).value()).isEqualTo("subagent-1");
  }

  @Test
  void preflightRunsInOrderWithExactTextsAndNeverCallsTheProducer() {
    AtomicInteger calls = new AtomicInteger();
    TestJob job = new TestJob();
    controller.close();
    assertThatThrownBy(
            () -> service.start(JobStart.builder("", "", () -> {
              calls.incrementAndGet();
              return job.stream();
            }).build()))
        .isInstanceOfSatisfying(
            JobsException.class,
            e -> assertThat(e.code()).isEqualTo(JobsException.CONTROLLER_UNAVAILABLE))
        .hasMessage(
            "background jobs unavailable: no job controller serves this agent (load the tool-jobs"
                + " controller in its composition)");
    service.attachController(Optional.empty(), "tool-jobs", (s, o) -> {});
    assertThatThrownBy(() -> service.start(JobStart.builder("", "", job::stream).build()))
        .hasMessage("invalid job kind: expected a non-empty string");
    assertThatThrownBy(() -> service.start(JobStart.builder("bash", "", job::stream).build()))
        .hasMessage("invalid job label: expected a non-empty string");
    assertThatThrownBy(
            () ->
                service.start(
                    JobStart.builder("bash", "x", job::stream).outputLimitBytes(0).build()))
        .hasMessage("invalid outputLimitBytes: expected a positive safe integer, got 0");
    FakeAgent stale = new FakeAgent("sess-1");
    assertThatThrownBy(
            () -> service.start(JobStart.builder("bash", "x", job::stream).owner(stale).build()))
        .isInstanceOfSatisfying(
            JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.OWNER_NOT_LIVE))
        .hasMessage(
            "agent \"sess-1\" is not the registered agent instance (background job owner must be"
                + " live)");
    LocalJobService noRegistry = LocalJobService.builder(time, time).settlementExecutor(settlements).build();
    noRegistry.attachController(Optional.empty(), "c", (s, o) -> {});
    assertThatThrownBy(
            () -> noRegistry.start(JobStart.builder("bash", "x", job::stream).owner(alice).build()))
        .hasMessage(
            "background job ownership requires the agent registry (the host provides none)");
    assertThat(calls).hasValue(0);
    assertThat(service.list(a(alice))).isEmpty();
    assertThat(start(job, a(alice)).value()).isEqualTo("bash-1");
  }

  @Test
  void aWallClockThatStepsBackCannotFinishAJobBeforeItStarted() {
    TestJob job = new TestJob();
    JobId id = start(job, a(alice));
    long started = service.allSnapshots().get(0).startedAt();
    time.setWall(started - 60_000);
    job.done.complete(JobOutcome.completed(Optional.empty()));
    settlements.runAll();
    JobSnapshot settled = service.allSnapshots().get(0);
    assertThat(settled.id()).isEqualTo(id);
    // the snapshot invariant (finishedAt no earlier than startedAt) holds without a companion
    assertThat(settled.finishedAt()).hasValue(started);
  }

  @Test
  void admissionCountsLiveJobsOfTheSameObjectAndOnlySettlementFreesASlot() {
    service = newService(2);
    service.attachController(Optional.empty(), "c", (s, o) -> {});
    TestJob first = new TestJob();
    JobId one = start(first, a(alice));
    start(new TestJob(), a(alice));
    assertThatThrownBy(() -> start(new TestJob(), a(alice)))
        .hasMessage(
            "background job limit reached for this owner (limit: 2); use job_kill to stop an"
                + " unneeded job, wait for it to finish, then retry");
    service.kill(one, a(alice), Optional.empty());
    assertThatThrownBy(() -> start(new TestJob(), a(alice)))
        .isInstanceOfSatisfying(
            JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.ADMISSION_LIMIT));
    // unowned jobs and a same-session replacement have their own buckets
    start(new TestJob(), Optional.empty());
    FakeAgent replacement = registry.add(new FakeAgent("sess-1"));
    start(new TestJob(), a(replacement));
    first.done.complete(JobOutcome.killed(Optional.of("signal: SIGTERM")));
    settlements.runAll();
    registry.add(alice);
    assertThat(start(new TestJob(), a(alice)).value()).isEqualTo("bash-5");
  }

  @Test
  void theFenceChecksUnknownIdsFirstThenTheSessionAndListsVisibleJobsInOrder() {
    FakeAgent bob = registry.add(new FakeAgent("sess-2"));
    JobId mine = start(new TestJob(), a(alice));
    JobId open = start(new TestJob(), Optional.empty());
    JobId theirs = start(new TestJob(), a(bob));
    assertThatThrownBy(() -> service.get(JobId.parse("bash-9"), a(bob)))
        .hasMessage("unknown job bash-9");
    assertThatThrownBy(() -> service.read(mine, a(bob)))
        .isInstanceOfSatisfying(
            JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.FOREIGN_JOB))
        .hasMessage("job bash-1 belongs to another session");
    assertThatThrownBy(() -> service.kill(mine, Optional.empty(), Optional.empty()))
        .hasMessage("job bash-1 belongs to another session");
    assertThatThrownBy(() -> service.await(mine, 10, Optional.empty(), AbortSignal.never()))
        .hasMessage("job bash-1 belongs to another session");
    assertThat(service.list(a(alice))).extracting(JobSnapshot::id).containsExactly(mine, open);
    assertThat(service.list(Optional.empty())).extracting(JobSnapshot::id).containsExactly(open);
    assertThat(service.list(a(bob))).extracting(JobSnapshot::id).containsExactly(open, theirs);
    // a stale object with the same session id sees and controls the owner's jobs (D-09)
    FakeAgent stale = new FakeAgent("sess-1");
    assertThat(service.get(mine, a(stale)).ownerSession()).contains("sess-1");
  }

  @Test
  void streamReadsConsumeAndATerminalReadMarksReportedAndWithdrawsNotices() {
    TestJob job = new TestJob();
    JobId id = start(job, a(alice));
    job.write("line one\n");
    assertThat(service.read(id, a(alice)).text()).isEqualTo("line one\n");
    assertThat(service.read(id, a(alice)).text()).isEmpty();
    job.write("tail");
    job.done.complete(JobOutcome.completed(Optional.of("exit code: 0")));
    settlements.runAll();
    assertThat(reported).hasSize(1);
    service.attachNotice(id, alice, "notice-1");
    assertThat(service.get(id, a(alice)).reported()).isFalse();
    var read = service.read(id, a(alice));
    assertThat(read.text()).isEqualTo("tail");
    assertThat(read.snapshot().reported()).isTrue();
    assertThat(read.snapshot().finishedAt()).hasValue(1_755_650_000_000L);
    assertThat(alice.withdrawn()).containsExactly("notice-1");
    assertThat(service.read(id, a(alice)).text()).isEmpty();
    // a notice attached after the job was reported is withdrawn at once
    service.attachNotice(id, alice, "notice-2");
    assertThat(alice.withdrawn()).containsExactly("notice-1", "notice-2");
  }

  @Test
  void finalOutputJobsReadEmptyWhileLiveThenTheirOutputIdempotently() {
    TestJob job = new TestJob();
    JobId id = startFinal(job, a(alice));
    assertThat(service.read(id, a(alice)).text()).isEmpty();
    assertThat(service.get(id, a(alice)).reported()).isFalse();
    job.done.complete(JobOutcome.completed(Optional.of("completed")).withOutput("the answer"));
    settlements.runAll();
    assertThat(service.read(id, a(alice)).text()).isEqualTo("the answer");
    assertThat(service.read(id, a(alice)).text()).isEqualTo("the answer");
    assertThat(service.get(id, a(alice)).detail()).contains("completed");
  }

  @Test
  void killForwardsTheReasonAndAThrowingCancelChangesNothing() {
    TestJob job = new TestJob();
    JobId id = start(job, a(alice));
    job.failCancel(new IllegalStateException("cannot stop"));
    assertThatThrownBy(() -> service.kill(id, a(alice), Optional.of("no longer needed")))
        .hasMessage("cannot stop");
    JobSnapshot after = service.get(id, a(alice));
    assertThat(after.status()).isEqualTo(JobStatus.RUNNING);
    assertThat(after.reported()).isFalse();

    TestJob other = new TestJob();
    JobId second = start(other, a(alice));
    List<Optional<Agent>> changes = new ArrayList<>();
    service.onJobsChanged(Optional.empty(), changes::add);
    assertThat(service.kill(second, a(alice), Optional.of("stale"))).isEqualTo(KillOutcome.REQUESTED);
    assertThat(service.kill(second, a(alice), Optional.empty())).isEqualTo(KillOutcome.REQUESTED);
    assertThat(other.cancels()).containsExactly(Optional.of("stale"), Optional.empty());
    JobSnapshot stopping = service.get(second, a(alice));
    assertThat(stopping.status()).isEqualTo(JobStatus.STOPPING);
    assertThat(stopping.reported()).isTrue();
    assertThat(changes).hasSize(2);
    other.done.complete(JobOutcome.completed(Optional.of("exit code: 0")));
    settlements.runAll();
    // a stopping job may still end completed; the settlement carries reported=true
    assertThat(service.get(second, a(alice)).status()).isEqualTo(JobStatus.COMPLETED);
    assertThat(reported).extracting(e -> e.getKey().reported()).containsExactly(true);
    assertThat(service.kill(second, a(alice), Optional.empty()))
        .isEqualTo(KillOutcome.ALREADY_FINISHED);
    assertThat(other.cancels()).hasSize(2);
  }

  @Test
  void awaitValidatesTimesOutAbortsAndSettles() throws Exception {
    TestJob job = new TestJob();
    JobId id = start(job, a(alice));
    assertThatThrownBy(() -> service.await(id, 0, a(alice), AbortSignal.never()))
        .isInstanceOfSatisfying(
            JobsException.class,
            e -> assertThat(e.code()).isEqualTo(JobsException.INVALID_WAIT_TIMEOUT))
        .hasMessage("invalid wait timeout: expected a positive number of milliseconds, got 0");
    assertThatThrownBy(() -> service.await(id, -2.5, a(alice), AbortSignal.never()))
        .hasMessage("invalid wait timeout: expected a positive number of milliseconds, got -2.5");

    CompletableFuture<JobSnapshot> timedOut =
        service.await(id, 100, a(alice), AbortSignal.never()).toCompletableFuture();
    time.advance(99);
    assertThat(timedOut).isNotDone();
    time.advance(1);
    assertThat(timedOut.get().status()).isEqualTo(JobStatus.RUNNING);
    assertThat(time.pendingTimers()).isZero();

    AbortController raised = new AbortController();
    raised.abort();
    assertThatThrownBy(() -> service.await(id, 100, a(alice), raised).toCompletableFuture().join())
        .hasCauseInstanceOf(JobsException.class)
        .hasMessageContaining("wait aborted");

    AbortController later = new AbortController();
    CompletableFuture<JobSnapshot> aborted =
        service.await(id, 100, a(alice), later).toCompletableFuture();
    later.abort();
    assertThat(aborted).isCompletedExceptionally();
    assertThat(time.pendingTimers()).isZero();

    CompletableFuture<JobSnapshot> settled =
        service.await(id, 60_000, a(alice), AbortSignal.never()).toCompletableFuture();
    job.done.complete(JobOutcome.completed(Optional.of("exit code: 0")));
    settlements.runAll();
    assertThat(settled.get().status()).isEqualTo(JobStatus.COMPLETED);
    assertThat(settled.get().reported()).isTrue();
    assertThat(reported.get(0).getKey().reported()).isTrue();
    assertThat(time.pendingTimers()).isZero();
    // waiting on a terminal job completes at once and keeps it reported
    assertThat(service.await(id, 1, a(alice), AbortSignal.never()).toCompletableFuture().get().reported())
        .isTrue();
  }

  @Test
  void raceRuleAAnAbortBeforeSettlementKeepsTheNotice() {
    TestJob job = new TestJob();
    JobId id = start(job, a(alice));
    AbortController abort = new AbortController();
    CompletableFuture<JobSnapshot> wait =
        service.await(id, 60_000, a(alice), abort).toCompletableFuture();
    job.done.complete(JobOutcome.completed(Optional.empty()));
    abort.abort();
    settlements.runAll();
    assertThat(wait).isCompletedExceptionally();
    assertThat(reported).extracting(e -> e.getKey().reported()).containsExactly(false);
  }

  @Test
  void raceRuleBASettlementThatTookTheWaiterWinsOverALateAbort() throws Exception {
    TestJob job = new TestJob();
    JobId id = start(job, a(alice));
    AbortController abort = new AbortController();
    CompletableFuture<JobSnapshot> wait =
        service.await(id, 60_000, a(alice), abort).toCompletableFuture();
    // the abort fires inside settlement, after the critical section took the waiter
    service.onJobsChanged(Optional.empty(), o -> abort.abort());
    job.done.complete(JobOutcome.completed(Optional.empty()));
    settlements.runAll();
    assertThat(wait.get().status()).isEqualTo(JobStatus.COMPLETED);
    assertThat(reported).extracting(e -> e.getKey().reported()).containsExactly(true);
  }

  @Test
  void settlementCompletesWaitersThenObserversThenTheReporterThenListeners() {
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    controller.close();
    service.attachController(Optional.empty(), "c", (s, o) -> order.add("reporter"));
    service.onJobDone(Optional.empty(), JobDoneListener.sync((s, o) -> order.add("listener")));
    TestJob job = new TestJob();
    JobId id = start(job, a(alice));
    service.onJobsChanged(Optional.empty(), o -> order.add("changed"));
    service.await(id, 1000, a(alice), AbortSignal.never())
        .thenRun(() -> order.add("waiter"));
    job.done.complete(JobOutcome.completed(Optional.empty()));
    assertThat(order).isEmpty();
    settlements.runAll();
    assertThat(order).containsExactly("waiter", "changed", "reporter", "listener");
  }

  @Test
  void aFailedDoneSettlesFailedWithTheErrorRenderingAndListenerFailuresAreContained() {
    service.onJobDone(
        Optional.empty(),
        (s, o) -> {
          throw new IllegalArgumentException("listener broke");
        });
    service.onJobDone(
        Optional.empty(),
        (s, o) -> CompletableFuture.failedFuture(new IllegalStateException("async broke")));
    List<JobSnapshot> after = new ArrayList<>();
    service.onJobDone(Optional.empty(), JobDoneListener.sync((s, o) -> after.add(s)));
    TestJob job = new TestJob();
    JobId id = start(job, a(alice));
    job.done.completeExceptionally(new IllegalStateException("transport exploded"));
    settlements.runAll();
    JobSnapshot s = service.get(id, a(alice));
    assertThat(s.status()).isEqualTo(JobStatus.FAILED);
    assertThat(s.detail()).contains("IllegalStateException: transport exploded");
    assertThat(after).hasSize(1);
    assertThat(warnings)
        .contains(
            "jobs: job bash-1 producer done failed (producer contract violation):"
                + " IllegalStateException: transport exploded",
            "jobs: onJobDone listener threw for bash-1: IllegalArgumentException: listener broke",
            "jobs: onJobDone listener failed for bash-1: IllegalStateException: async broke");
    // first settlement wins
    job.done.obtrudeValue(JobOutcome.completed(Optional.empty()));
    assertThat(service.get(id, a(alice)).status()).isEqualTo(JobStatus.FAILED);
  }

  @Test
  void routingReportsEachSettlementOnceThroughTheNearestControllerAlongTheChain() {
    controller.close();
    FakeScope presetA = new FakeScope();
    FakeScope presetB = new FakeScope();
    FakeAgent inA = registry.add(new FakeAgent("a-1"));
    FakeAgent inB = registry.add(new FakeAgent("b-1"));
    FakeAgent bare = registry.add(new FakeAgent("c-1"));
    Map<Agent, List<Scope>> chains = new ConcurrentHashMap<>();
    chains.put(inA, List.of(presetA, inA.scope()));
    chains.put(inB, List.of(presetB, inB.scope()));
    chains.put(bare, List.of(bare.scope()));
    service =
        LocalJobService.builder(time, time)
            .agents(registry)
            .settlementExecutor(settlements)
            .scopeChain(agent -> chains.getOrDefault(agent, List.of()))
            .build();
    List<String> log = new ArrayList<>();
    service.attachController(Optional.of(presetA), "A", (s, o) -> log.add("A:" + s.id()));
    Registration b =
        service.attachController(Optional.of(presetB), "B", (s, o) -> log.add("B:" + s.id()));
    service.onJobDone(Optional.of(presetA), JobDoneListener.sync((s, o) -> log.add("lA:" + s.id())));
    service.onJobDone(Optional.empty(), JobDoneListener.sync((s, o) -> log.add("lG:" + s.id())));
    assertThat(service.serves(Optional.of(bare))).isFalse();
    assertThatThrownBy(() -> start(new TestJob(), Optional.of(bare)))
        .hasMessageContaining("no job controller serves this agent");
    assertThatThrownBy(() -> start(new TestJob(), Optional.empty()))
        .hasMessageContaining("no job controller serves this agent");
    TestJob ja = new TestJob();
    TestJob jb = new TestJob();
    start(ja, Optional.of(inA));
    start(jb, Optional.of(inB));
    // a global mount next to the preset mounts: still one report per settlement, the nearest
    service.attachController(Optional.empty(), "G", (s, o) -> log.add("G:" + s.id()));
    TestJob jc = new TestJob();
    start(jc, Optional.of(bare));
    ja.done.complete(JobOutcome.completed(Optional.empty()));
    jb.done.complete(JobOutcome.completed(Optional.empty()));
    jc.done.complete(JobOutcome.completed(Optional.empty()));
    settlements.runAll();
    assertThat(log)
        .containsExactly("A:bash-1", "lG:bash-1", "lA:bash-1", "B:bash-2", "lG:bash-2", "G:bash-3", "lG:bash-3");
    b.close();
    b.close();
    TestJob jd = new TestJob();
    start(jd, Optional.of(inB));
    jd.done.complete(JobOutcome.completed(Optional.empty()));
    settlements.runAll();
    assertThat(log).endsWith("G:bash-4", "lG:bash-4");
  }

  @Test
  void ownerDisposalCancelsAwaitsSettlementAndDropsOnlyThatObjectsRecords() {
    List<Optional<Agent>> changes = new ArrayList<>();
    service.onJobsChanged(Optional.empty(), changes::add);
    TestJob live = new TestJob();
    TestJob done = new TestJob();
    TestJob throwing = new TestJob();
    throwing.failCancel(new IllegalStateException("stuck"));
    JobId liveId = start(live, a(alice));
    JobId doneId = start(done, a(alice));
    JobId throwingId = start(throwing, a(alice));
    done.done.complete(JobOutcome.completed(Optional.empty()));
    settlements.runAll();
    reported.clear();
    changes.clear();

    CompletableFuture<Void> disposal = alice.fakeScope().dispose();
    assertThat(live.cancels()).containsExactly(Optional.of("owner disposed"));
    assertThat(disposal).isNotDone();
    assertThat(service.get(liveId, a(alice)).status()).isEqualTo(JobStatus.STOPPING);
    assertThat(warnings)
        .contains(
            "jobs: cancel of bash-3 threw during teardown; job record forced failed and work may be"
                + " orphaned: IllegalStateException: stuck");
    settlements.runAll();
    assertThat(service.get(throwingId, a(alice)).detail())
        .contains("cancel threw during teardown; work may be orphaned: IllegalStateException: stuck");
    live.done.complete(JobOutcome.killed(Optional.of("signal: SIGTERM")));
    settlements.runAll();
    assertThat(disposal).isCompleted();
    assertThat(service.list(a(alice))).isEmpty();
    assertThatThrownBy(() -> service.get(doneId, a(alice))).hasMessage("unknown job bash-2");
    assertThat(reported).hasSize(2).allMatch(e -> e.getKey().reported());
    // stopping (1), two settlements, one removal
    assertThat(changes).hasSize(4);
  }

  @Test
  void serviceCloseCancelsEveryLiveJobReportsNothingAndEmptiesTheStore() {
    FakeAgent bob = registry.add(new FakeAgent("sess-2"));
    TestJob a1 = new TestJob();
    TestJob b1 = new TestJob();
    TestJob u1 = new TestJob();
    start(a1, a(alice));
    start(b1, a(bob));
    start(u1, Optional.empty());
    List<Optional<Agent>> changes = new ArrayList<>();
    service.onJobsChanged(Optional.empty(), changes::add);
    CompletionStage<Void> closing = service.closeAsync();
    assertThat(a1.cancels()).containsExactly(Optional.of("jobs service disposed"));
    assertThat(u1.cancels()).containsExactly(Optional.of("jobs service disposed"));
    a1.done.complete(JobOutcome.killed(Optional.empty()));
    b1.done.complete(JobOutcome.killed(Optional.empty()));
    u1.done.complete(JobOutcome.killed(Optional.empty()));
    settlements.runAll();
    assertThat(closing.toCompletableFuture()).isCompleted();
    assertThat(reported).isEmpty();
    assertThat(service.list(Optional.empty())).isEmpty();
    // three settlement changes, then one emptying change per distinct owner
    assertThat(changes).hasSize(6);
    assertThat(alice.fakeScope().effectCount()).isZero();
    assertThatThrownBy(() -> start(new TestJob(), a(alice))).hasMessage("jobs service is closed");
    assertThat(service.closeAsync().toCompletableFuture()).isCompleted();
  }

  @Test
  void observerFailuresAreContained() {
    service.onJobsChanged(
        Optional.empty(),
        o -> {
          throw new IllegalStateException("observer");
        });
    start(new TestJob(), a(alice));
    assertThat(warnings).contains("jobs: onJobsChanged listener threw: IllegalStateException: observer");
  }

  @Test
  void configRejectsLimitsOutsideTheSafeRange() {
    assertThatThrownBy(() -> new JobServiceConfig(0))
        .hasMessage(
            "jobs: maxConcurrentJobsPerOwner must be a whole number from 1 to 9007199254740991,"
                + " got 0");
    assertThatThrownBy(
            () -> JobServiceConfig.fromJson(dev.horae.spi.session.Json.parse("{\"maxConcurrentJobsPerOwner\":2.5}")))
        .hasMessageEndingWith("got 2.5");
    assertThat(JobServiceConfig.fromJson(dev.horae.spi.session.Json.parse("{}")).maxConcurrentJobsPerOwner())
        .isEqualTo(10);
  }
}

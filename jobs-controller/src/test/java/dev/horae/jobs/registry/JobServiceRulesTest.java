package dev.horae.jobs.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.jobs.fakes.FakeAgent;
import dev.horae.jobs.fakes.FakeRegistry;
import dev.horae.jobs.fakes.ManualExecutor;
import dev.horae.jobs.fakes.ManualTime;
import dev.horae.jobs.fakes.TestJob;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.jobs.KillOutcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Job service rules (jobs spec §2.4–§2.13) beyond {@code LocalJobServiceTest}: reservations held
 * while a producer runs count against the limit and are dropped exactly once, the output-limit and
 * wait-timeout ranges at their ends, the withdrawal of notices when a kill or a wait marks a
 * finished job reported, first-wins settlement, closed registrations, {@code serves}, the
 * force-failed teardown cancel, a wait that leaves no abort hook behind, and a rejected settlement.
 */
class JobServiceRulesTest {

  private final ManualTime time = new ManualTime(1_755_650_000_000L);
  private final ManualExecutor settlements = new ManualExecutor();
  private final FakeRegistry registry = new FakeRegistry();
  private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());
  private final FakeAgent alice = registry.add(new FakeAgent("sess-1"));

  private LocalJobService service(long limit) {
    LocalJobService s = LocalJobService.builder(time, time)
        .config(new JobServiceConfig(limit))
        .agents(registry)
        .warnings((m, c) -> warnings.add(m))
        .settlementExecutor(settlements)
        .build();
    s.attachController(Optional.empty(), "tool-jobs", (snapshot, owner) -> { });
    return s;
  }

  private static JobStart stream(TestJob job, Optional<Agent> owner) {
    return JobStart.builder("bash", "sleep 60", job::stream).owner(owner).build();
  }

  // ---- §2.5 admission -------------------------------------------------------------------

  @Test
  void aStartWhileAnotherProducerOfTheSameOwnerRunsCountsItsReservation() {
    LocalJobService s = service(1);
    AtomicReference<Throwable> nested = new AtomicReference<>();
    TestJob outer = new TestJob();
    JobId first = s.start(JobStart.builder("bash", "outer", () -> {
      try {
        s.start(stream(new TestJob(), Optional.of(alice)));
      } catch (JobsException e) {
        nested.set(e);
      }
      return outer.stream();
    }).owner(Optional.of(alice)).build());
    assertThat(first.value()).isEqualTo("bash-1");
    assertThat(nested.get()).isInstanceOfSatisfying(JobsException.class,
        e -> assertThat(e.code()).isEqualTo(JobsException.ADMISSION_LIMIT));
  }

  @Test
  void unownedStartsShareOneBucketThatCountsReservations() {
    LocalJobService s = service(1);
    AtomicReference<Throwable> nested = new AtomicReference<>();
    TestJob outer = new TestJob();
    s.start(JobStart.builder("bash", "outer", () -> {
      try {
        s.start(stream(new TestJob(), Optional.empty()));
      } catch (JobsException e) {
        nested.set(e);
      }
      return outer.stream();
    }).build());
    assertThat(nested.get()).hasMessageStartingWith("background job limit reached for this owner (limit: 1)");
  }

  @Test
  void everyReservationIsDroppedOnceItsRecordIsStoredOrItsProducerThrew() {
    LocalJobService s = service(2);
    assertThatThrownBy(() -> s.start(JobStart.builder("bash", "x", () -> {
      throw new IllegalStateException("spawn");
    }).build())).hasMessage("spawn");
    JobId one = s.start(stream(new TestJob(), Optional.empty()));
    JobId two = s.start(stream(new TestJob(), Optional.empty()));
    assertThat(List.of(one.value(), two.value())).containsExactly("bash-1", "bash-2");
    assertThatThrownBy(() -> s.start(stream(new TestJob(), Optional.empty())))
        .hasMessageStartingWith("background job limit reached");

    LocalJobService owned = service(3);
    AtomicReference<JobId> inner = new AtomicReference<>();
    owned.start(JobStart.builder("bash", "outer", () -> {
      inner.set(owned.start(stream(new TestJob(), Optional.of(alice))));
      return new TestJob().stream();
    }).owner(Optional.of(alice)).build());
    assertThat(inner.get()).isNotNull();
    // two live jobs and no reservation left: exactly one more fits
    owned.start(stream(new TestJob(), Optional.of(alice)));
    assertThatThrownBy(() -> owned.start(stream(new TestJob(), Optional.of(alice))))
        .hasMessageStartingWith("background job limit reached for this owner (limit: 3)");
  }

  @Test
  void theLimitAndTheOutputCapAcceptTheEndsOfTheirRanges() {
    assertThat(new JobServiceConfig(1).maxConcurrentJobsPerOwner()).isEqualTo(1);
    assertThat(new JobServiceConfig(9_007_199_254_740_991L).maxConcurrentJobsPerOwner()).isEqualTo(9_007_199_254_740_991L);
    assertThatThrownBy(() -> new JobServiceConfig(9_007_199_254_740_992L))
        .hasMessage("jobs: maxConcurrentJobsPerOwner must be a whole number from 1 to 9007199254740991, got 9007199254740992");
    LocalJobService s = service(10);
    s.start(JobStart.builder("bash", "x", new TestJob()::stream).outputLimitBytes(1).build());
    s.start(JobStart.builder("bash", "x", new TestJob()::stream).outputLimitBytes(9_007_199_254_740_991L).build());
    assertThatThrownBy(() -> s.start(
        JobStart.builder("bash", "x", new TestJob()::stream).outputLimitBytes(9_007_199_254_740_992L).build()))
        .isInstanceOfSatisfying(JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.INVALID_OUTPUT_LIMIT))
        .hasMessage("invalid outputLimitBytes: expected a positive safe integer, got 9007199254740992");
    assertThatThrownBy(() -> s.start(JobStart.builder("bash", "x", new TestJob()::stream).outputLimitBytes(-1).build()))
        .hasMessage("invalid outputLimitBytes: expected a positive safe integer, got -1");
  }

  @Test
  void theLimitFromJsonIsAWholeNumberInRange() {
    assertThat(JobServiceConfig.fromJson(dev.horae.spi.session.Json.parse("{\"maxConcurrentJobsPerOwner\":1}"))
        .maxConcurrentJobsPerOwner()).isEqualTo(1);
    assertThat(JobServiceConfig.fromJson(dev.horae.spi.session.Json.parse("{\"maxConcurrentJobsPerOwner\":4.0}"))
        .maxConcurrentJobsPerOwner()).isEqualTo(4);
    assertThat(JobServiceConfig.fromJson(dev.horae.spi.session.Json.parse("{\"maxConcurrentJobsPerOwner\":9007199254740991}"))
        .maxConcurrentJobsPerOwner()).isEqualTo(9_007_199_254_740_991L);
    for (String bad : List.of("0", "0.5", "-3", "\"5\"", "null", "true", "9007199254740992", "1e300")) {
      assertThatThrownBy(() -> JobServiceConfig.fromJson(dev.horae.spi.session.Json.parse("{\"maxConcurrentJobsPerOwner\":" + bad + "}")))
          .as(bad)
          .isInstanceOfSatisfying(JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.INVALID_CONFIG))
          .hasMessageStartingWith("jobs: maxConcurrentJobsPerOwner must be a whole number from 1 to 9007199254740991, got ");
    }
    assertThat(JobServiceConfig.fromJson(dev.horae.spi.session.Json.parse("null")).maxConcurrentJobsPerOwner()).isEqualTo(10);
  }

  // ---- §2.9 waits -----------------------------------------------------------------------

  @Test
  void anInfiniteOrNotANumberTimeoutIsRefused() {
    LocalJobService s = service(10);
    JobId id = s.start(stream(new TestJob(), Optional.of(alice)));
    for (double bad : new double[] {Double.POSITIVE_INFINITY, Double.NaN, Double.NEGATIVE_INFINITY}) {
      assertThatThrownBy(() -> s.await(id, bad, Optional.of(alice), AbortSignal.never()))
          .as("%s", bad)
          .isInstanceOfSatisfying(JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.INVALID_WAIT_TIMEOUT))
          .hasMessage("invalid wait timeout: expected a positive number of milliseconds, got null");
    }
    assertThat(s.await(id, 0.5, Optional.of(alice), AbortSignal.never()).toCompletableFuture()).isNotDone();
  }

  @Test
  void aFinishedWaitLeavesNoAbortHookBehind() {
    LocalJobService s = service(10);
    TestJob job = new TestJob();
    JobId id = s.start(stream(job, Optional.of(alice)));
    CountingSignal signal = new CountingSignal();
    CompletableFuture<JobSnapshot> timedOut = s.await(id, 10, Optional.of(alice), signal).toCompletableFuture();
    assertThat(signal.live.get()).isEqualTo(1);
    time.advance(10);
    assertThat(timedOut).isCompleted();
    assertThat(signal.live.get()).isZero();
    CompletableFuture<JobSnapshot> settled = s.await(id, 1000, Optional.of(alice), signal).toCompletableFuture();
    assertThat(signal.live.get()).isEqualTo(1);
    job.done.complete(JobOutcome.completed(Optional.empty()));
    settlements.runAll();
    assertThat(settled).isCompleted();
    assertThat(signal.live.get()).isZero();
    assertThat(time.pendingTimers()).isZero();
  }

  /** An abort signal that is never raised and counts its live listeners. */
  private static final class CountingSignal implements AbortSignal {
    final AtomicInteger live = new AtomicInteger();

    @Override
    public boolean aborted() {
      return false;
    }

    @Override
    public Optional<Throwable> reason() {
      return Optional.empty();
    }

    @Override
    public Registration onAbort(Runnable listener) {
      live.incrementAndGet();
      AtomicInteger closed = new AtomicInteger();
      return () -> {
        if (closed.getAndIncrement() == 0) {
          live.decrementAndGet();
        }
      };
    }
  }

  // ---- §2.10 withdrawal -----------------------------------------------------------------

  @Test
  void killingAFinishedJobWithdrawsItsPendingNotice() {
    LocalJobService s = service(10);
    TestJob job = new TestJob();
    JobId id = s.start(stream(job, Optional.of(alice)));
    job.done.complete(JobOutcome.completed(Optional.of("exit code: 0")));
    settlements.runAll();
    s.attachNotice(id, alice, "notice-1");
    assertThat(s.kill(id, Optional.of(alice), Optional.empty())).isEqualTo(KillOutcome.ALREADY_FINISHED);
    assertThat(alice.withdrawn()).containsExactly("notice-1");
    assertThat(s.get(id, Optional.of(alice)).reported()).isTrue();
  }

  @Test
  void waitingOnAFinishedJobWithdrawsItsPendingNotice() {
    LocalJobService s = service(10);
    TestJob job = new TestJob();
    JobId id = s.start(stream(job, Optional.of(alice)));
    job.done.complete(JobOutcome.completed(Optional.empty()));
    settlements.runAll();
    s.attachNotice(id, alice, "notice-1");
    assertThat(s.await(id, 5, Optional.of(alice), AbortSignal.never()).toCompletableFuture().join().reported()).isTrue();
    assertThat(alice.withdrawn()).containsExactly("notice-1");
  }

  @Test
  void aNoticeForAnUnknownJobIsIgnored() {
    LocalJobService s = service(10);
    s.attachNotice(JobId.parse("bash-7"), alice, "notice-1");
    assertThat(alice.withdrawn()).isEmpty();
  }

  // ---- §2.3 and §2.13 settlement and teardown -------------------------------------------

  @Test
  void aTeardownCancelThatThrowsIsForcedFailedSoTheServiceStillCloses() {
    LocalJobService s = service(10);
    TestJob stuck = new TestJob();
    stuck.failCancel(new IllegalStateException("stuck"));
    s.start(stream(stuck, Optional.empty()));
    CompletableFuture<Void> closing = s.closeAsync().toCompletableFuture();
    settlements.runAll();
    assertThat(warnings).contains("jobs: cancel of bash-1 threw during teardown; job record forced failed and work may be"
        + " orphaned: IllegalStateException: stuck");
    assertThat(closing).isCompleted();
    assertThat(s.list(Optional.empty())).isEmpty();
  }

  @Test
  void theFirstSettlementWinsOverALaterOne() {
    LocalJobService s = service(10);
    TestJob stuck = new TestJob();
    stuck.failCancel(new IllegalStateException("stuck"));
    TestJob slow = new TestJob();
    JobId stuckId = s.start(stream(stuck, Optional.of(alice)));
    s.start(stream(slow, Optional.of(alice)));
    // the slow job keeps the owner's teardown waiting, so the records stay readable
    CompletableFuture<Void> disposal = alice.fakeScope().dispose();
    settlements.runAll();
    assertThat(s.get(stuckId, Optional.of(alice)).status()).isEqualTo(JobStatus.FAILED);
    stuck.done.complete(JobOutcome.completed(Optional.of("exit code: 0")));
    settlements.runAll();
    JobSnapshot after = s.get(stuckId, Optional.of(alice));
    assertThat(after.status()).isEqualTo(JobStatus.FAILED);
    assertThat(after.detail()).contains("cancel threw during teardown; work may be orphaned: IllegalStateException: stuck");
    slow.done.complete(JobOutcome.killed(Optional.empty()));
    settlements.runAll();
    assertThat(disposal).isCompleted();
  }

  @Test
  void aRejectedSettlementIsReported() {
    LocalJobService s = LocalJobService.builder(time, time)
        .warnings((m, c) -> warnings.add(m))
        .settlementExecutor(command -> {
          throw new RejectedExecutionException("executor stopped");
        })
        .build();
    s.attachController(Optional.empty(), "tool-jobs", (snapshot, owner) -> { });
    TestJob job = new TestJob();
    JobId id = s.start(stream(job, Optional.empty()));
    job.done.complete(JobOutcome.completed(Optional.empty()));
    assertThat(warnings).containsExactly("jobs: settlement of " + id.value() + " was rejected");
  }

  // ---- §2.12 registrations, §2.14 serves ------------------------------------------------

  @Test
  void aClosedListenerOrObserverHearsNothingMore() {
    LocalJobService s = service(10);
    List<String> heard = new ArrayList<>();
    Registration listener = s.onJobDone(Optional.empty(),
        dev.horae.spi.jobs.JobDoneListener.sync((snapshot, owner) -> heard.add("done " + snapshot.id().value())));
    Registration observer = s.onJobsChanged(Optional.empty(), owner -> heard.add("changed"));
    TestJob first = new TestJob();
    JobId one = s.start(stream(first, Optional.empty()));
    first.done.complete(JobOutcome.completed(Optional.empty()));
    settlements.runAll();
    assertThat(heard).containsExactly("changed", "changed", "done " + one.value());
    listener.close();
    listener.close();
    observer.close();
    TestJob second = new TestJob();
    s.start(stream(second, Optional.empty()));
    second.done.complete(JobOutcome.completed(Optional.empty()));
    settlements.runAll();
    assertThat(heard).hasSize(3);
  }

  @Test
  void closingOneOfTwoIdenticalRegistrationsLeavesTheOther() {
    LocalJobService s = service(10);
    List<String> heard = new ArrayList<>();
    dev.horae.spi.jobs.JobDoneListener listener =
        dev.horae.spi.jobs.JobDoneListener.sync((snapshot, owner) -> heard.add("done"));
    Registration first = s.onJobDone(Optional.empty(), listener);
    var unused = s.onJobDone(Optional.empty(), listener);
    // §2.12: duplicates are independent registrations, so closing one removes only itself
    first.close();
    TestJob job = new TestJob();
    s.start(stream(job, Optional.empty()));
    job.done.complete(JobOutcome.completed(Optional.empty()));
    settlements.runAll();
    assertThat(heard).containsExactly("done");
  }

  @Test
  void servesTellsWhetherAControllerServesTheOwner() {
    LocalJobService s = LocalJobService.builder(time, time).agents(registry).settlementExecutor(settlements).build();
    assertThat(s.serves(Optional.of(alice))).isFalse();
    assertThat(s.serves(Optional.empty())).isFalse();
    Registration controller = s.attachController(Optional.empty(), "tool-jobs", (snapshot, owner) -> { });
    assertThat(s.serves(Optional.of(alice))).isTrue();
    assertThat(s.serves(Optional.empty())).isTrue();
    controller.close();
    assertThat(s.serves(Optional.of(alice))).isFalse();
    assertThatThrownBy(() -> s.start(stream(new TestJob(), Optional.of(alice))))
        .isInstanceOfSatisfying(JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.CONTROLLER_UNAVAILABLE));
  }
}

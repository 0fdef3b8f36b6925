package dev.horae.invariant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.jobs.registry.LocalJobService;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.invariant.InvariantViolation;
import dev.horae.spi.jobs.JobHooks;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class JobsCompanionTest {

  private static JobSnapshot snapshot(String id, String kind, String label, Optional<String> owner, JobStatus status,
      long startedAt, OptionalLong finishedAt) {
    return new JobSnapshot(new JobId(id), kind, label, OptionalLong.empty(), owner, status, Optional.empty(),
        startedAt, finishedAt, false);
  }

  private static JobSnapshot done(Optional<String> owner) {
    return snapshot("bash-1", "bash", "sleep 1", owner, JobStatus.COMPLETED, 10, OptionalLong.of(20));
  }

  @Test
  void acceptsCoherentSnapshots() {
    assertThat(JobsCompanion.checkSnapshot(done(Optional.empty()), true)).isEmpty();
    assertThat(JobsCompanion.checkSnapshot(
        snapshot("pty-send-100", "pty-send", "x", Optional.of("s"), JobStatus.RUNNING, 0, OptionalLong.empty()), false))
        .isEmpty();
    assertThat(JobsCompanion.checkSettlement(done(Optional.empty()), Optional.empty())).isEmpty();
  }

  @Test
  void rejectsEachSnapshotRuleWithItsText() {
    assertThat(JobsCompanion.checkSnapshot(
        snapshot("bash-1", "pty", "x", Optional.empty(), JobStatus.RUNNING, 0, OptionalLong.empty()), false))
        .contains("job snapshot id \"bash-1\" must be \"<kind>-\" followed by a positive ordinal");
    assertThat(JobsCompanion.checkSnapshot(
        snapshot("a-b-2", "a", "x", Optional.empty(), JobStatus.RUNNING, 0, OptionalLong.empty()), false))
        .contains("job snapshot id \"a-b-2\" must be \"<kind>-\" followed by a positive ordinal");
    JobSnapshot unlabelled = snapshot("bash-1", "bash", "", Optional.empty(), JobStatus.RUNNING, 0, OptionalLong.empty());
    assertThat(JobsCompanion.checkSnapshot(unlabelled, false)).contains("job snapshot bash-1: label must be non-empty");
    assertThat(JobsCompanion.checkSnapshot(unlabelled, true))
        .contains("job snapshot bash-1: label must be non-empty (at installation)");
    assertThat(JobsCompanion.checkSnapshot(
        snapshot("bash-1", "bash", "x", Optional.empty(), JobStatus.RUNNING, -1, OptionalLong.empty()), false))
        .contains("job snapshot bash-1: startedAt must be a non-negative epoch integer");
    assertThat(JobsCompanion.checkSnapshot(
        snapshot("bash-1", "bash", "x", Optional.empty(), JobStatus.RUNNING, 0, OptionalLong.of(5)), false))
        .contains("job snapshot bash-1: finishedAt must be present exactly for a terminal status");
    assertThat(JobsCompanion.checkSnapshot(
        snapshot("bash-1", "bash", "x", Optional.empty(), JobStatus.KILLED, 0, OptionalLong.empty()), false))
        .contains("job snapshot bash-1: finishedAt must be present exactly for a terminal status");
    assertThat(JobsCompanion.checkSnapshot(
        snapshot("bash-1", "bash", "x", Optional.empty(), JobStatus.FAILED, 50, OptionalLong.of(49)), false))
        .contains("job snapshot bash-1: finishedAt must be an epoch integer no earlier than startedAt");
  }

  @Test
  void theOwnerRuleComparesTheDeliveredOwnersId() {
    TestHost host = TestHost.builder().build();
    TestAgent agent = host.createAgent();
    String mismatch = "job snapshot bash-1: ownerSession does not match its completion owner";
    assertThat(JobsCompanion.checkSettlement(done(Optional.of(agent.id())), Optional.of(agent))).isEmpty();
    assertThat(JobsCompanion.checkSettlement(done(Optional.of("other")), Optional.of(agent))).contains(mismatch);
    assertThat(JobsCompanion.checkSettlement(done(Optional.empty()), Optional.of(agent))).contains(mismatch);
    assertThat(JobsCompanion.checkSettlement(done(Optional.of(agent.id())), Optional.empty())).contains(mismatch);
  }

  @Test
  void guardsTheSettlementsOfALocalRegistry() {
    TestHost host = TestHost.builder().build();
    LocalJobService jobs = LocalJobService.builder(host.wallClock(), host.timers())
        .agents(host.agents())
        .warnings(host.warnings())
        .settlementExecutor(Runnable::run)
        .build();
    host.provide(JobService.class, jobs);
    jobs.attachController(Optional.empty(), "tool-jobs", (s, o) -> {});
    TestAgent agent = host.createAgent();
    CompletableFuture<JobOutcome> first = new CompletableFuture<>();
    jobs.start(JobStart.builder("bash", "sleep 1", () -> JobHooks.finalOutput(r -> {}, first))
        .owner(Optional.<Agent>of(agent)).build());

    List<InvariantViolation> seen = new ArrayList<>();
    Registration r = JobsCompanion.install(host.invariants(), jobs, host.agents(), seen::add);
    first.complete(JobOutcome.completed(Optional.of("exit code: 0")));
    assertThat(jobs.list(Optional.of(agent))).singleElement().satisfies(s -> assertThat(s.status()).isEqualTo(JobStatus.COMPLETED));
    assertThat(seen).isEmpty();
    assertThat(host.warnings().messages()).isEmpty();
    r.close();
    r.close();

    // registerAll finds the registry as a host service
    Registration all = Companions.registerAll(host);
    CompletableFuture<JobOutcome> second = new CompletableFuture<>();
    jobs.start(JobStart.builder("bash", "sleep 2", () -> JobHooks.finalOutput(x -> {}, second)).build());
    second.complete(JobOutcome.failed(Optional.empty()));
    assertThat(host.warnings().messages()).isEmpty();
    all.close();
  }

  @Test
  void aSettlementViolationIsContainedAndReported() {
    TestHost host = TestHost.builder().build();
    List<InvariantViolation> seen = new ArrayList<>();
    var listener = JobsCompanion.settlementListener(m -> new InvariantViolation(Owners.JOBS, m), seen::add);
    var stage = listener.onJobDone(done(Optional.of("someone")), Optional.empty()).toCompletableFuture();
    assertThat(stage).isCompletedExceptionally();
    assertThat(seen).singleElement().satisfies(v -> assertThat(v.getMessage()).isEqualTo(
        "invariant violated by \"@deepseek-ai/dsh-jobs\": job snapshot bash-1: ownerSession does not match its completion owner"));
    assertThat(host.invariants().enabled()).isTrue();
  }

  @Test
  void anIncoherentCurrentRecordFailsTheInstallationAndLeavesNothingInstalled() {
    TestHost host = TestHost.builder().build();
    RecordedJobs jobs = new RecordedJobs(List.of(
        snapshot("bash-1", "bash", "", Optional.empty(), JobStatus.RUNNING, 0, OptionalLong.empty())));
    assertThatThrownBy(() -> JobsCompanion.install(host.invariants(), jobs, host.agents()))
        .isInstanceOf(InvariantViolation.class)
        .hasMessage("invariant violated by \"@deepseek-ai/dsh-jobs\": job snapshot bash-1: label must be non-empty (at installation)");
    assertThat(jobs.listeners).isEmpty();
  }

  @Test
  void aBadSettlementFailsTheListenerStageAndReachesTheSinkAndTheGuard() {
    TestHost host = TestHost.builder().build();
    RecordedJobs jobs = new RecordedJobs(List.of());
    host.provide(JobService.class, jobs);
    dev.horae.invariant.junit.InvariantGuard guard = new dev.horae.invariant.junit.InvariantGuard();
    guard.watch(host);
    List<InvariantViolation> seen = new ArrayList<>();
    Registration r = JobsCompanion.install(host.invariants(), jobs, host.agents(), seen::add);

    JobSnapshot late = snapshot("bash-1", "bash", "x", Optional.empty(), JobStatus.COMPLETED, 50, OptionalLong.of(10));
    List<java.util.concurrent.CompletionStage<?>> stages = jobs.settle(late, Optional.empty());
    assertThat(stages).hasSize(2).allSatisfy(st -> assertThat(st.toCompletableFuture()).isCompletedExceptionally());
    String text = "invariant violated by \"@deepseek-ai/dsh-jobs\": job snapshot bash-1: finishedAt must be an epoch integer no earlier than startedAt";
    assertThat(seen).singleElement().satisfies(v -> assertThat(v.getMessage()).isEqualTo(text));
    assertThat(guard.drain()).containsExactly(text);
    r.close();
    assertThat(jobs.listeners).hasSize(1);
  }

  @Test
  void aDisabledServiceInstallsNothing() {
    TestHost host = TestHost.builder().invariants(false).build();
    LocalJobService jobs = LocalJobService.builder(host.wallClock(), host.timers()).agents(host.agents()).build();
    Registration r = JobsCompanion.install(host.invariants(), jobs, host.agents());
    r.close();
    assertThatThrownBy(() -> JobsCompanion.checkSettlement(done(Optional.empty()), Optional.empty()).orElseThrow())
        .isInstanceOf(java.util.NoSuchElementException.class);
  }
}

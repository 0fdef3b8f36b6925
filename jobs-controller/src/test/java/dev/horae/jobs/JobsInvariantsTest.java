package dev.horae.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.jobs.fakes.ManualExecutor;
import dev.horae.jobs.fakes.TestJob;
import dev.horae.jobs.internal.SnapshotRules;
import dev.horae.spi.Registration;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class JobsInvariantsTest {

  static JobSnapshot snapshot(
      String id, String kind, String label, JobStatus status, long started, OptionalLong finished) {
    return new JobSnapshot(
        JobId.parse(id),
        kind,
        label,
        OptionalLong.empty(),
        Optional.of("sess-1"),
        status,
        Optional.empty(),
        started,
        finished,
        false);
  }

  @Test
  void rulesReportTheSpecifiedMessages() {
    assertThat(SnapshotRules.atInstallation(snapshot("bash-1", "bash", "x", JobStatus.RUNNING, 5, OptionalLong.empty())))
        .isEmpty();
    assertThat(SnapshotRules.atInstallation(snapshot("bash-1", "pty", "x", JobStatus.RUNNING, 5, OptionalLong.empty())))
        .contains("job snapshot id \"bash-1\" must be \"pty-\" followed by a positive ordinal");
    assertThat(SnapshotRules.atInstallation(snapshot("bash-1", "bash", "", JobStatus.RUNNING, 5, OptionalLong.empty())))
        .contains("job snapshot bash-1: label must be non-empty (at installation)");
    assertThat(SnapshotRules.atSettlement(snapshot("bash-1", "bash", "", JobStatus.COMPLETED, 5, OptionalLong.of(6)), Optional.of("sess-1")))
        .contains("job snapshot bash-1: label must be non-empty");
    assertThat(SnapshotRules.atInstallation(snapshot("bash-1", "bash", "x", JobStatus.RUNNING, -1, OptionalLong.empty())))
        .contains("job snapshot bash-1: startedAt must be a non-negative epoch integer");
    assertThat(SnapshotRules.atInstallation(snapshot("bash-1", "bash", "x", JobStatus.COMPLETED, 5, OptionalLong.empty())))
        .contains("job snapshot bash-1: finishedAt must be present exactly for a terminal status");
    assertThat(SnapshotRules.atInstallation(snapshot("bash-1", "bash", "x", JobStatus.KILLED, 5, OptionalLong.of(4))))
        .contains("job snapshot bash-1: finishedAt must be an epoch integer no earlier than startedAt");
    assertThat(SnapshotRules.atSettlement(snapshot("bash-1", "bash", "x", JobStatus.KILLED, 5, OptionalLong.of(5)), Optional.empty()))
        .contains("job snapshot bash-1: ownerSession does not match its completion owner");
  }

  @Test
  void theCompanionChecksCurrentRecordsAndSettlements() {
    TestHost host = TestHost.builder().build();
    ManualExecutor settlements = new ManualExecutor();
    LocalJobService jobs =
        LocalJobService.builder(host.wallClock(), host.timers())
            .agents(host.agents())
            .warnings(host.warnings())
            .settlementExecutor(settlements)
            .build();
    jobs.attachController(Optional.empty(), "c", (s, o) -> {});
    TestAgent agent = host.createAgent();
    TestJob job = new TestJob();
    jobs.start(JobStart.builder("bash", "x", job::stream).owner(agent).build());
    Registration companion = JobsInvariants.install(host.invariants(), jobs);
    // the wall clock steps back: finishedAt is clamped so the record stays valid
    host.time().setWall(java.time.Instant.parse("2020-01-01T00:00:00Z"));
    job.done.complete(JobOutcome.completed(Optional.empty()));
    settlements.runAll();
    assertThat(host.warnings().messages()).isEmpty();
    JobSnapshot s = jobs.allSnapshots().get(0);
    assertThat(s.finishedAt()).hasValue(s.startedAt());
    companion.close();
    companion.close();
  }
}

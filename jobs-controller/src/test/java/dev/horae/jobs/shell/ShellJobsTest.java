package dev.horae.jobs.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.jobs.registry.LocalJobService;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.jobs.KillOutcome;
import dev.horae.spi.time.SystemTime;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs({OS.LINUX, OS.MAC})
class ShellJobsTest {

  final SystemTime time = new SystemTime();
  final LocalJobService service =
      LocalJobService.builder(SystemTime.wallClock(), time).build();
  final ShellJobs shells =
      ShellJobs.create(
          ShellJobConfig.builder().killGraceMs(500).destroyOnJvmExit(false).build(), service, time);

  {
    service.attachController(Optional.empty(), "test", (s, o) -> {});
  }

  @AfterEach
  void tearDown() {
    service.close();
    shells.close();
    time.close();
  }

  JobSnapshot finish(JobId id) {
    return service.awaitBlocking(id, 30_000, Optional.empty());
  }

  String drain(JobId id) {
    StringBuilder out = new StringBuilder();
    String chunk;
    do {
      chunk = service.read(id, Optional.empty()).text();
      out.append(chunk);
    } while (!chunk.isEmpty());
    return out.toString();
  }

  @Test
  void echoCompletesWithExitCodeZeroAndItsOutput() {
    JobId id = shells.start("echo bg-ok", Optional.empty());
    assertThat(id.value()).isEqualTo("bash-1");
    JobSnapshot s = finish(id);
    assertThat(s.status()).isEqualTo(JobStatus.COMPLETED);
    assertThat(s.detail()).contains("exit code: 0");
    assertThat(drain(id)).isEqualTo("bg-ok\n");
    assertThat(s.label()).isEqualTo("echo bg-ok");
  }

  @Test
  void aNonZeroExitCompletesWithItsCodeAndStderrSharesTheStream() {
    JobId id = shells.start("echo out; echo err 1>&2; exit 3", Optional.empty());
    JobSnapshot s = finish(id);
    assertThat(s.status()).isEqualTo(JobStatus.COMPLETED);
    assertThat(s.detail()).contains("exit code: 3");
    assertThat(drain(id)).isEqualTo("out\nerr\n");
  }

  @Test
  void aShellKillingItselfReportsTheSignal() {
    JobSnapshot s = finish(shells.start("kill -TERM $$", Optional.empty()));
    assertThat(s.status()).isEqualTo(JobStatus.KILLED);
    assertThat(s.detail()).contains("signal: SIGTERM");
  }

  @Test
  void killingASleepingTreeEndsEveryProcessGracefully() {
    String marker = uniqueSeconds();
    JobId id = shells.start("sleep " + marker + " & sleep " + marker + " & wait", Optional.empty());
    List<ProcessHandle> tree = awaitProcesses(marker, 2);
    assertThat(service.kill(id, Optional.empty(), Optional.of("test"))).isEqualTo(KillOutcome.REQUESTED);
    JobSnapshot s = finish(id);
    assertThat(s.status()).isEqualTo(JobStatus.KILLED);
    assertThat(s.detail()).contains("signal: SIGTERM");
    for (ProcessHandle h : tree) {
      h.onExit().join();
      assertThat(h.isAlive()).as("pid %d", h.pid()).isFalse();
    }
    assertThat(shells.liveCount()).isZero();
  }

  @Test
  void aTreeIgnoringTermIsForciblyKilledAfterTheGrace() {
    String marker = uniqueSeconds();
    JobId id = shells.start("trap '' TERM; sleep " + marker + "; echo after", Optional.empty());
    List<ProcessHandle> tree = awaitProcesses(marker, 1);
    service.kill(id, Optional.empty(), Optional.empty());
    JobSnapshot s = finish(id);
    assertThat(s.status()).isEqualTo(JobStatus.KILLED);
    assertThat(s.detail()).contains("signal: SIGKILL");
    assertThat(s.finishedAt().getAsLong() - s.startedAt()).isGreaterThanOrEqualTo(500);
    for (ProcessHandle h : tree) {
      h.onExit().join();
      assertThat(h.isAlive()).isFalse();
    }
    assertThat(drain(id)).doesNotContain("after");
  }

  @Test
  void aSpawnFailureRegistersNoJobAndConsumesNoId() {
    ShellJobs broken =
        ShellJobs.create(
            ShellJobConfig.builder()
                .shell(List.of("/nonexistent/horae-shell", "-c"))
                .destroyOnJvmExit(false)
                .build(),
            service,
            time);
    assertThatThrownBy(() -> broken.start("echo hi", Optional.empty()))
        .isInstanceOfSatisfying(
            JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.SPAWN_FAILED))
        .hasMessageStartingWith("failed to start shell: IOException: Cannot run program");
    assertThat(service.list(Optional.empty())).isEmpty();
    assertThat(shells.start("true", Optional.empty()).value()).isEqualTo("bash-1");
    assertThatThrownBy(() -> shells.start("", Optional.empty()))
        .hasMessage("invalid command: expected a non-empty string, got \"\"");
  }

  // "scale": a load test, run by every build but left out of mutation runs (docs/testing.md, "Settings")
  @Tag("scale")
  @Test
  void twoHundredMegabytesOfOutputKeepOnlyTheBoundedWindow() {
    long size = 200L * 1024 * 1024;
    JobId id = shells.start("head -c " + size + " /dev/zero | tr '\\0' 'y'", Optional.empty());
    AtomicInteger maxRetained = new AtomicInteger();
    AtomicInteger samples = new AtomicInteger();
    // sample the unread window while the process writes and nobody reads
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(60))
        .pollInterval(java.time.Duration.ofMillis(2))
        .until(
            () -> {
              OptionalInt retained = shells.retainedBytes(id);
              retained.ifPresent(r -> maxRetained.accumulateAndGet(r, Math::max));
              samples.incrementAndGet();
              return retained.isEmpty();
            });
    assertThat(maxRetained.get()).isLessThanOrEqualTo(8192 + 24576 + 3);
    assertThat(samples.get()).isGreaterThan(1);
    JobSnapshot s = finish(id);
    assertThat(s.status()).isEqualTo(JobStatus.COMPLETED);
    String text = service.read(id, Optional.empty()).text();
    assertThat(text).contains("[... " + (size - 8192 - 24576) + " bytes omitted ...]");
    assertThat(text.length()).isLessThan(8192 + 24576 + 64);
    assertThat(service.read(id, Optional.empty()).text()).isEmpty();
  }

  @Test
  void manyConcurrentWritersStillKeepOnlyTheBoundedWindowAndCountEveryByte() {
    // eight children flood one pipe at once: 64 MiB that nobody reads while they run
    long each = 8L * 1024 * 1024;
    JobId id = shells.start(
        "for i in 1 2 3 4 5 6 7 8; do (head -c " + each + " /dev/zero | tr '\\0' 'y') & done; wait",
        Optional.empty());
    AtomicInteger maxRetained = new AtomicInteger();
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(60))
        .pollInterval(java.time.Duration.ofMillis(2))
        .until(() -> {
          OptionalInt retained = shells.retainedBytes(id);
          retained.ifPresent(r -> maxRetained.accumulateAndGet(r, Math::max));
          return retained.isEmpty();
        });
    assertThat(maxRetained.get()).isLessThanOrEqualTo(8192 + 24576 + 3);
    assertThat(finish(id).status()).isEqualTo(JobStatus.COMPLETED);
    String text = service.read(id, Optional.empty()).text();
    assertThat(text).contains("[... " + (8 * each - 8192 - 24576) + " bytes omitted ...]");
    assertThat(text.length()).isLessThan(8192 + 24576 + 64);
  }

  // "scale": a load test, run by every build but left out of mutation runs (docs/testing.md, "Settings")
  @Tag("scale")
  @Test
  void aForkedTreeThatIgnoresTermAndFloodsItsOutputIsKilledAndStaysBounded() {
    String marker = "flood-" + UUID.randomUUID();
    // every process ignores SIGTERM (SIG_IGN survives exec); four of them write without end
    JobId id = shells.start("trap '' TERM; for i in 1 2 3 4; do (trap '' TERM; exec yes " + marker
        + ") & done; wait", Optional.empty());
    List<ProcessHandle> floods = new java.util.concurrent.CopyOnWriteArrayList<>();
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(10))
        .until(() -> {
          floods.clear();
          floods.addAll(ProcessHandle.current().descendants()
              .filter(h -> h.info().arguments().map(a -> String.join(" ", a).contains(marker)).orElse(false)
                  || h.info().commandLine().orElse("").contains("yes " + marker))
              .toList());
          return floods.size() >= 4;
        });
    assertThat(shells.retainedBytes(id).orElseThrow()).isLessThanOrEqualTo(8192 + 24576 + 3);
    assertThat(service.kill(id, Optional.empty(), Optional.of("flood"))).isEqualTo(KillOutcome.REQUESTED);
    JobSnapshot s = finish(id);
    // the TERM is ignored, so the kill escalates after the grace
    assertThat(s.status()).isEqualTo(JobStatus.KILLED);
    assertThat(s.detail()).contains("signal: SIGKILL");
    assertThat(s.finishedAt().getAsLong() - s.startedAt()).isGreaterThanOrEqualTo(500);
    for (ProcessHandle h : floods) {
      h.onExit().join();
      assertThat(h.isAlive()).as("pid %d", h.pid()).isFalse();
    }
    String text = service.read(id, Optional.empty()).text();
    assertThat(text).contains(" bytes omitted ...]");
    assertThat(text.length()).isLessThan(8192 + 24576 + 64);
    assertThat(shells.liveCount()).isZero();
  }

  @Test
  void configRejectsBadValuesWithExactMessages() {
    assertThatThrownBy(() -> ShellJobConfig.builder().shell(List.of()).build())
        .hasMessage("shell-jobs: shell must be a non-empty list of non-empty strings");
    assertThatThrownBy(() -> ShellJobConfig.builder().retainHeadBytes(0).retainTailBytes(63).build())
        .hasMessage("shell-jobs: retainTailBytes must be a whole number of at least 64, got 63");
    assertThatThrownBy(() -> ShellJobConfig.builder().retainHeadBytes(16_777_216).retainTailBytes(64).build())
        .hasMessage("shell-jobs: retainHeadBytes + retainTailBytes must be at most 16777216");
    assertThatThrownBy(() -> ShellJobConfig.builder().killGraceMs(-1).build())
        .hasMessage("shell-jobs: killGraceMs must be a whole number of at least 0, got -1");
    assertThatThrownBy(
            () -> ShellJobConfig.builder().workingDirectory(java.nio.file.Path.of("/nonexistent-dir")).build())
        .hasMessage("shell-jobs: workingDirectory /nonexistent-dir is not a directory");
  }

  private static String uniqueSeconds() {
    long n = Math.abs(UUID.randomUUID().getLeastSignificantBits() % 100_000);
    return "600." + n;
  }

  private static List<ProcessHandle> awaitProcesses(String marker, int count) {
    List<ProcessHandle> found = new java.util.concurrent.CopyOnWriteArrayList<>();
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(10))
        .until(
            () -> {
              found.clear();
              found.addAll(
                  ProcessHandle.current()
                      .descendants()
                      .filter(
                          h ->
                              h.info().commandLine().orElse("").contains("sleep " + marker)
                                  || h.info().arguments().map(a -> String.join(" ", a).contains(marker)).orElse(false))
                      .filter(h -> h.info().command().orElse("").endsWith("sleep"))
                      .toList());
              return found.size() >= count;
            });
    return List.copyOf(found);
  }
}

package dev.horae.jobs.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.jobs.registry.LocalJobService;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.time.SystemTime;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a shell job's process is started (jobs spec §7.1): in the configured working directory, with
 * the inherited environment plus the overrides, and with its stdin closed at once, so a command
 * that reads stdin ends instead of waiting forever.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class ShellStartRulesTest {

  @TempDir Path dir;

  private final SystemTime time = new SystemTime();
  private final LocalJobService service = LocalJobService.builder(SystemTime.wallClock(), time).build();
  private ShellJobs shells = ShellJobs.create(ShellJobConfig.builder().destroyOnJvmExit(false).build(), service, time);

  {
    service.attachController(Optional.empty(), "test", (s, o) -> { });
  }

  @AfterEach
  void tearDown() {
    service.close();
    shells.close();
    time.close();
  }

  private String run(String command) {
    JobId id = shells.start(command, Optional.empty());
    JobSnapshot s = service.awaitBlocking(id, 30_000, Optional.empty());
    assertThat(s.status()).isEqualTo(JobStatus.COMPLETED);
    assertThat(s.detail()).contains("exit code: 0");
    StringBuilder out = new StringBuilder();
    String chunk;
    do {
      chunk = service.read(id, Optional.empty()).text();
      out.append(chunk);
    } while (!chunk.isEmpty());
    return out.toString();
  }

  @Test
  void theProcessRunsInTheConfiguredDirectoryWithTheOverrides() throws Exception {
    shells.close();
    shells = ShellJobs.create(
        ShellJobConfig.builder().workingDirectory(dir).environment(Map.of("HORAE_SHELL_TEST", "from-config"))
            .destroyOnJvmExit(false).build(),
        service, time);
    assertThat(run("pwd -P; echo \"$HORAE_SHELL_TEST\"; test -n \"$PATH\" && echo inherited"))
        .isEqualTo(dir.toRealPath() + "\nfrom-config\ninherited\n");
  }

  @Test
  void stdinIsClosedSoAReaderOfItEndsAtOnce() {
    assertThat(run("cat; echo after-stdin")).isEqualTo("after-stdin\n");
  }
}

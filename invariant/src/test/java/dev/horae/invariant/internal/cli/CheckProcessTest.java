package dev.horae.invariant.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The command's {@code main} in a child JVM, as {@code java -jar invariant.jar} runs it, over logs
 * the Schedule and time-context plugins wrote on the reference host and the file store persisted
 * ({@code src/test/resources/logs}): the valid one exits 0, the one with a second dispatch of
 * {@code schedule-1} appended exits 1 and names its seq.
 */
class CheckProcessTest {

  private record Run(int exit, String out) {}

  private static Path logs(String name) throws URISyntaxException {
    return Path.of(Objects.requireNonNull(CheckProcessTest.class.getResource("/logs/" + name)).toURI());
  }

  private static Run check(Path path) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
        CheckCommand.class.getName(), "check", path.toString()))
        .redirectErrorStream(true)
        .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
    return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  @Test
  void aValidPluginLogExitsZero() throws Exception {
    Run run = check(logs("valid"));
    assertThat(run.out()).isEqualTo(logs("valid").resolve("session-1") + ": ok (27 events)\n");
    assertThat(run.exit()).isZero();
  }

  @Test
  void aCorruptedPluginLogExitsOneAndNamesTheSeq() throws Exception {
    Path events = logs("corrupted").resolve("session-1").resolve("events.log");
    Run run = check(events);
    assertThat(run.out()).isEqualTo(logs("corrupted").resolve("session-1")
        + ": seq 27: invariant violated by \"@deepseek-ai/dsh-tool-schedule\": schedule dispatch targets inactive id \"schedule-1\"\n");
    assertThat(run.exit()).isEqualTo(1);
  }
}

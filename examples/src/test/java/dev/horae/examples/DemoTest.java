package dev.horae.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoTest {

  @TempDir
  Path data;

  @Test
  void theFirstRunShowsEveryCapabilityAndTheSecondRestoresWithoutDeliveringTwice() throws InterruptedException {
    ByteArrayOutputStream first = new ByteArrayOutputStream();
    boolean restored = Demo.run(data, new PrintStream(first, true, StandardCharsets.UTF_8), Duration.ofSeconds(1));
    String firstRun = first.toString(StandardCharsets.UTF_8);

    assertThat(restored).isFalse();
    assertThat(firstRun)
        .contains("[model -> tool] schedule_create")
        .contains("[log] schedule/change dispatch schedule-1")
        .contains("[tool-schedule] [SCHEDULE REMINDER]")
        .contains("[time-context snapshot] Time sampled while preparing turn 1, step 1: ")
        .contains("[Europe/Amsterdam]")
        .contains("[tool-jobs notice] background job bash-1")
        .contains("run-1 is {\"type\":\"awaiting\"}")
        .contains("send_email ran 1 time(s)");

    ByteArrayOutputStream second = new ByteArrayOutputStream();
    assertThat(Demo.run(data, new PrintStream(second, true, StandardCharsets.UTF_8), Duration.ofSeconds(1))).isTrue();
    String secondRun = second.toString(StandardCharsets.UTF_8);
    assertThat(secondRun)
        .contains("restored ")
        .contains("reminder deliveries in the log: 1 (before this run: 1)")
        .contains("the dispatcher found no committed action waiting")
        .contains("send_email ran 0 time(s)")
        .doesNotContain("[SCHEDULE REMINDER]");
  }
}

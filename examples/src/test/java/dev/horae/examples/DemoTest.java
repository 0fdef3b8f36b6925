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
  void theFirstRunShowsEveryCapabilityAndStopsWithWorkPendingWhichTheSecondFinishesExactlyOnce() throws InterruptedException {
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
        .contains("[awaiting toolPermission] delete_artifacts {\"older_than_days\":30}")
        .contains("[tool] delete_artifacts removed")
        .contains("the approved turn went on and the run is {\"type\":\"ended\"")
        .contains("[awaiting scheduledAction] send_email")
        .doesNotContain("[tool] send_email performed")
        .doesNotContain("[log] schedule/change dispatch schedule-2");

    ByteArrayOutputStream second = new ByteArrayOutputStream();
    assertThat(Demo.run(data, new PrintStream(second, true, StandardCharsets.UTF_8), Duration.ofSeconds(1))).isTrue();
    String secondRun = second.toString(StandardCharsets.UTF_8);
    assertThat(secondRun)
        .contains("restored ")
        .contains("[tool] send_email performed for team@example.com")
        .contains("[log] schedule/change dispatch schedule-2")
        .contains("send_email ran 1 time(s) in this process; send_email results in the log: 1 (before this run: 0)")
        .contains("reminder deliveries in the log: 2 (before this run: 1)");
    // the email is performed before the reminder's turn: the reminder waited for the parked turn
    assertThat(secondRun.indexOf("[tool] send_email performed")).isLessThan(secondRun.indexOf("dispatch schedule-2"));

    ByteArrayOutputStream third = new ByteArrayOutputStream();
    assertThat(Demo.run(data, new PrintStream(third, true, StandardCharsets.UTF_8), Duration.ofSeconds(1))).isTrue();
    assertThat(third.toString(StandardCharsets.UTF_8))
        .contains("send_email ran 0 time(s) in this process; send_email results in the log: 1 (before this run: 1)")
        .contains("reminder deliveries in the log: 2 (before this run: 2)")
        .doesNotContain("[SCHEDULE REMINDER]");
  }
}

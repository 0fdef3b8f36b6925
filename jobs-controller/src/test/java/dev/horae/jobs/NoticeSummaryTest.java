package dev.horae.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobStatus;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Jobs spec §4.2 and D-08: a summary longer than 120 UTF-16 units keeps 119 units plus {@code …},
 * or 118 when unit 119 would be the high half of a surrogate pair.
 */
// a separate thread, so a join that never completes fails the test instead of hanging the run
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NoticeSummaryTest {

  /** A character outside the BMP: two UTF-16 units. */
  private static final String PAIR = "\uD83D\uDE80";

  @Test
  void theCutNeverKeepsTheHighHalfOfAPair() {
    // "bash " is 5 units, so 113 x's put the pair at units 119 and 120
    String label = "x".repeat(113) + PAIR + "y".repeat(20);
    String summary = JobTexts.summary("bash", label, "[status: completed]");
    assertThat(summary).isEqualTo("bash " + "x".repeat(113) + "\u2026");
    assertThat(summary).hasSize(119);
    assertThat(Character.isHighSurrogate(summary.charAt(summary.length() - 2))).isFalse();

    // the notice the controller injects carries the same summary
    JobTexts.Notice notice =
        JobTexts.notice(
            JobId.parse("bash-1"), "bash", label, JobStatus.COMPLETED, Optional.empty(), OptionalLong.empty());
    assertThat(notice.summary()).isEqualTo(summary);
  }

  @Test
  void aPairThatEndsAtUnit119IsKeptWhole() {
    // one x fewer: the pair is units 118 and 119, so 119 units end on its low half
    String label = "x".repeat(112) + PAIR + "y".repeat(20);
    assertThat(JobTexts.summary("bash", label, "[status: completed]"))
        .isEqualTo("bash " + "x".repeat(112) + PAIR + "\u2026")
        .hasSize(120);
  }
}

package dev.horae.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobStatus;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The bounded completion notice (jobs spec §5.4) at every step's edge: the id and the collection
 * instruction outrank label, status and marker, so a bounded notice stays actionable down to the
 * smallest caps. Also the producer-truncation marker of a read (§5.3).
 */
class NoticeBoundingRulesTest {

  private static final String COMPLETE = "background job pty-send-100 (pty: tail -f log) finished [status: completed,"
      + " exit code: 0]. Read its output with job_output.";

  private static String notice(long cap) {
    return JobTexts.notice(JobId.parse("pty-send-100"), "pty", "tail -f log", JobStatus.COMPLETED,
        Optional.of("exit code: 0"), OptionalLong.of(cap)).text();
  }

  @Test
  void aNoticeThatFitsIsWhole() {
    assertThat(Utf8Bounds.bytes(COMPLETE)).isEqualTo(123);
    assertThat(notice(123)).isEqualTo(COMPLETE);
    assertThat(JobTexts.notice(JobId.parse("pty-send-100"), "pty", "tail -f log", JobStatus.COMPLETED,
        Optional.of("exit code: 0"), OptionalLong.empty()).text()).isEqualTo(COMPLETE);
  }

  @Test
  void aNoticeOneByteOverKeepsTheHeadOfTheDetailThenMarkerAndAction() {
    assertThat(notice(122)).isEqualTo("background job pty-send-100 (pty: tail -f log) finished [status: completed, exit"
        + " code\n[notice truncated]\nDone; job_output.");
    assertThat(notice(70)).isEqualTo("background job pty-send-100 (pty:\n[notice truncated]\nDone; job_output.");
  }

  @Test
  void theFixedPartsAloneAtTheirExactSize() {
    assertThat(notice(64)).isEqualTo("background job pty-send-100\n[notice truncated]\nDone; job_output.");
  }

  @Test
  void belowTheFixedPartsTheMarkerGoesFirstThenThePrefixThenTheNewline() {
    assertThat(notice(63)).isEqualTo("background job pty-send-100\nDone; job_output.");
    assertThat(notice(45)).isEqualTo("background job pty-send-100\nDone; job_output.");
    assertThat(notice(44)).isEqualTo("background job pty-send-10\nDone; job_output.");
    assertThat(notice(19)).isEqualTo("b\nDone; job_output.");
    assertThat(notice(18)).isEqualTo("\nDone; job_output.");
    assertThat(notice(17)).isEqualTo("Done; job_output.");
  }

  @Test
  void aProducerTruncatedReadGetsTheMarkerOnce() {
    assertThat(JobTexts.readText("abc", JobStatus.RUNNING, Optional.empty(), OptionalLong.empty(), true))
        .isEqualTo("abc\n[output truncated]\n[status: running]");
    assertThat(JobTexts.readText("abc\n[output truncated]", JobStatus.RUNNING, Optional.empty(), OptionalLong.empty(), true))
        .isEqualTo("abc\n[output truncated]\n[status: running]");
    assertThat(JobTexts.readText("abc", JobStatus.RUNNING, Optional.empty(), OptionalLong.empty(), false))
        .isEqualTo("abc\n[status: running]");
  }
}

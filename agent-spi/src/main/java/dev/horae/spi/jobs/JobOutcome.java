package dev.horae.spi.jobs;

import java.util.Objects;
import java.util.Optional;

/**
 * The terminal outcome a producer reports through {@code done} (jobs spec §2.2). An empty detail
 * is treated as absent.
 *
 * @param status terminal status
 * @param detail producer text for status lines ({@code exit code: 3}, {@code signal: SIGTERM})
 * @param output final text of a final-output job; ignored for stream jobs
 */
public record JobOutcome(JobStatus status, Optional<String> detail, Optional<String> output) {

  /**
   * Validates the outcome.
   *
   * @throws IllegalArgumentException when {@code status} is not terminal
   */
  public JobOutcome {
    Objects.requireNonNull(status, "status");
    if (!status.isTerminal()) {
      throw new IllegalArgumentException("a job outcome needs a terminal status, got " + status.wire());
    }
    detail = detail.filter(d -> !d.isEmpty());
    Objects.requireNonNull(output, "output");
  }

  /**
   * A {@code completed} outcome.
   *
   * @param detail optional detail (empty text = absent)
   * @return the outcome
   */
  public static JobOutcome completed(Optional<String> detail) {
    return new JobOutcome(JobStatus.COMPLETED, detail, Optional.empty());
  }

  /**
   * A {@code killed} outcome.
   *
   * @param detail optional detail (empty text = absent)
   * @return the outcome
   */
  public static JobOutcome killed(Optional<String> detail) {
    return new JobOutcome(JobStatus.KILLED, detail, Optional.empty());
  }

  /**
   * A {@code failed} outcome.
   *
   * @param detail optional detail (empty text = absent)
   * @return the outcome
   */
  public static JobOutcome failed(Optional<String> detail) {
    return new JobOutcome(JobStatus.FAILED, detail, Optional.empty());
  }

  /**
   * Returns a copy carrying the final output of a final-output job.
   *
   * @param text the final output
   * @return the copy
   */
  public JobOutcome withOutput(String text) {
    return new JobOutcome(status, detail, Optional.of(text));
  }
}

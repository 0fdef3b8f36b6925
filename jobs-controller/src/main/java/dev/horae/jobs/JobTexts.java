package dev.horae.jobs;

import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.jobs.KillOutcome;
import dev.horae.spi.jobs.PublicJobSnapshot;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The model-facing texts of the jobs controller (jobs spec §3.4–§3.7, §4.2, §5): status lines,
 * {@code job_output}, {@code job_kill} and {@code job_list} renderings and completion notices,
 * bounded by a producer's {@code outputLimitBytes}. Pure functions: no clock, no threads, no I/O.
 */
public final class JobTexts {

  /** What {@code job_output} shows for an empty read. */
  public static final String NO_NEW_OUTPUT = "(no new output)";

  /** What {@code job_list} shows when the caller sees no job. */
  public static final String NO_JOBS = "(no background jobs)";

  /** Marker of a bounded completion notice: {@code \n[notice truncated]} (19 bytes). */
  public static final String NOTICE_MARKER = "\n[notice truncated]";

  /** Collection instruction kept by every bounded notice: {@code \nDone; job_output.}. */
  public static final String NOTICE_ACTION = "\nDone; job_output.";

  /** Summary length limit, in UTF-16 units. */
  public static final int SUMMARY_UNITS = 120;

  private static final Pattern LINE_BREAK = Pattern.compile("\r\n|\r|\n");

  private JobTexts() {}

  /**
   * A completion notice: the message text and the source summary.
   *
   * @param text the notice text, bounded when the job has a cap
   * @param summary the one-line summary, at most 120 UTF-16 units
   */
  public record Notice(String text, String summary) {
    /** Checks presence of both members. */
    public Notice {
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(summary, "summary");
    }
  }

  /**
   * Renders {@code [status: <status>]} or {@code [status: <status>, <detail>]}; an empty detail
   * counts as absent (§3.7, D-15).
   *
   * @param status the status
   * @param detail optional producer detail
   * @return the status line
   */
  public static String statusLine(JobStatus status, Optional<String> detail) {
    Optional<String> d = detail.filter(s -> !s.isEmpty());
    return d.isPresent()
        ? "[status: " + status.wire() + ", " + d.get() + "]"
        : "[status: " + status.wire() + "]";
  }

  /**
   * Renders a {@code job_output} result (§3.4), bounded by the read rule of §5.3 when a cap is
   * given.
   *
   * @param output the read text (may be empty)
   * @param status status after the read
   * @param detail optional producer detail
   * @param outputLimitBytes optional producer cap in bytes
   * @param producerTruncated whether the producer already cut the output; {@code \n[output
   *     truncated]} is then appended unless the output already ends with that marker
   * @return the model-facing text
   */
  public static String readText(
      String output,
      JobStatus status,
      Optional<String> detail,
      OptionalLong outputLimitBytes,
      boolean producerTruncated) {
    String text = output;
    if (producerTruncated && !text.endsWith(bare(Utf8Bounds.READ_MARKER))) {
      text = text + Utf8Bounds.READ_MARKER;
    }
    String body = text.isEmpty() ? NO_NEW_OUTPUT : text;
    String line = statusLine(status, detail);
    if (outputLimitBytes.isEmpty()) {
      return (body.endsWith("\n") ? body : body + "\n") + line;
    }
    String content = body.endsWith("\n") ? body.substring(0, body.length() - 1) : body;
    return Utf8Bounds.fitWithSuffix(
        content, "\n" + line, outputLimitBytes.getAsLong(), Utf8Bounds.READ_MARKER);
  }

  /**
   * Renders a {@code job_kill} result (§3.6). The live-job acknowledgement is never bounded
   * (D-03); the {@code already-finished} text is bounded as a single text.
   *
   * @param id the job id
   * @param outcome what the kill did
   * @param status the status (used for {@code already-finished})
   * @param detail optional producer detail
   * @param outputLimitBytes optional producer cap in bytes
   * @return the model-facing text
   */
  public static String killText(
      JobId id,
      KillOutcome outcome,
      JobStatus status,
      Optional<String> detail,
      OptionalLong outputLimitBytes) {
    if (outcome == KillOutcome.REQUESTED) {
      return "requested cancellation of job " + id.value();
    }
    String text = "job " + id.value() + " had already finished " + statusLine(status, detail);
    return boundSingleText(text, outputLimitBytes);
  }

  /**
   * Bounds a one-block result (error, denial, replacement, block) by the single-text rule (§5.3).
   *
   * @param text the result text
   * @param outputLimitBytes optional producer cap in bytes
   * @return the text, bounded when a cap is given
   */
  public static String boundSingleText(String text, OptionalLong outputLimitBytes) {
    if (outputLimitBytes.isEmpty()) {
      return text;
    }
    return Utf8Bounds.fitWithSuffix(
        text, "", outputLimitBytes.getAsLong(), Utf8Bounds.RESULT_MARKER);
  }

  /**
   * Renders {@code job_list} (§3.5): one line {@code <id> [<kind>] <status> — <label>} per job, or
   * {@code (no background jobs)}. Never capped.
   *
   * @param jobs the caller-visible jobs in registration order
   * @return the model-facing text
   */
  public static String listText(List<PublicJobSnapshot> jobs) {
    if (jobs.isEmpty()) {
      return NO_JOBS;
    }
    return jobs.stream()
        .map(
            j ->
                j.id().value()
                    + " ["
                    + j.kind()
                    + "] "
                    + j.status().wire()
                    + " \u2014 "
                    + oneLine(j.label()))
        .collect(Collectors.joining("\n"));
  }

  /**
   * Builds a completion notice (§4.2, §5.4).
   *
   * @param id the job id
   * @param kind the job kind
   * @param label the job label (line breaks render as spaces)
   * @param status the terminal status
   * @param detail optional producer detail
   * @param outputLimitBytes optional producer cap in bytes
   * @return text and summary
   */
  public static Notice notice(
      JobId id,
      String kind,
      String label,
      JobStatus status,
      Optional<String> detail,
      OptionalLong outputLimitBytes) {
    String line = statusLine(status, detail);
    String oneLineLabel = oneLine(label);
    String prefix = "background job " + id.value();
    String variable = " (" + kind + ": " + oneLineLabel + ") finished " + line;
    String complete = prefix + variable + ". Read its output with job_output.";
    String text =
        outputLimitBytes.isEmpty()
            ? complete
            : boundNotice(prefix, variable, complete, outputLimitBytes.getAsLong());
    return new Notice(text, summary(kind, oneLineLabel, line));
  }

  /**
   * Builds the notice summary {@code <kind> <label> <status line>}, cut to 119 units plus
   * {@code …} when longer than 120 units, never splitting a surrogate pair (D-08).
   *
   * @param kind the job kind
   * @param label the label (line breaks render as spaces)
   * @param statusLine the rendered status line
   * @return the summary
   */
  public static String summary(String kind, String label, String statusLine) {
    String full = kind + " " + oneLine(label) + " " + statusLine;
    if (full.length() <= SUMMARY_UNITS) {
      return full;
    }
    int keep = SUMMARY_UNITS - 1;
    if (Character.isHighSurrogate(full.charAt(keep - 1))) {
      keep--;
    }
    return full.substring(0, keep) + "\u2026";
  }

  /**
   * Renders every line break ({@code \r\n}, {@code \r}, {@code \n}) as one space (D-05).
   *
   * @param label a label
   * @return the one-line label
   */
  public static String oneLine(String label) {
    return LINE_BREAK.matcher(label).replaceAll(" ");
  }

  private static String boundNotice(String prefix, String variable, String complete, long max) {
    if (Utf8Bounds.bytes(complete) <= max) {
      return complete;
    }
    String fixed = prefix + NOTICE_MARKER + NOTICE_ACTION;
    long fixedBytes = Utf8Bounds.bytes(fixed);
    if (fixedBytes == max) {
      return fixed;
    }
    if (fixedBytes < max) {
      return prefix + Utf8Bounds.head(variable, max - fixedBytes) + NOTICE_MARKER + NOTICE_ACTION;
    }
    String compact = prefix + NOTICE_ACTION;
    if (Utf8Bounds.bytes(compact) <= max) {
      return compact;
    }
    long actionBytes = Utf8Bounds.bytes(NOTICE_ACTION);
    if (actionBytes >= max) {
      return Utf8Bounds.tail(NOTICE_ACTION, max);
    }
    return Utf8Bounds.head(prefix, max - actionBytes) + NOTICE_ACTION;
  }

  private static String bare(String marker) {
    return marker.substring(1);
  }
}

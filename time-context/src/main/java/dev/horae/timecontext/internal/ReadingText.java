package dev.horae.timecontext.internal;

import java.util.Optional;
import java.util.OptionalLong;

/** Composes the text of a reading (spec §7). */
public final class ReadingText {

  /** Label of the step-1 baseline. */
  public static final String FIRST_STEP_LABEL = "model-visible message";
  /** Label of the later-step baseline. */
  public static final String LATER_STEP_LABEL = "step context";

  private ReadingText() {}

  /**
   * The reading text: lines joined by one LF, no trailing newline.
   *
   * @param turn the turn number
   * @param step the step number
   * @param timestamp the formatted timestamp
   * @param zoneLine the client-zone line of the three-line form, empty for the two-line form
   * @param elapsedMs elapsed milliseconds, or empty for {@code unavailable}
   * @param duration formats elapsed milliseconds
   * @return the text
   */
  public static String compose(
      long turn,
      long step,
      String timestamp,
      Optional<String> zoneLine,
      OptionalLong elapsedMs,
      java.util.function.LongFunction<String> duration) {
    StringBuilder out = new StringBuilder(256);
    out.append("Time sampled while preparing turn ")
        .append(turn)
        .append(", step ")
        .append(step)
        .append(": ")
        .append(timestamp)
        .append('\n');
    zoneLine.ifPresent(line -> out.append(line).append('\n'));
    out.append("Elapsed since the preceding ")
        .append(baselineLabel(step))
        .append(": ")
        .append(elapsedMs.isPresent() ? duration.apply(elapsedMs.getAsLong()) : "unavailable")
        .append('.');
    return out.toString();
  }

  /**
   * The baseline label a step must use.
   *
   * @param step the step number
   * @return {@code model-visible message} for step 1, {@code step context} otherwise
   */
  public static String baselineLabel(long step) {
    return step == 1 ? FIRST_STEP_LABEL : LATER_STEP_LABEL;
  }
}

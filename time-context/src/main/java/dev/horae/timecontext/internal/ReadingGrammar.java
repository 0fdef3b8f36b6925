package dev.horae.timecontext.internal;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The durable reading grammar of spec §11.2 check 2: two-line and three-line forms, matched
 * against the whole text with single LF separators.
 */
public final class ReadingGrammar {

  private static final Pattern FORM =
      Pattern.compile(
          "Time sampled while preparing turn ([0-9]+), step ([0-9]+): "
              + "([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:Z|[+-][0-9]{2}:[0-9]{2}))"
              + "\\[([^\\]]+)\\]"
              + "(?:\\n(Browser time zone for this request: [^\\n\\r\\u2028\\u2029]+))?"
              + "\\nElapsed since the preceding (model-visible message|step context): "
              + "(?:unavailable|(?:[0-9]+d )?(?:[0-9]+h )?(?:[0-9]+m )?[0-9]+s)\\.");

  private ReadingGrammar() {}

  /**
   * The parts of a text that matches either form.
   *
   * @param turn the turn digits
   * @param step the step digits
   * @param timestamp the timestamp without its bracketed label
   * @param label the bracketed label
   * @param zoneLine the client-zone line of the three-line form, empty for the two-line form
   * @param baselineLabel {@code model-visible message} or {@code step context}
   */
  public record Parsed(
      String turn, String step, String timestamp, String label, Optional<String> zoneLine, String baselineLabel) {

    /**
     * The timestamp as written, label included.
     *
     * @return {@code timestamp[label]}
     */
    public String labelledTimestamp() {
      return timestamp + "[" + label + "]";
    }
  }

  /**
   * Matches a reading text.
   *
   * @param text the content text
   * @return its parts, or empty when the text matches neither form
   */
  public static Optional<Parsed> parse(String text) {
    Matcher m = FORM.matcher(text);
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(
        new Parsed(
            group(m, 1), group(m, 2), group(m, 3), group(m, 4), Optional.ofNullable(m.group(5)), group(m, 6)));
  }

  private static String group(Matcher m, int i) {
    String g = m.group(i);
    if (g == null) {
      throw new IllegalStateException("mandatory group " + i + " did not participate");
    }
    return g;
  }
}

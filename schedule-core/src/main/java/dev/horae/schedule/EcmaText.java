package dev.horae.schedule;

/**
 * ECMAScript {@code String.prototype.trim} (spec §16.1), the "trimmed" of Schedule's durable id,
 * prompt and delete-id rules, and of the zone name's surrounding-whitespace rule.
 *
 * <p>Java's {@code trim()} and {@code strip()} use other whitespace sets, so durable ids and
 * prompts would drift from the original engine if either were used. Schedule's JSON texts are
 * written by the shared {@link dev.horae.spi.json.EcmaJson}.
 */
public final class EcmaText {

  private EcmaText() {}

  /**
   * Whether {@code c} is in the ECMAScript WhiteSpace or LineTerminator set.
   *
   * @param c a UTF-16 code unit (every member of the set is in the BMP)
   * @return true when {@code trim} removes it
   */
  public static boolean isTrimmable(char c) {
    return switch (c) {
      case '\t', '\n', '\u000B', '\f', '\r', ' ', '\u00A0', '\u1680', '\u2028', '\u2029',
          '\u202F', '\u205F', '\u3000', '\uFEFF' -> true;
      default -> c >= '\u2000' && c <= '\u200A';
    };
  }

  /**
   * ECMAScript {@code String.prototype.trim}.
   *
   * @param text any text
   * @return the text without leading and trailing ECMAScript whitespace
   */
  public static String trim(String text) {
    int start = 0;
    int end = text.length();
    while (start < end && isTrimmable(text.charAt(start))) {
      start++;
    }
    while (end > start && isTrimmable(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(start, end);
  }

  /**
   * Whether {@code text} is non-empty and equal to its own trimmed form: the durable id and
   * prompt rule.
   *
   * @param text any text
   * @return true when non-empty and already trimmed
   */
  public static boolean isNonEmptyTrimmed(String text) {
    return !text.isEmpty()
        && !isTrimmable(text.charAt(0))
        && !isTrimmable(text.charAt(text.length() - 1));
  }
}

package dev.horae.schedule;

/**
 * The two pieces of ECMAScript string behaviour Schedule depends on (spec §16.1, §16.3):
 * {@code String.prototype.trim} and the string literals of {@code JSON.stringify}.
 *
 * <p>Java's {@code trim()} and {@code strip()} use different whitespace sets, and common Java JSON
 * writers escape differently, so durable ids, prompts, rendered values and the reminder framing
 * would drift from the original engine if either were used.
 */
public final class EcmaText {

  private static final char[] HEX = "0123456789abcdef".toCharArray();

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

  /**
   * The string literal {@code JSON.stringify(text)} produces, quotes included.
   *
   * @param text any text, possibly with unpaired surrogates
   * @return the JSON string literal
   */
  public static String jsonString(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2);
    appendJsonString(out, text);
    return out.toString();
  }

  /**
   * Appends the {@code JSON.stringify} literal of {@code text} to {@code out}.
   *
   * @param out the buffer to append to
   * @param text any text
   */
  public static void appendJsonString(StringBuilder out, String text) {
    out.append('"');
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\f' -> out.append("\\f");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20) {
            appendUnicodeEscape(out, c);
          } else if (Character.isHighSurrogate(c)) {
            if (i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
              out.append(c).append(text.charAt(i + 1));
              i++;
            } else {
              appendUnicodeEscape(out, c);
            }
          } else if (Character.isLowSurrogate(c)) {
            // a low surrogate reached here has no high surrogate before it
            appendUnicodeEscape(out, c);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static void appendUnicodeEscape(StringBuilder out, char c) {
    out.append("\\u")
        .append(HEX[(c >> 12) & 0xF])
        .append(HEX[(c >> 8) & 0xF])
        .append(HEX[(c >> 4) & 0xF])
        .append(HEX[c & 0xF]);
  }
}

package dev.horae.spi.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * {@code JSON.stringify} over a Jackson tree: the compact JSON text a JavaScript engine writes for
 * the same value (schedule spec §4.3 and §16.3, time-context spec §14.4, jobs spec §0).
 *
 * <ul>
 *   <li>object members in stored (insertion) order, array elements in order, no whitespace;
 *   <li>every number, at any depth, as {@link EcmaNumbers#toString(double)} writes its double
 *       value ({@code 30.0} is {@code 30}, {@code 1.5e21} is {@code 1.5e+21}, integers beyond
 *       2^53 round as a double would); a non-finite number is {@code null};
 *   <li>strings as {@link #string}: only {@code "}, {@code \}, control characters and unpaired
 *       surrogates are escaped, with lower-case hex;
 *   <li>a missing member value is left out of its object, as {@code undefined} is.
 * </ul>
 *
 * <p>Pure and thread-safe.
 */
public final class EcmaJson {

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private EcmaJson() {}

  /**
   * {@code JSON.stringify(value)}.
   *
   * @param value any JSON tree
   * @return the compact JSON text
   */
  public static String write(JsonNode value) {
    StringBuilder out = new StringBuilder(64);
    append(out, value);
    return out.toString();
  }

  /**
   * Appends {@code JSON.stringify(value)} to {@code out}.
   *
   * @param out the buffer
   * @param value any JSON tree
   */
  public static void append(StringBuilder out, JsonNode value) {
    if (value.isObject()) {
      FrozenJson.Members lazy = FrozenJson.lazyMembers(value);
      if (lazy != null && lazy.appendJson(out)) {
        return;
      }
      out.append('{');
      boolean first = true;
      if (lazy != null) {
        // a lazy object's members straight from their source, without a map entry each
        for (int i = 0, n = lazy.size(); i < n; i++) {
          first = appendMember(out, first, lazy.name(i), lazy.value(i));
        }
      } else {
        for (Map.Entry<String, JsonNode> member : value.properties()) {
          first = appendMember(out, first, member.getKey(), member.getValue());
        }
      }
      out.append('}');
    } else if (value.isArray()) {
      out.append('[');
      for (int i = 0; i < value.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        append(out, value.get(i));
      }
      out.append(']');
    } else if (value.isTextual()) {
      appendString(out, value.textValue());
    } else if (value.isNumber()) {
      double d = value.doubleValue();
      out.append(Double.isFinite(d) ? EcmaNumbers.toString(d) : "null");
    } else if (value.isBoolean()) {
      out.append(value.booleanValue());
    } else {
      out.append("null");
    }
  }

  /** One {@code "name":value} of an object, after a comma unless first; a missing value is left out. */
  private static boolean appendMember(StringBuilder out, boolean first, String name, JsonNode value) {
    if (value.isMissingNode()) {
      return first;
    }
    if (!first) {
      out.append(',');
    }
    appendString(out, name);
    out.append(':');
    append(out, value);
    return false;
  }

  /**
   * The string literal {@code JSON.stringify(text)} writes, quotes included.
   *
   * @param text any text, unpaired surrogates allowed
   * @return the JSON string literal
   */
  public static String string(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2);
    appendString(out, text);
    return out.toString();
  }

  /**
   * Appends the {@code JSON.stringify} literal of {@code text} to {@code out}: {@code \"},
   * {@code \\}, {@code \b \t \n \f \r}, other code units below U+0020 and unpaired surrogates as
   * {@code \}{@code u} with four lower-case hex digits, everything else raw (non-ASCII text,
   * {@code /}, U+2028, U+2029, paired surrogates).
   *
   * @param out the buffer
   * @param text any text
   */
  public static void appendString(StringBuilder out, String text) {
    out.append('"');
    int n = text.length();
    int plain = plainPrefix(text);
    if (plain == n) {
      // nothing to escape (almost every id, prompt and instant): one bulk copy of the whole text
      // instead of a capacity check per character (a list of a million rows writes 150 MB)
      out.append(text).append('"');
      return;
    }
    out.append(text, 0, plain);
    for (int i = plain; i < n; i++) {
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
          } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
            out.append(c).append(text.charAt(++i));
          } else if (Character.isSurrogate(c)) {
            // a high surrogate without its low half, or a low one without a high half before it
            appendUnicodeEscape(out, c);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /**
   * The length of the text's longest prefix written as it is: no quote, backslash, control
   * character or surrogate.
   */
  private static int plainPrefix(String text) {
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c)) {
        return i;
      }
    }
    return n;
  }

  private static void appendUnicodeEscape(StringBuilder out, char c) {
    out.append("\\u")
        .append(HEX[(c >> 12) & 0xF])
        .append(HEX[(c >> 8) & 0xF])
        .append(HEX[(c >> 4) & 0xF])
        .append(HEX[c & 0xF]);
  }
}

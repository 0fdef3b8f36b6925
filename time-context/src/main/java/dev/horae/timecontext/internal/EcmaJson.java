package dev.horae.timecontext.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Map;

/**
 * JSON text as ECMAScript's {@code JSON.stringify} and {@code String(number)} write it.
 *
 * <p>Spec messages quote values this way (schedule spec §16.3, time-context spec §14.3), and common
 * Java writers differ in small ways (upper-case hex escapes, {@code 1.0E21}), so the library owns
 * this encoder.
 */
public final class EcmaJson {

  private EcmaJson() {}

  /**
   * A string literal as {@code JSON.stringify} writes it.
   *
   * @param value any string
   * @return the quoted literal
   */
  public static String string(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2);
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\f' -> out.append("\\f");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20 || isUnpairedSurrogate(value, i)) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  private static boolean isUnpairedSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
    }
    if (Character.isLowSurrogate(c)) {
      return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
    }
    return false;
  }

  /**
   * A compact array of string literals, e.g. {@code ["A","B"]}.
   *
   * @param values the strings
   * @return the array text
   */
  public static String stringArray(List<String> values) {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(string(values.get(i)));
    }
    return out.append(']').toString();
  }

  /**
   * A number as ECMAScript's {@code String(number)} writes it: integral values below 10^21 as
   * plain digits, other finite values in the shortest round-trip form, and {@code Infinity},
   * {@code -Infinity}, {@code NaN}.
   *
   * @param d the value
   * @return the text
   */
  public static String number(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0) {
      // String(-0) is "0"
      return "0";
    }
    if (d < 0) {
      return "-" + number(-d);
    }
    BigDecimal shortest = shortest(d);
    String digits = shortest.unscaledValue().toString();
    // strip trailing zeros of the digit string; they belong to the exponent
    int k = digits.length();
    while (k > 1 && digits.charAt(k - 1) == '0') {
      k--;
    }
    digits = digits.substring(0, k);
    // value = 0.digits * 10^n
    int n = shortest.precision() - shortest.scale();
    if (k <= n && n <= 21) {
      return digits + "0".repeat(n - k);
    }
    if (0 < n && n <= 21) {
      return digits.substring(0, n) + "." + digits.substring(n);
    }
    if (-6 < n && n <= 0) {
      return "0." + "0".repeat(-n) + digits;
    }
    int e = n - 1;
    String exp = (e >= 0 ? "e+" : "e-") + Math.abs(e);
    if (k == 1) {
      return digits + exp;
    }
    return digits.charAt(0) + "." + digits.substring(1) + exp;
  }

  private static BigDecimal shortest(double d) {
    BigDecimal exact = new BigDecimal(d);
    for (int p = 1; p < 17; p++) {
      BigDecimal candidate = exact.round(new MathContext(p));
      if (candidate.doubleValue() == d) {
        return candidate;
      }
    }
    return exact.round(new MathContext(17));
  }

  /**
   * Compact JSON text of any value: strings and numbers as above, objects in stored member order.
   *
   * @param value a JSON tree
   * @return its compact text
   */
  public static String write(JsonNode value) {
    if (value.isTextual()) {
      return string(value.textValue());
    }
    if (value.isNumber()) {
      return number(value.doubleValue());
    }
    if (value.isBoolean()) {
      return value.booleanValue() ? "true" : "false";
    }
    if (value.isArray()) {
      StringBuilder out = new StringBuilder("[");
      for (int i = 0; i < value.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        out.append(write(value.get(i)));
      }
      return out.append(']').toString();
    }
    if (value.isObject()) {
      StringBuilder out = new StringBuilder("{");
      boolean first = true;
      for (Map.Entry<String, JsonNode> member : value.properties()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        out.append(string(member.getKey())).append(':').append(write(member.getValue()));
      }
      return out.append('}').toString();
    }
    return "null";
  }
}

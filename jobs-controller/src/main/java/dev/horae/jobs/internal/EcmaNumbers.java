package dev.horae.jobs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Number and JSON renderings of the jobs texts (jobs spec §0): numbers as ECMAScript's
 * {@code Number.prototype.toString} writes them, values as compact JSON. Pure.
 */
public final class EcmaNumbers {

  /** 2^53 − 1, the largest integer a JavaScript number holds exactly. */
  public static final long MAX_SAFE_INTEGER = 9007199254740991L;

  private EcmaNumbers() {}

  /**
   * Writes a double as ECMAScript's {@code Number.prototype.toString}.
   *
   * @param value any double
   * @return e.g. {@code 100}, {@code 2.5}, {@code 1e+300}, {@code Infinity}
   */
  public static String toString(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    }
    if (value == 0) {
      return "0";
    }
    if (value < 0) {
      return "-" + toString(-value);
    }
    BigDecimal shortest = shortest(value);
    String digits = shortest.unscaledValue().toString();
    // strip trailing zeros of the digit string; fold them into the exponent
    int k = digits.length();
    int trimmed = k;
    while (trimmed > 1 && digits.charAt(trimmed - 1) == '0') {
      trimmed--;
    }
    String s = digits.substring(0, trimmed);
    k = s.length();
    // value = s × 10^(n − k)
    int n = digits.length() - shortest.scale();
    if (k <= n && n <= 21) {
      return s + "0".repeat(n - k);
    }
    if (0 < n && n <= 21) {
      return s.substring(0, n) + "." + s.substring(n);
    }
    if (-6 < n && n <= 0) {
      return "0." + "0".repeat(-n) + s;
    }
    int e = n - 1;
    String exp = (e >= 0 ? "+" : "-") + Math.abs(e);
    return k == 1 ? s + "e" + exp : s.charAt(0) + "." + s.substring(1) + "e" + exp;
  }

  /**
   * Writes a JSON value as compact JSON, numbers in ECMAScript form ({@code JSON.stringify}
   * semantics: a non-finite number is {@code null}).
   *
   * @param value any JSON value
   * @return compact JSON text
   */
  public static String json(JsonNode value) {
    if (value.isNumber()) {
      double d = value.doubleValue();
      return Double.isFinite(d) ? toString(d) : "null";
    }
    return Json.write(value);
  }

  private static BigDecimal shortest(double value) {
    BigDecimal exact = new BigDecimal(value);
    for (int precision = 1; precision <= 17; precision++) {
      BigDecimal candidate = exact.round(new MathContext(precision));
      if (candidate.doubleValue() == value) {
        return candidate;
      }
    }
    return exact.round(new MathContext(17));
  }
}

package dev.horae.schedule.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.OptionalLong;

/**
 * JSON numbers read the ECMAScript way (spec §16.2): every number is first converted to an
 * IEEE-754 double, and only then checked. {@code 30.0} and {@code 3e1} are the integer 30; a
 * literal that rounds to an integer as a double is that integer.
 */
public final class JsonNumbers {

  /** 2^53 − 1, the largest safe integer. */
  public static final long MAX_SAFE = 9_007_199_254_740_991L;

  private JsonNumbers() {}

  /**
   * The value of a JSON number that is a safe integer.
   *
   * @param node any JSON value
   * @return the integer, or empty when the value is not a number or not a safe integer
   */
  public static OptionalLong safeInteger(JsonNode node) {
    if (!node.isNumber()) {
      return OptionalLong.empty();
    }
    double d = node.doubleValue();
    if (!isSafeInteger(d)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of((long) d);
  }

  /**
   * The value of a JSON number that is a safe integer greater than zero.
   *
   * @param node any JSON value
   * @return the integer, or empty otherwise ({@code -0} is not positive)
   */
  public static OptionalLong positiveSafeInteger(JsonNode node) {
    OptionalLong v = safeInteger(node);
    return v.isPresent() && v.getAsLong() > 0 ? v : OptionalLong.empty();
  }

  /**
   * ECMAScript {@code Number.isSafeInteger}.
   *
   * @param d any double
   * @return true when finite, integral and within ±(2^53 − 1)
   */
  public static boolean isSafeInteger(double d) {
    return !Double.isNaN(d)
        && !Double.isInfinite(d)
        && d == Math.rint(d)
        && Math.abs(d) <= MAX_SAFE;
  }

  /**
   * Whether a long is within ±(2^53 − 1).
   *
   * @param v any long
   * @return true when safe
   */
  public static boolean isSafeInteger(long v) {
    return v >= -MAX_SAFE && v <= MAX_SAFE;
  }
}

package dev.horae.spi.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.OptionalLong;

/**
 * Numbers as ECMAScript has them: every JSON number is an IEEE-754 double, written by {@code
 * Number.prototype.toString} and judged by {@code Number.isSafeInteger} (schedule spec §16.2,
 * time-context spec §14.3, jobs spec §0).
 *
 * <p>Pure and thread-safe.
 */
public final class EcmaNumbers {

  /** 2^53 − 1, {@code Number.MAX_SAFE_INTEGER}: the largest integer a double holds exactly. */
  public static final long MAX_SAFE_INTEGER = 9_007_199_254_740_991L;

  /** 2^53: below it every integral double is written as plain digits without a digit search. */
  private static final double EXACT_INTEGERS = 0x1p53;

  private EcmaNumbers() {}

  /**
   * {@code Number.prototype.toString()} of a double (ECMAScript {@code Number::toString} with
   * radix 10): {@code 100}, {@code 2.5}, {@code 0.000001}, {@code 1e-7}, {@code 1.5e+21},
   * {@code 123456789012345680000}, {@code 0} for {@code -0}, and {@code NaN}, {@code Infinity},
   * {@code -Infinity}.
   *
   * <p>The digits are the shortest that read back as the same double, and of those the closest
   * to the exact value (the even one on a tie). They are searched for with exact decimal
   * arithmetic rather than taken from {@link Double#toString}, which on Java 17 sometimes gives
   * one digit too many (JDK-4511638, fixed only in Java 19).
   *
   * @param value any double
   * @return the ECMAScript text
   */
  public static String toString(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (value == 0) {
      return "0";
    }
    if (value < 0) {
      return "-" + toString(-value);
    }
    if (Double.isInfinite(value)) {
      return "Infinity";
    }
    if (value < EXACT_INTEGERS && value == Math.rint(value)) {
      // an integer below 2^53 is its own shortest form: no other decimal lies within half an ulp
      return Long.toString((long) value);
    }
    BigDecimal digits = shortest(value).stripTrailingZeros();
    String s = digits.unscaledValue().toString();
    int k = s.length();
    // value = s × 10^(n − k)
    int n = k - digits.scale();
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
    String exponent = (e >= 0 ? "e+" : "e-") + Math.abs(e);
    return k == 1 ? s + exponent : s.charAt(0) + "." + s.substring(1) + exponent;
  }

  /**
   * The decimal with the fewest significant digits that reads back as {@code value}; of two with
   * that many, the closer to the exact value, and on a tie the one with an even last digit.
   *
   * <p>For each digit count {@code p} both neighbours of the exact value are tried, not only the
   * rounded one: next to a power of two the interval that reads back as {@code value} is
   * lopsided, and the farther neighbour may be inside it while the nearer is not.
   */
  private static BigDecimal shortest(double value) {
    BigDecimal exact = new BigDecimal(value);
    for (int p = 1; ; p++) {
      BigDecimal down = exact.round(new MathContext(p, RoundingMode.DOWN));
      if (down.compareTo(exact) == 0) {
        return down;
      }
      BigDecimal up = exact.round(new MathContext(p, RoundingMode.UP));
      boolean downReads = down.doubleValue() == value;
      boolean upReads = up.doubleValue() == value;
      if (downReads && upReads) {
        int closer = exact.subtract(down).compareTo(up.subtract(exact));
        if (closer != 0) {
          return closer < 0 ? down : up;
        }
        return down.unscaledValue().testBit(0) ? up : down;
      }
      if (downReads) {
        return down;
      }
      if (upReads) {
        return up;
      }
      // 17 significant digits always read back, so the loop ends by p = 17
    }
  }

  /**
   * ECMAScript {@code Number.isSafeInteger}.
   *
   * @param d any double
   * @return true when finite, integral and within ±(2^53 − 1)
   */
  public static boolean isSafeInteger(double d) {
    return Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) <= MAX_SAFE_INTEGER;
  }

  /**
   * Whether a {@code long} is within ±(2^53 − 1), so that a JavaScript reader sees it exactly.
   *
   * @param v any long
   * @return true when safe
   */
  public static boolean isSafeInteger(long v) {
    return v >= -MAX_SAFE_INTEGER && v <= MAX_SAFE_INTEGER;
  }

  /**
   * The value of a JSON number that is a safe integer, read as a double first: {@code 30},
   * {@code 30.0}, {@code 3e1} and {@code 30.0000000000000001} are all 30.
   *
   * @param node any JSON value
   * @return the integer, or empty when the value is not a number or not a safe integer
   */
  public static OptionalLong safeInteger(JsonNode node) {
    if (!node.isNumber()) {
      return OptionalLong.empty();
    }
    double d = node.doubleValue();
    // (long) -0.0 is 0: the integer of -0 is 0, as in ECMAScript
    return isSafeInteger(d) ? OptionalLong.of((long) d) : OptionalLong.empty();
  }

  /**
   * The value of a JSON number that is a safe integer greater than zero.
   *
   * @param node any JSON value
   * @return the integer, or empty otherwise ({@code -0} and {@code 0} are not positive)
   */
  public static OptionalLong positiveSafeInteger(JsonNode node) {
    OptionalLong v = safeInteger(node);
    return v.isPresent() && v.getAsLong() > 0 ? v : OptionalLong.empty();
  }
}

package dev.horae.schedule.internal;

import dev.horae.spi.json.EcmaNumbers;
import static dev.horae.schedule.ScheduleError.AFTER_SECONDS_MESSAGE;
import static dev.horae.schedule.ScheduleError.AT_OFFSET_MESSAGE;
import static dev.horae.schedule.ScheduleError.AT_REAL_DATE_MESSAGE;
import static dev.horae.schedule.ScheduleError.AT_SHAPE_MESSAGE;
import static dev.horae.schedule.ScheduleError.NOT_FUTURE_MESSAGE;
import static dev.horae.schedule.ScheduleError.OUT_OF_RANGE_MESSAGE;

import dev.horae.schedule.ErrorCode;
import dev.horae.schedule.ScheduleError;
import dev.horae.schedule.ScheduleResult;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code after_seconds} computation (spec §6.3), the strict offset {@code at} string (§6.4)
 * and the shared range-then-future check (§6.6). Every function returns the target in epoch
 * milliseconds or the spec's error value.
 */
public final class Selectors {

  private static final Pattern AT_STRING =
      Pattern.compile(
          "([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})"
              + "(?:\\.([0-9]{1,3}))?(Z|([+-])([0-9]{2}):([0-9]{2}))");

  private Selectors() {}

  /**
   * {@code target = now + afterSeconds × 1000} with every range rule of §6.3.
   *
   * @param nowMillis the sampled wall clock
   * @param afterSeconds the requested delay
   * @return the target, or {@code invalid_rule} / {@code time_out_of_range}
   */
  public static ScheduleResult<Long> after(long nowMillis, long afterSeconds) {
    if (afterSeconds < 1 || afterSeconds > EcmaNumbers.MAX_SAFE_INTEGER) {
      return invalidRule(AFTER_SECONDS_MESSAGE);
    }
    if (!EcmaNumbers.isSafeInteger(nowMillis)) {
      return outOfRange();
    }
    // afterSeconds ≤ 2^53, so the product fits a long; it must itself be a safe integer
    long delay = afterSeconds * 1000L;
    if (!EcmaNumbers.isSafeInteger(delay)) {
      return outOfRange();
    }
    long target = nowMillis + delay;
    if (!EcmaNumbers.isSafeInteger(target) || target <= nowMillis || target > UtcInstants.MAX_MILLIS) {
      return outOfRange();
    }
    return ScheduleResult.ok(target);
  }

  /**
   * The strict offset string form, then the range-then-future check.
   *
   * @param text the {@code at} string
   * @param nowMillis the sampled wall clock
   * @return the target, or the first failing rule's error value
   */
  public static ScheduleResult<Long> atString(String text, long nowMillis) {
    Matcher m = AT_STRING.matcher(text);
    if (!m.matches()) {
      return invalidRule(AT_SHAPE_MESSAGE);
    }
    int year = Integer.parseInt(m.group(1));
    int month = Integer.parseInt(m.group(2));
    int day = Integer.parseInt(m.group(3));
    int hour = Integer.parseInt(m.group(4));
    int minute = Integer.parseInt(m.group(5));
    int second = Integer.parseInt(m.group(6));
    if (year == 0 || hour > 23 || minute > 59 || second > 59) {
      return invalidRule(AT_REAL_DATE_MESSAGE);
    }
    if (!isRealDate(year, month, day)) {
      return invalidRule(AT_REAL_DATE_MESSAGE);
    }
    int millis = fractionMillis(m.group(7));
    long fieldsAsUtc =
        LocalDateTime.of(year, month, day, hour, minute, second).toEpochSecond(ZoneOffset.UTC)
                * 1000L
            + millis;
    long instant = fieldsAsUtc;
    if (!m.group(8).equals("Z")) {
      int offHours = Integer.parseInt(m.group(10));
      int offMinutes = Integer.parseInt(m.group(11));
      boolean negative = m.group(9).equals("-");
      if (offHours > 23 || offMinutes > 59 || (negative && offHours == 0 && offMinutes == 0)) {
        return invalidRule(AT_OFFSET_MESSAGE);
      }
      long offsetMillis = (offHours * 60L + offMinutes) * 60_000L;
      instant = negative ? fieldsAsUtc + offsetMillis : fieldsAsUtc - offsetMillis;
    }
    return rangeThenFuture(instant, nowMillis);
  }

  /**
   * The range-then-future check of §6.6.
   *
   * @param instant the candidate target
   * @param nowMillis the sampled wall clock
   * @return the target, {@code time_out_of_range} or {@code not_future}
   */
  public static ScheduleResult<Long> rangeThenFuture(long instant, long nowMillis) {
    if (!EcmaNumbers.isSafeInteger(nowMillis) || !UtcInstants.inRange(instant)) {
      return outOfRange();
    }
    if (instant <= nowMillis) {
      return ScheduleResult.err(new ScheduleError.Basic(ErrorCode.NOT_FUTURE, NOT_FUTURE_MESSAGE));
    }
    return ScheduleResult.ok(instant);
  }

  /**
   * Whether month and day name a real proleptic-Gregorian date of {@code year}.
   *
   * @param year a year in 1..9999
   * @param month any month number
   * @param day any day number
   * @return true when the date exists
   */
  public static boolean isRealDate(int year, int month, int day) {
    return month >= 1
        && month <= 12
        && day >= 1
        && day <= LocalDate.of(year, month, 1).lengthOfMonth();
  }

  /**
   * Right-pads a 1–3 digit fraction to milliseconds ({@code .1} is 100 ms).
   *
   * @param fraction the digits, or {@code null} when the fraction is absent
   * @return milliseconds
   */
  public static int fractionMillis(@org.jspecify.annotations.Nullable String fraction) {
    if (fraction == null) {
      return 0;
    }
    int v = Integer.parseInt(fraction);
    for (int i = fraction.length(); i < 3; i++) {
      v *= 10;
    }
    return v;
  }

  static <T> ScheduleResult<T> invalidRule(String message) {
    return ScheduleResult.err(new ScheduleError.Basic(ErrorCode.INVALID_RULE, message));
  }

  static <T> ScheduleResult<T> outOfRange() {
    return ScheduleResult.err(
        new ScheduleError.Basic(ErrorCode.TIME_OUT_OF_RANGE, OUT_OF_RANGE_MESSAGE));
  }
}

package dev.horae.schedule.internal;

import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/**
 * The canonical durable instant {@code YYYY-MM-DDTHH:mm:ss.sssZ} (spec §3.3, §16.7): formatting
 * with exactly three fraction digits and a four-digit year, and the strict parse with its
 * round-trip check.
 */
public final class UtcInstants {

  /** 0001-01-01T00:00:00.000Z in epoch milliseconds. */
  public static final long MIN_MILLIS = -62_135_596_800_000L;
  /** 9999-12-31T23:59:59.999Z in epoch milliseconds. */
  public static final long MAX_MILLIS = 253_402_300_799_999L;

  private UtcInstants() {}

  /**
   * Whether an epoch value has a four-digit-year canonical form.
   *
   * @param millis epoch milliseconds
   * @return true inside [{@link #MIN_MILLIS}, {@link #MAX_MILLIS}]
   */
  public static boolean inRange(long millis) {
    return millis >= MIN_MILLIS && millis <= MAX_MILLIS;
  }

  /**
   * Formats an in-range epoch value canonically.
   *
   * @param millis epoch milliseconds within the four-digit-year range
   * @return the canonical text
   * @throws IllegalArgumentException when out of range
   */
  public static String format(long millis) {
    if (!inRange(millis)) {
      throw new IllegalArgumentException("instant out of the four-digit-year range: " + millis);
    }
    long seconds = Math.floorDiv(millis, 1000L);
    int ms = (int) Math.floorMod(millis, 1000L);
    long days = Math.floorDiv(seconds, 86_400L);
    int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
    // the civil date of an epoch day in the proleptic Gregorian calendar, by 400-year eras (the
    // inverse of epochDay); computed here so that formatting a view allocates only its text,
    // which a list of a million reminders formats a million times
    long shifted = days + 719_468L;
    long era = Math.floorDiv(shifted, 146_097L);
    int dayOfEra = (int) (shifted - era * 146_097L);
    int yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
    int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    int marchMonth = (5 * dayOfYear + 2) / 153;
    int day = dayOfYear - (153 * marchMonth + 2) / 5 + 1;
    int month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9;
    int year = (int) (yearOfEra + era * 400L) + (month <= 2 ? 1 : 0);
    byte[] out = new byte[24];
    put(out, 0, year, 4);
    out[4] = (byte) '-';
    put(out, 5, month, 2);
    out[7] = (byte) '-';
    put(out, 8, day, 2);
    out[10] = (byte) 'T';
    put(out, 11, secondOfDay / 3600, 2);
    out[13] = (byte) ':';
    put(out, 14, secondOfDay / 60 % 60, 2);
    out[16] = (byte) ':';
    put(out, 17, secondOfDay % 60, 2);
    out[19] = (byte) '.';
    put(out, 20, ms, 3);
    out[23] = (byte) 'Z';
    // ASCII bytes into a compact string with one copy
    return new String(out, StandardCharsets.ISO_8859_1);
  }

  private static void put(byte[] out, int at, int value, int width) {
    int v = value;
    for (int i = at + width - 1; i >= at; i--) {
      out[i] = (byte) ('0' + v % 10);
      v /= 10;
    }
  }

  /** Outcome of a strict check. */
  public enum Verdict {
    /** The text is a canonical instant. */
    CANONICAL,
    /** The text does not follow the canonical grammar (including its field ranges). */
    GRAMMAR,
    /** The text follows the grammar but names no real calendar instant (30 February). */
    NOT_REAL
  }

  /**
   * Parses a canonical instant strictly.
   *
   * @param text candidate text
   * @return the epoch milliseconds, or empty when {@link #classify} does not say canonical
   */
  public static OptionalLong parse(String text) {
    return classify(text) == Verdict.CANONICAL
        ? OptionalLong.of(epochOf(text))
        : OptionalLong.empty();
  }

  /**
   * Why a text is not a canonical instant.
   *
   * @param text candidate text
   * @return the verdict
   */
  public static Verdict classify(String text) {
    if (text.length() != 24
        || text.charAt(4) != '-'
        || text.charAt(7) != '-'
        || text.charAt(10) != 'T'
        || text.charAt(13) != ':'
        || text.charAt(16) != ':'
        || text.charAt(19) != '.'
        || text.charAt(23) != 'Z') {
      return Verdict.GRAMMAR;
    }
    int year = digits(text, 0, 4);
    int month = digits(text, 5, 2);
    int day = digits(text, 8, 2);
    int hour = digits(text, 11, 2);
    int minute = digits(text, 14, 2);
    int second = digits(text, 17, 2);
    int ms = digits(text, 20, 3);
    if (year < 1 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23
        || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) {
      return Verdict.GRAMMAR;
    }
    if (day > lengthOfMonth(year, month)) {
      return Verdict.NOT_REAL;
    }
    return Verdict.CANONICAL;
  }

  /**
   * The epoch value of a text {@link #classify} already called canonical, without re-checking.
   *
   * @param canonical a canonical instant text
   * @return epoch milliseconds
   */
  public static long epochOfCanonical(String canonical) {
    return epochOf(canonical);
  }

  private static long epochOf(String text) {
    // the hot path of decode: plain arithmetic, no java.time allocation per event
    long days = epochDay(digits(text, 0, 4), digits(text, 5, 2), digits(text, 8, 2));
    long seconds =
        days * 86_400L + digits(text, 11, 2) * 3600L + digits(text, 14, 2) * 60L + digits(text, 17, 2);
    return seconds * 1000L + digits(text, 20, 3);
  }

  /**
   * Days from 1970-01-01 to a proleptic-Gregorian date (the civil-from-days inverse).
   *
   * @param year the year
   * @param month 1–12
   * @param day 1–31
   * @return the epoch day
   */
  public static long epochDay(int year, int month, int day) {
    long y = month <= 2 ? year - 1L : year;
    long era = Math.floorDiv(y, 400L);
    long yoe = y - era * 400L;
    long doy = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146_097L + doe - 719_468L;
  }

  /**
   * The number of days in a proleptic-Gregorian month.
   *
   * @param year the year
   * @param month 1–12
   * @return 28–31
   */
  public static int lengthOfMonth(int year, int month) {
    if (month == 2) {
      boolean leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
      return leap ? 29 : 28;
    }
    return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
  }

  /**
   * Reads a fixed-width run of ASCII digits.
   *
   * @param s text
   * @param from first index
   * @param width number of digits
   * @return the value, or -1 when a character is not an ASCII digit
   */
  public static int digits(String s, int from, int width) {
    int v = 0;
    for (int i = from; i < from + width; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }
}

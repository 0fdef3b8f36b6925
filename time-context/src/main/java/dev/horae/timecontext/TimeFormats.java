package dev.horae.timecontext;

import dev.horae.spi.zone.ZoneResolver;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneRules;

/**
 * The two text formats of a reading (spec §8): the zoned timestamp and the compact duration.
 *
 * <p>Pure and thread-safe.
 */
public final class TimeFormats {

  private static final long SECONDS_PER_DAY = 86_400;

  private TimeFormats() {}

  /**
   * The compact duration text of spec §8.2: {@code 1d 1h 1m 1s}, {@code 1m 0s}, {@code 0s}. Days
   * are the largest unit; negative values read {@code 0s}.
   *
   * <p>Conformance function {@code timecontext.duration}.
   *
   * @param ms elapsed milliseconds, may be negative
   * @return the duration text
   */
  public static String duration(long ms) {
    long s = Math.max(0, ms) / 1000;
    long days = s / SECONDS_PER_DAY;
    long hours = s % SECONDS_PER_DAY / 3600;
    long minutes = s % 3600 / 60;
    long seconds = s % 60;
    StringBuilder out = new StringBuilder();
    if (days > 0) {
      out.append(days).append("d ");
    }
    if (hours > 0) {
      out.append(hours).append("h ");
    }
    if (minutes > 0) {
      out.append(minutes).append("m ");
    }
    return out.append(seconds).append('s').toString();
  }

  /**
   * The timestamp of spec §8.1, {@code YYYY-MM-DDTHH:mm:ss±HH:MM[label]}: local fields of the
   * instant truncated to whole seconds, a numeric offset that is never {@code Z}, and the zone's
   * canonical name as label.
   *
   * <p>Conformance function {@code timecontext.timestamp}.
   *
   * @param instant the sampled instant
   * @param zone a zone name known to {@link ZoneResolver#standard()} (any case, links allowed)
   * @return the timestamp text
   * @throws IllegalArgumentException when the zone is unknown or its rules cannot be loaded
   */
  public static String timestamp(Instant instant, String zone) {
    ZoneResolver resolver = ZoneResolver.standard();
    String label =
        resolver
            .canonicalName(zone)
            .orElseThrow(() -> new IllegalArgumentException("unknown time zone " + zone));
    ZoneRules rules =
        resolver
            .rules(label)
            .orElseThrow(() -> new IllegalArgumentException("time zone " + label + " has no usable rules"));
    return timestamp(instant, rules, label);
  }

  /**
   * The timestamp of spec §8.1 with rules and label already resolved (the plugin resolves them
   * once at load).
   *
   * @param instant the sampled instant
   * @param rules the zone's rules
   * @param label the label written between the brackets
   * @return the timestamp text
   */
  public static String timestamp(Instant instant, ZoneRules rules, String label) {
    // truncatedTo floors: Instant keeps non-negative nanos, so pre-1970 instants go to the past
    Instant whole = instant.truncatedTo(ChronoUnit.SECONDS);
    ZoneOffset offset = rules.getOffset(whole);
    LocalDateTime local = LocalDateTime.ofEpochSecond(whole.getEpochSecond(), 0, offset);
    StringBuilder out = new StringBuilder(48);
    int year = local.getYear();
    if (year >= 0 && year <= 9999) {
      pad(out, year, 4);
    } else {
      // outside four digits use the expanded ISO form, as ECMAScript's toISOString does
      out.append(year < 0 ? '-' : '+');
      pad(out, Math.abs(year), 6);
    }
    out.append('-');
    pad(out, local.getMonthValue(), 2);
    out.append('-');
    pad(out, local.getDayOfMonth(), 2);
    out.append('T');
    pad(out, local.getHour(), 2);
    out.append(':');
    pad(out, local.getMinute(), 2);
    out.append(':');
    pad(out, local.getSecond(), 2);
    appendOffset(out, offset.getTotalSeconds());
    return out.append('[').append(label).append(']').toString();
  }

  private static void appendOffset(StringBuilder out, int totalSeconds) {
    out.append(totalSeconds < 0 ? '-' : '+');
    int abs = Math.abs(totalSeconds);
    pad(out, abs / 3600, 2);
    out.append(':');
    pad(out, abs / 60 % 60, 2);
    if (abs % 60 != 0) {
      out.append(':');
      pad(out, abs % 60, 2);
    }
  }

  private static void pad(StringBuilder out, int value, int width) {
    String digits = Integer.toString(value);
    for (int i = digits.length(); i < width; i++) {
      out.append('0');
    }
    out.append(digits);
  }
}

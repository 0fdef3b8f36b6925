package dev.horae.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.schedule.internal.UtcInstants;
import java.time.LocalDate;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Spec §3.3, §16.7: the canonical instant's format, parse and calendar arithmetic. */
class UtcInstantsTest {

  @Test
  void formatsEdgesWithFourDigitYearsAndThreeFractionDigits() {
    assertThat(UtcInstants.format(UtcInstants.MIN_MILLIS)).isEqualTo("0001-01-01T00:00:00.000Z");
    assertThat(UtcInstants.format(UtcInstants.MAX_MILLIS)).isEqualTo("9999-12-31T23:59:59.999Z");
    assertThat(UtcInstants.format(-1)).isEqualTo("1969-12-31T23:59:59.999Z");
    assertThat(UtcInstants.format(0)).isEqualTo("1970-01-01T00:00:00.000Z");
  }

  @Test
  void parseAndFormatAgreeWithJavaTimeAcrossTheRange() {
    Random rnd = new Random(99);
    for (int i = 0; i < 20_000; i++) {
      long ms = UtcInstants.MIN_MILLIS
          + (long) (rnd.nextDouble() * (UtcInstants.MAX_MILLIS - UtcInstants.MIN_MILLIS));
      String text = UtcInstants.format(ms);
      assertThat(UtcInstants.parse(text)).hasValue(ms);
      if (i % 100 == 0) {
        assertThat(java.time.Instant.ofEpochMilli(ms).toString()).startsWith(text.substring(0, 19));
      }
    }
  }

  @Test
  void formatEqualsJavaTimeExactlyAtRandomAndAtEveryMonthBoundary() {
    java.time.format.DateTimeFormatter iso =
        java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(java.time.ZoneOffset.UTC);
    Random rnd = new Random(2026);
    for (int i = 0; i < 50_000; i++) {
      long ms = UtcInstants.MIN_MILLIS
          + (long) (rnd.nextDouble() * (UtcInstants.MAX_MILLIS - UtcInstants.MIN_MILLIS));
      assertThat(UtcInstants.format(ms)).isEqualTo(iso.format(java.time.Instant.ofEpochMilli(ms)));
    }
    // the last and first millisecond of every month boundary, leap days and era edges included
    for (int year = 1; year <= 9999; year += (year < 2100 && year > 1580) ? 1 : 37) {
      for (int month = 1; month <= 12; month++) {
        long start = LocalDate.of(year, month, 1).toEpochDay() * 86_400_000L;
        for (long ms : new long[] {start - 1, start, start + 86_399_999L}) {
          if (UtcInstants.inRange(ms)) {
            assertThat(UtcInstants.format(ms))
                .isEqualTo(iso.format(java.time.Instant.ofEpochMilli(ms)));
          }
        }
      }
    }
  }

  @Test
  void calendarArithmeticMatchesLocalDate() {
    for (int year : new int[] {1, 4, 100, 400, 1582, 1900, 1969, 1970, 2000, 2024, 2100, 9999}) {
      for (int month = 1; month <= 12; month++) {
        LocalDate first = LocalDate.of(year, month, 1);
        assertThat(UtcInstants.lengthOfMonth(year, month)).isEqualTo(first.lengthOfMonth());
        assertThat(UtcInstants.epochDay(year, month, 1)).isEqualTo(first.toEpochDay());
      }
    }
  }
}

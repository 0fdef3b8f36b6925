package dev.horae.timecontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class TimeFormatsTest {

  @ParameterizedTest
  @CsvSource({
    "0, 0s",
    "999, 0s",
    "1000, 1s",
    "59999, 59s",
    "60000, 1m 0s",
    "61000, 1m 1s",
    "3600000, 1h 0s",
    "3723000, 1h 2m 3s",
    "86400000, 1d 0s",
    "86460000, 1d 1m 0s",
    "90061000, 1d 1h 1m 1s",
    "172803000, 2d 3s",
    "2678400000, 31d 0s",
    "-5000, 0s",
    "-9223372036854775808, 0s",
    "9223372036854775807, 106751991167d 7h 12m 55s"
  })
  void durationsFollowTheSpecTable(long ms, String text) {
    assertThat(TimeFormats.duration(ms)).isEqualTo(text);
  }

  @ParameterizedTest
  @CsvSource({
    "2026-07-14T00:00:00Z, UTC, 2026-07-14T00:00:00+00:00[UTC]",
    "2026-07-14T00:00:00Z, Etc/UTC, 2026-07-14T00:00:00+00:00[UTC]",
    "2026-07-14T00:00:00Z, US/Eastern, 2026-07-13T20:00:00-04:00[America/New_York]",
    "2026-07-14T00:00:00Z, asia/shanghai, 2026-07-14T08:00:00+08:00[Asia/Shanghai]",
    "2026-07-14T00:00:00Z, Australia/Lord_Howe, 2026-07-14T10:30:00+10:30[Australia/Lord_Howe]",
    "2026-11-01T05:30:00Z, America/New_York, 2026-11-01T01:30:00-04:00[America/New_York]",
    "2026-11-01T06:30:00Z, America/New_York, 2026-11-01T01:30:00-05:00[America/New_York]",
    "2026-07-14T00:00:00.999Z, Europe/London, 2026-07-14T01:00:00+01:00[Europe/London]",
    "1969-12-31T23:59:59.500Z, UTC, 1969-12-31T23:59:59+00:00[UTC]",
    "2026-07-14T00:00:00Z, Etc/GMT+5, 2026-07-13T19:00:00-05:00[Etc/GMT+5]",
    "0001-01-01T00:00:00Z, UTC, 0001-01-01T00:00:00+00:00[UTC]"
  })
  void timestampsUseLocalFieldsNumericOffsetAndCanonicalLabel(String instant, String zone, String text) {
    assertThat(TimeFormats.timestamp(Instant.parse(instant), zone)).isEqualTo(text);
  }

  @Test
  void localMeanTimeOffsetsKeepTheirSeconds() {
    // New York kept local mean time, UTC-04:56:02, until 1883
    assertThat(TimeFormats.timestamp(Instant.parse("1800-01-01T12:00:00Z"), "America/New_York"))
        .isEqualTo("1800-01-01T07:03:58-04:56:02[America/New_York]");
  }

  @Test
  void yearsOutsideFourDigitsUseTheExpandedForm() {
    assertThat(TimeFormats.timestamp(Instant.parse("+10000-01-01T00:00:00Z"), "UTC"))
        .isEqualTo("+010000-01-01T00:00:00+00:00[UTC]");
    assertThat(TimeFormats.timestamp(Instant.parse("-0001-01-01T00:00:00Z"), "UTC"))
        .isEqualTo("-000001-01-01T00:00:00+00:00[UTC]");
  }

  @Test
  void unknownZonesAreRejected() {
    assertThatThrownBy(() -> TimeFormats.timestamp(Instant.EPOCH, "Mars/Olympus"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Mars/Olympus");
  }
}

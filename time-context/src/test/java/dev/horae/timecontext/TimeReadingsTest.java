package dev.horae.timecontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.zone.ClientZoneException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimeReadingsTest {

  private static final long T0 = Instant.parse("2026-07-14T00:00:00Z").toEpochMilli();
  private static final TimeContextConfig.Resolved SHANGHAI = new TimeContextConfig.Resolved("Asia/Shanghai", 0, false);
  private static final TimeContextConfig.Resolved UTC = new TimeContextConfig.Resolved("UTC", 0, false);
  private static final TimeContextConfig.Resolved UTC_GUIDED = new TimeContextConfig.Resolved("UTC", 0, true);

  @Test
  void theDefaultReadingIsTwoLinesInTheFallbackZone() {
    var log = Logs.log().turnStart(1, T0).prompt("turn 1", "r1", "America/New_York", T0).events();
    long now = Instant.parse("2026-07-15T01:01:01Z").toEpochMilli();
    assertThat(TimeReadings.reading(SHANGHAI, log, 1, 1, now, List.of()))
        .hasValue(
            "Time sampled while preparing turn 1, step 1: 2026-07-15T09:01:01+08:00[Asia/Shanghai]\n"
                + "Elapsed since the preceding model-visible message: 1d 1h 1m 1s.");
  }

  @Test
  void laterStepsUseTheStepContextLabel() {
    var log = Logs.log().turnStart(3, T0).user("turn 3", T0).reading("r", T0).events();
    assertThat(TimeReadings.reading(UTC, log, 3, 2, T0 + 61_000, List.of()))
        .hasValue(
            "Time sampled while preparing turn 3, step 2: 2026-07-14T00:01:01+00:00[UTC]\n"
                + "Elapsed since the preceding step context: 1m 1s.");
  }

  @Test
  void aBackwardClockClampsElapsedToZero() {
    var log = Logs.log().turnStart(1, T0).user("hi", T0).events();
    assertThat(TimeReadings.reading(UTC, log, 1, 1, T0 - 5_000, List.of()).orElseThrow())
        .endsWith("message: 0s.")
        .contains("2026-07-13T23:59:55+00:00[UTC]");
  }

  @Test
  void aMalformedClientZoneNeverFailsTheTwoLineForm() {
    var log = Logs.log().turnStart(1, T0).prompt("p", "r", "+08:00", T0).events();
    List<JsonNode> proposal = List.of(Logs.message("x", Logs.prompt("r2", "Not/A_Zone")));
    assertThat(TimeReadings.reading(UTC, log, 1, 1, T0, proposal)).isPresent();
    assertThatThrownBy(() -> TimeReadings.reading(UTC_GUIDED, log, 1, 1, T0, List.of()))
        .isInstanceOf(ClientZoneException.class)
        .hasMessage("browser time zone must be canonical UTC or IANA Area/Location: \"+08:00\"");
  }

  @Test
  void theThreeLineFormReadsTheProposalAndUsesTheResolvedZone() {
    var log = Logs.log().turnStart(1, T0).events();
    List<JsonNode> proposal = List.of(Logs.message("x", Logs.prompt("r1", "America/New_York")));
    assertThat(TimeReadings.reading(UTC_GUIDED, log, 1, 1, T0, proposal))
        .hasValue(
            """
            Time sampled while preparing turn 1, step 1: 2026-07-13T20:00:00-04:00[America/New_York]
            Browser time zone for this request: America/New_York. Interpret otherwise-unqualified dates and times in this zone.
            Elapsed since the preceding model-visible message: unavailable.\
            """);
  }

  @Test
  void aPositiveIntervalSkipsUntilItHasElapsed() {
    TimeContextConfig.Resolved gated = new TimeContextConfig.Resolved("UTC", 60_000, false);
    var log = Logs.log().turnStart(1, T0).user("hi", T0).reading("r", T0).events();
    assertThat(TimeReadings.reading(gated, log, 1, 2, T0 + 59_999, List.of())).isEmpty();
    assertThat(TimeReadings.reading(gated, log, 1, 2, T0 + 60_000, List.of())).isPresent();
  }
}

package dev.horae.timecontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TimeContextConfigTest {

  private static final String INTERVAL = "time-context: refreshIntervalMs must be a non-negative safe integer, got ";

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"refreshIntervalMs\":-1}|-1",
        "{\"refreshIntervalMs\":0.5}|0.5",
        "{\"refreshIntervalMs\":9007199254740992}|9007199254740992",
        "{\"refreshIntervalMs\":1e21}|1e+21",
        "{\"refreshIntervalMs\":1.5e-7}|1.5e-7",
        "{\"refreshIntervalMs\":\"60000\"}|\"60000\"",
        "{\"refreshIntervalMs\":[1]}|[1]",
        "{\"refreshIntervalMs\":true}|true"
      })
  void badIntervalsAreReportedWithTheirEcmaScriptText(String config, String got) {
    assertThatThrownBy(() -> TimeContextConfig.validate(Json.parse(config), Optional.of("UTC")))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage(INTERVAL + got);
  }

  @Test
  void nonFiniteIntervalsAreReportedByName() {
    for (double d : new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN}) {
      ObjectNode config = Json.mapper().createObjectNode();
      config.set("refreshIntervalMs", DoubleNode.valueOf(d));
      String name = Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
      assertThatThrownBy(() -> TimeContextConfig.validate(config, Optional.of("UTC")))
          .hasMessage(INTERVAL + name);
    }
  }

  @Test
  void integralValuesInAnyJsonSpellingAreAccepted() {
    assertThat(TimeContextConfig.validate(Json.parse("{\"refreshIntervalMs\":1e3}"), Optional.of("UTC")).refreshIntervalMs())
        .isEqualTo(1000);
    assertThat(TimeContextConfig.validate(Json.parse("{\"refreshIntervalMs\":60000.0}"), Optional.of("UTC")).refreshIntervalMs())
        .isEqualTo(60000);
    assertThat(TimeContextConfig.validate(Json.parse("{\"refreshIntervalMs\":-0}"), Optional.of("UTC")).refreshIntervalMs())
        .isZero();
  }

  @Test
  void theIntervalIsCheckedBeforeGuidanceAndGuidanceBeforeTheZone() {
    JsonNode all = Json.parse("{\"timeZone\":\"Mars/Olympus\",\"clientZoneGuidance\":1,\"refreshIntervalMs\":-1}");
    assertThatThrownBy(() -> TimeContextConfig.validate(all, Optional.empty())).hasMessage(INTERVAL + "-1");
    JsonNode two = Json.parse("{\"timeZone\":\"Mars/Olympus\",\"clientZoneGuidance\":\"yes\"}");
    assertThatThrownBy(() -> TimeContextConfig.validate(two, Optional.empty()))
        .hasMessage("time-context: clientZoneGuidance must be a boolean, got \"yes\"");
  }

  @Test
  void zonesAreCanonicalizedAndUnknownOrNonStringZonesRejected() {
    assertThat(TimeContextConfig.validate(Json.parse("{\"timeZone\":\"US/Eastern\"}"), Optional.empty()).timeZone())
        .isEqualTo("America/New_York");
    assertThat(TimeContextConfig.validate(Json.parse("{\"timeZone\":\"etc/utc\"}"), Optional.empty()).timeZone())
        .isEqualTo("UTC");
    assertThatThrownBy(() -> TimeContextConfig.validate(Json.parse("{\"timeZone\":\"Not/A_Real_Zone\"}"), Optional.of("UTC")))
        .hasMessage("time-context: invalid IANA timeZone \"Not/A_Real_Zone\"");
    assertThatThrownBy(() -> TimeContextConfig.validate(Json.parse("{\"timeZone\":\"a\\\"b\\u0001\"}"), Optional.of("UTC")))
        .hasMessage("time-context: invalid IANA timeZone \"a\\\"b\\u0001\"");
    assertThatThrownBy(() -> TimeContextConfig.validate(Json.parse("{\"timeZone\":8}"), Optional.of("UTC")))
        .hasMessage("time-context: invalid IANA timeZone 8");
  }

  @Test
  void theProcessZoneIsUsedOnlyWithoutTimeZone() {
    assertThat(TimeContextConfig.validate(Json.parse("{}"), Optional.of("Asia/Calcutta")).timeZone())
        .isEqualTo("Asia/Kolkata");
    assertThat(TimeContextConfig.validate(Json.parse("{\"timeZone\":\"UTC\"}"), Optional.empty()).timeZone())
        .isEqualTo("UTC");
    assertThatThrownBy(() -> TimeContextConfig.validate(Json.parse("{}"), Optional.empty()))
        .hasMessage("time-context: failed to resolve the system time zone");
    assertThatThrownBy(() -> TimeContextConfig.validate(Json.parse("{}"), Optional.of("Mars/Olympus")))
        .hasMessage("time-context: failed to resolve the system time zone");
  }

  @Test
  void processZoneIdsFollowTheJavaNotes() {
    assertThat(TimeContextConfig.validate(Json.parse("{}"), ZoneOffset.UTC).timeZone()).isEqualTo("UTC");
    assertThat(TimeContextConfig.validate(Json.parse("{}"), ZoneId.of("GMT")).timeZone()).isEqualTo("UTC");
    assertThat(TimeContextConfig.validate(Json.parse("{}"), ZoneId.of("Europe/Kiev")).timeZone()).isEqualTo("Europe/Kyiv");
    assertThatThrownBy(() -> TimeContextConfig.validate(Json.parse("{}"), ZoneOffset.ofHours(8)))
        .hasMessage("time-context: failed to resolve the system time zone");
  }

  @Test
  void nullMembersCountAsAbsent() {
    assertThat(
            TimeContextConfig.validate(
                Json.parse("{\"timeZone\":null,\"refreshIntervalMs\":null,\"clientZoneGuidance\":null}"),
                Optional.of("Asia/Shanghai")))
        .isEqualTo(new TimeContextConfig("Asia/Shanghai", 0, false));
  }

  @Test
  void defaultsAndUnknownKeys() {
    TimeContextConfig c = TimeContextConfig.validate(Json.parse("{\"other\":1,\"clientZoneGuidance\":true}"), Optional.of("UTC"));
    assertThat(c).isEqualTo(new TimeContextConfig("UTC", 0, true));
    assertThat(c.toJson().toString()).isEqualTo("{\"timeZone\":\"UTC\",\"refreshIntervalMs\":0,\"clientZoneGuidance\":true}");
    assertThat(TimeContextConfig.validate(Json.mapper().nullNode(), Optional.of("UTC"))).isEqualTo(new TimeContextConfig("UTC", 0, false));
  }

  @Test
  void normalizedConfigsRejectNonCanonicalZonesAndBadIntervals() {
    assertThatThrownBy(() -> new TimeContextConfig("US/Eastern", 0, false)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TimeContextConfig("UTC", -1, false)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TimeContextConfig("UTC", 1L << 53, false)).isInstanceOf(IllegalArgumentException.class);
  }
}

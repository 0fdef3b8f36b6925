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
        .isEqualTo(new TimeContextConfig.Resolved("Asia/Shanghai", 0, false));
  }

  @Test
  void defaultsAndUnknownKeys() {
    TimeContextConfig.Resolved c = TimeContextConfig.validate(Json.parse("{\"other\":1,\"clientZoneGuidance\":true}"), Optional.of("UTC"));
    assertThat(c).isEqualTo(new TimeContextConfig.Resolved("UTC", 0, true));
    assertThat(c.toJson().toString()).isEqualTo("{\"timeZone\":\"UTC\",\"refreshIntervalMs\":0,\"clientZoneGuidance\":true}");
    assertThat(TimeContextConfig.validate(Json.mapper().nullNode(), Optional.of("UTC"))).isEqualTo(new TimeContextConfig.Resolved("UTC", 0, false));
  }

  @Test
  void normalizedConfigsRejectNonCanonicalZonesAndBadIntervals() {
    assertThatThrownBy(() -> new TimeContextConfig.Resolved("US/Eastern", 0, false)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TimeContextConfig.Resolved("UTC", -1, false)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TimeContextConfig.Resolved("UTC", 1L << 53, false)).isInstanceOf(IllegalArgumentException.class);
  }

  // ---- the typed configuration -----------------------------------------------------------------

  @Test
  void theDefaultsMeanTheProcessZoneEveryStepAndTwoLines() {
    TimeContextConfig defaults = TimeContextConfig.defaults();
    assertThat(defaults).isEqualTo(TimeContextConfig.builder().build());
    assertThat(defaults.timeZone()).isEmpty();
    assertThat(defaults.refreshIntervalMs()).isZero();
    assertThat(defaults.clientZoneGuidance()).isFalse();
    assertThat(defaults.resolve(ZoneId.of("Asia/Shanghai"))).isEqualTo(new TimeContextConfig.Resolved("Asia/Shanghai", 0, false));
    assertThat(TimeContextConfig.fromJson(Json.parse("{}"))).isEqualTo(defaults);
  }

  @Test
  void theBuilderValidatesEachSettingWithTheLoadTimeMessage() {
    assertThat(TimeContextConfig.builder().timeZone("us/eastern").build().timeZone()).contains("America/New_York");
    assertThatThrownBy(() -> TimeContextConfig.builder().timeZone("Mars/Base").build())
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("time-context: invalid IANA timeZone \"Mars/Base\"");
    assertThatThrownBy(() -> TimeContextConfig.builder().refreshIntervalMs(-1).build())
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage(INTERVAL + "-1");
    assertThatThrownBy(() -> TimeContextConfig.builder().refreshIntervalMs(1L << 53).build())
        .hasMessage(INTERVAL + "9007199254740992");
    assertThat(TimeContextConfig.builder().refreshIntervalMs((1L << 53) - 1).build().refreshIntervalMs()).isEqualTo((1L << 53) - 1);
    assertThatThrownBy(() -> new TimeContextConfig(Optional.of("Mars/Base"), 0, false)).hasMessage("time-context: invalid IANA timeZone \"Mars/Base\"");
  }

  @Test
  void theIntervalIsCheckedBeforeTheZoneOnTheBuilderToo() {
    assertThatThrownBy(() -> TimeContextConfig.builder().timeZone("Mars/Base").refreshIntervalMs(-1).build()).hasMessage(INTERVAL + "-1");
  }

  @Test
  void aSettingGivenTwiceIsRefused() {
    assertThatThrownBy(() -> TimeContextConfig.builder().timeZone("UTC").timeZone("Asia/Shanghai"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("timeZone was already set for this time-context configuration");
    assertThatThrownBy(() -> TimeContextConfig.builder().refreshIntervalMs(1).refreshIntervalMs(1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("refreshIntervalMs was already set for this time-context configuration");
    assertThatThrownBy(() -> TimeContextConfig.builder().clientZoneGuidance(true).clientZoneGuidance(false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("clientZoneGuidance was already set for this time-context configuration");
  }

  @Test
  void fromJsonMakesWhatTheBuilderMakes() {
    TimeContextConfig built = TimeContextConfig.builder().timeZone("US/Eastern").refreshIntervalMs(60_000).clientZoneGuidance(true).build();
    TimeContextConfig read = TimeContextConfig.fromJson(
        Json.parse("{\"timeZone\":\"US/Eastern\",\"refreshIntervalMs\":60000,\"clientZoneGuidance\":true}"));
    assertThat(read).isEqualTo(built);
    assertThat(TimeContextConfig.fromJson(built.toJson())).isEqualTo(built);
    assertThat(built.toJson().toString()).isEqualTo("{\"timeZone\":\"America/New_York\",\"refreshIntervalMs\":60000,\"clientZoneGuidance\":true}");
    assertThat(TimeContextConfig.fromJson(TimeContextConfig.defaults().toJson())).isEqualTo(TimeContextConfig.defaults());
  }

  @Test
  void theProcessZoneIsReadOnlyWhenNoZoneIsConfigured() {
    int[] reads = {0};
    TimeContextConfig.Resolved r = TimeContextConfig.builder().timeZone("UTC").build().resolve(() -> {
      reads[0]++;
      return Optional.of("Asia/Shanghai");
    });
    assertThat(r.timeZone()).isEqualTo("UTC");
    assertThat(reads[0]).isZero();
    assertThatThrownBy(() -> TimeContextConfig.defaults().resolve(ZoneOffset.ofHours(8)))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("time-context: failed to resolve the system time zone");
  }
}

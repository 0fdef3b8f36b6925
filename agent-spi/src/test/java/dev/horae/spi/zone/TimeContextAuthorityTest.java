package dev.horae.spi.zone;

import static dev.horae.spi.zone.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The time-context authority derived from the raw log (time-context spec §10). */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class TimeContextAuthorityTest {

  private static final Optional<String> SHANGHAI = Optional.of("Asia/Shanghai");

  private static Logs openStep(String... zones) {
    Logs log = log().turnStart(1).turnEnd(1).turnStart(2);
    for (String zone : zones) {
      log.prompt(zone);
    }
    return log.stepStart(2, 1);
  }

  private static Optional<TimeContextAuthority> of(Logs log, Optional<String> header) {
    return TimeContextAuthority.of(log.events(), header);
  }

  @Test
  void anExactReadingInTheOpenStepGivesTheAuthority() {
    assertThat(of(openStep("Asia/Shanghai").reading(), SHANGHAI))
        .hasValue(new TimeContextAuthority(2, 1, SHANGHAI, List.of("Asia/Shanghai")));
    assertThat(of(openStep("Asia/Shanghai").reading(), SHANGHAI).orElseThrow().resolvedClientZone())
        .hasValue("Asia/Shanghai");
  }

  @Test
  void mixedAndMissingClientZonesAndHeaderlessSessions() {
    TimeContextAuthority mixed = of(openStep("Asia/Shanghai", "America/New_York", "Asia/Shanghai").reading(),
        Optional.empty()).orElseThrow();
    assertThat(mixed).isEqualTo(
        new TimeContextAuthority(2, 1, Optional.empty(), List.of("America/New_York", "Asia/Shanghai")));
    assertThat(mixed.resolvedClientZone()).isEmpty();
    assertThat(of(openStep().reading(), Optional.of("UTC")).orElseThrow().clientZones()).isEmpty();
  }

  @Test
  void aFailedDerivationCountsAsMissing() {
    assertThat(of(openStep("Asia/Calcutta").reading(), Optional.of("Asia/Kolkata")).orElseThrow().clientZones())
        .isEmpty();
    assertThat(of(openStep("Asia/Shanghai", "asia/shanghai").reading(), SHANGHAI).orElseThrow().clientZones())
        .isEmpty();
  }

  @Test
  void noOpenStepMeansNoAuthority() {
    assertThat(of(openStep().reading().stepEnd(2, 1), SHANGHAI)).isEmpty();
    assertThat(of(openStep().reading().turnEnd(2), SHANGHAI)).isEmpty();
    assertThat(of(openStep().reading().turnStart(3), SHANGHAI)).isEmpty();
    assertThat(of(log(), SHANGHAI)).isEmpty();
  }

  @Test
  void aStepStartWithoutSafeIntegersOpensNoStep() {
    Logs log = log().turnStart(1).prompt("Asia/Shanghai")
        .event(EventTypes.STEP_START, Json.parse("{\"turn\":1.5,\"step\":1}")).reading();
    assertThat(of(log, SHANGHAI)).isEmpty();
    Logs noStep = log().turnStart(1).prompt("Asia/Shanghai")
        .event(EventTypes.STEP_START, Json.parse("{\"turn\":1}")).reading();
    assertThat(of(noStep, SHANGHAI)).isEmpty();
    // 1.0 is the integer 1, as a JSON reader that reads doubles sees it
    Logs doubles = log().turnStart(1).prompt("Asia/Shanghai")
        .event(EventTypes.STEP_START, Json.parse("{\"turn\":1.0,\"step\":1e0}")).reading();
    assertThat(of(doubles, SHANGHAI)).hasValue(new TimeContextAuthority(1, 1, SHANGHAI, List.of("Asia/Shanghai")));
  }

  @Test
  void onlyTheOpenStepsReadingCountsButTheWholeTurnsPromptsDo() {
    assertThat(of(openStep("UTC").reading().stepEnd(2, 1).stepStart(2, 2), SHANGHAI)).isEmpty();
    assertThat(of(openStep("UTC").stepEnd(2, 1).stepStart(2, 2).reading(), SHANGHAI).orElseThrow().clientZones())
        .containsExactly("UTC");
    assertThat(of(log().turnStart(1).stepStart(1, 1).prompt("America/New_York").stepEnd(1, 1)
        .turnStart(2).stepStart(2, 1).prompt("Asia/Shanghai").reading(), SHANGHAI).orElseThrow().clientZones())
        .containsExactly("Asia/Shanghai");
  }

  @Test
  void aStepWithoutItsTurnStartHasNoClientZones() {
    assertThat(of(log().prompt("UTC").stepStart(9, 1).reading(), Optional.of("UTC")).orElseThrow().clientZones())
        .isEmpty();
  }

  @Test
  void theSnapshotShapeIsExact() {
    String ok = Logs.READING;
    assertThat(TimeContextAuthority.isReading(Json.parse(ok))).isTrue();
    String[] broken = {
      ok.replace("\"form\":\"snapshot\",", ""),
      ok.replace("\"form\":\"snapshot\"", "\"form\":\"snapshot\",\"x\":1"),
      ok.replace("[{\"name\"", "[{\"extra\":true,\"name\""),
      ok.replace("[{\"type\":\"text\",\"text\":\"t\"}]", "[{\"type\":\"text\",\"text\":\"u\"}]"),
      ok.replace("[{\"type\":\"text\",\"text\":\"t\"}]", "[{\"type\":\"text\",\"text\":\"t\",\"x\":1}]"),
      ok.replace("[{\"type\":\"text\",\"text\":\"t\"}]", "[7]"),
      ok.replace("\"text\":\"t\"}]}}", "\"text\":7}]}}"),
      ok.replace("[{\"name\":\"time-context\",\"text\":\"t\"}]", "{\"0\":{\"name\":\"time-context\",\"text\":\"t\"},\"length\":1}"),
      ok.replace("\"plugin\":\"time-context\"", "\"plugin\":\"tool-schedule\""),
      ok.replace("\"name\":\"time-context\"", "\"name\":\"other\""),
    };
    for (String b : broken) {
      assertThat(TimeContextAuthority.isReading(Json.parse(b))).as(b).isFalse();
      assertThat(of(openStep("Asia/Shanghai").event(EventTypes.USER_MESSAGE, Json.parse(b)), SHANGHAI)).as(b).isEmpty();
    }
  }

  @Test
  void aSuffixDecidesWhenItHoldsTheStepAndItsTurnStart() {
    List<SessionEvent> events = log().turnStart(1).stepStart(1, 1).prompt("America/New_York").stepEnd(1, 1)
        .turnStart(2).stepStart(2, 1).prompt("Asia/Shanghai").reading().events();
    for (int from = 0; from <= events.size(); from++) {
      List<SessionEvent> suffix = events.subList(from, events.size());
      if (TimeContextAuthority.decidableWithin(suffix)) {
        assertThat(TimeContextAuthority.of(suffix, SHANGHAI)).as("from %d", from)
            .isEqualTo(TimeContextAuthority.of(events, SHANGHAI));
      }
    }
    assertThat(TimeContextAuthority.decidableWithin(events.subList(4, events.size()))).isTrue();
    assertThat(TimeContextAuthority.decidableWithin(events.subList(5, events.size()))).isFalse();
    assertThat(TimeContextAuthority.decidableWithin(log().stepStart(1, 1).events())).isFalse();
    assertThat(TimeContextAuthority.decidableWithin(log().turnStart(1).stepStart(1, 1).stepEnd(1, 1).events()))
        .isTrue();
    assertThat(TimeContextAuthority.decidableWithin(
        log().event(EventTypes.STEP_START, Json.parse("{\"turn\":\"1\",\"step\":1}")).events())).isTrue();
    assertThat(TimeContextAuthority.decidableWithin(List.of())).isFalse();
  }
}

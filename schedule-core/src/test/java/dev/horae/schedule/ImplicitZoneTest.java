package dev.horae.schedule;

import static dev.horae.schedule.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Spec §6.8.2–§6.8.3: the implicit zone derived from the durable log. */
class ImplicitZoneTest {

  private static ZoneAuthority derive(Logs l, String header) {
    return ImplicitZone.derive(l.events(), Optional.of(header));
  }

  private static ZoneAuthority headerless(Logs l) {
    return ImplicitZone.derive(l.events(), Optional.empty());
  }

  private static ZoneAuthority unconfirmed(String session, String... clients) {
    return new ZoneAuthority.Unconfirmed(session, List.of(clients));
  }

  @Test
  void confirmedWhenTheStepHasAReadingAndTheTurnOneMatchingZone() {
    assertThat(derive(log().turnStart(1).stepStart(1, 1).prompt("Asia/Shanghai").reading(), "Asia/Shanghai"))
        .isEqualTo(new ZoneAuthority.Confirmed("Asia/Shanghai"));
  }

  @Test
  void sessionZoneIsComparedThroughLinks() {
    assertThat(derive(log().turnStart(1).stepStart(1, 1).prompt("America/New_York").reading(), "US/Eastern"))
        .isEqualTo(new ZoneAuthority.Confirmed("America/New_York"));
  }

  @Test
  void headerlessMismatchMixedAndMissing() {
    assertThat(headerless(log().turnStart(1).stepStart(1, 1).prompt("Asia/Shanghai").reading()))
        .isEqualTo(unconfirmed("unavailable", "Asia/Shanghai"));
    assertThat(derive(log().turnStart(1).stepStart(1, 1).prompt("America/New_York").reading(), "Asia/Shanghai"))
        .isEqualTo(unconfirmed("Asia/Shanghai", "America/New_York"));
    assertThat(derive(log().turnStart(1).stepStart(1, 1).prompt("Asia/Shanghai").prompt("America/New_York")
        .reading(), "Asia/Shanghai"))
        .isEqualTo(unconfirmed("Asia/Shanghai", "America/New_York", "Asia/Shanghai"));
    assertThat(derive(log().turnStart(2).stepStart(2, 1).reading(), "Asia/Shanghai"))
        .isEqualTo(unconfirmed("Asia/Shanghai"));
  }

  @Test
  void aNonCanonicalRecordedZoneMakesTheClientAuthorityMissing() {
    assertThat(derive(log().turnStart(1).stepStart(1, 1).prompt("Asia/Calcutta").reading(), "Asia/Kolkata"))
        .isEqualTo(unconfirmed("Asia/Kolkata"));
    assertThat(derive(log().turnStart(1).stepStart(1, 1).prompt("Asia/Shanghai").prompt("asia/shanghai")
        .reading(), "Asia/Shanghai"))
        .isEqualTo(unconfirmed("Asia/Shanghai"));
    assertThat(derive(log().turnStart(1).stepStart(1, 1).prompt("CST").reading(), "Asia/Shanghai"))
        .isEqualTo(unconfirmed("Asia/Shanghai"));
  }

  @Test
  void onlyTheCurrentStepsReadingCounts() {
    assertThat(derive(log().turnStart(1).stepStart(1, 1).prompt("Asia/Shanghai"), "Asia/Shanghai"))
        .isEqualTo(unconfirmed("Asia/Shanghai"));
    assertThat(derive(log().turnStart(1).stepStart(1, 1).prompt("Asia/Shanghai").reading().stepEnd(1, 1)
        .stepStart(1, 2), "Asia/Shanghai"))
        .isEqualTo(unconfirmed("Asia/Shanghai"));
    // step 2 with its own reading: the turn's prompt of step 1 still counts
    assertThat(derive(log().turnStart(1).stepStart(1, 1).prompt("Asia/Shanghai").stepEnd(1, 1)
        .stepStart(1, 2).reading(), "Asia/Shanghai"))
        .isEqualTo(new ZoneAuthority.Confirmed("Asia/Shanghai"));
  }

  @Test
  void noOpenStepMeansNoAuthority() {
    assertThat(derive(log(), "Asia/Shanghai")).isEqualTo(unconfirmed("Asia/Shanghai"));
    assertThat(derive(log().turnStart(1).stepStart(1, 1).prompt("Asia/Shanghai").reading().stepEnd(1, 1),
        "Asia/Shanghai")).isEqualTo(unconfirmed("Asia/Shanghai"));
    assertThat(derive(log().turnStart(1), "Asia/Shanghai")).isEqualTo(unconfirmed("Asia/Shanghai"));
    // an open step without its turn/start has no client zones
    assertThat(derive(log().stepStart(1, 1).prompt("Asia/Shanghai").reading(), "Asia/Shanghai"))
        .isEqualTo(unconfirmed("Asia/Shanghai"));
  }

  @Test
  void clientZonesOfEarlierTurnsDoNotCount() {
    assertThat(derive(log().turnStart(1).stepStart(1, 1).prompt("America/New_York").stepEnd(1, 1)
        .turnStart(2).stepStart(2, 1).prompt("Asia/Shanghai").reading(), "Asia/Shanghai"))
        .isEqualTo(new ZoneAuthority.Confirmed("Asia/Shanghai"));
  }

  @Test
  void snapshotShapeIsExact() {
    Logs base = log().turnStart(1).stepStart(1, 1).prompt("Asia/Shanghai");
    String ok = "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"t\"}],\"source\":{\"kind\":\"plugin\","
        + "\"plugin\":\"time-context\",\"form\":\"snapshot\",\"sections\":[{\"name\":\"time-context\",\"text\":\"t\"}]}}";
    assertThat(ImplicitZone.isSnapshotReading(Logs.json(ok))).isTrue();
    String[] broken = {
      ok.replace("\"form\":\"snapshot\",", ""),
      ok.replace("\"form\":\"snapshot\"", "\"form\":\"snapshot\",\"x\":1"),
      ok.replace("[{\"name\"", "[{\"extra\":true,\"name\""),
      ok.replace("[{\"type\":\"text\",\"text\":\"t\"}]", "[{\"type\":\"text\",\"text\":\"u\"}]"),
      ok.replace("[{\"type\":\"text\",\"text\":\"t\"}]", "[7]"),
      ok.replace("\"text\":\"t\"}]}}", "\"text\":7}]}}"),
      ok.replace("[{\"name\":\"time-context\",\"text\":\"t\"}]", "{\"0\":{\"name\":\"time-context\",\"text\":\"t\"},\"length\":1}"),
      ok.replace("\"plugin\":\"time-context\"", "\"plugin\":\"tool-schedule\""),
    };
    for (String b : broken) {
      assertThat(ImplicitZone.isSnapshotReading(Logs.json(b))).as(b).isFalse();
      assertThat(ImplicitZone.derive(log().turnStart(1).stepStart(1, 1).prompt("Asia/Shanghai")
          .event("user/message", Logs.json(b)).events(), Optional.of("Asia/Shanghai")))
          .isEqualTo(unconfirmed("Asia/Shanghai"));
    }
    assertThat(base.events()).hasSize(3);
  }

  @Test
  void aSuffixDecidesWhenItHoldsTheStepAndItsTurnStart() {
    List<dev.horae.spi.session.SessionEvent> events = log().turnStart(1).stepStart(1, 1)
        .prompt("America/New_York").stepEnd(1, 1).turnStart(2).stepStart(2, 1).prompt("Asia/Shanghai")
        .reading().events();
    for (int from = 0; from <= events.size(); from++) {
      List<dev.horae.spi.session.SessionEvent> suffix = events.subList(from, events.size());
      if (ImplicitZone.decidableWithin(suffix)) {
        assertThat(ImplicitZone.derive(suffix, Optional.of("Asia/Shanghai")))
            .as("from %d", from)
            .isEqualTo(ImplicitZone.derive(events, Optional.of("Asia/Shanghai")));
      }
    }
    assertThat(ImplicitZone.decidableWithin(events.subList(4, events.size()))).isTrue();
    assertThat(ImplicitZone.decidableWithin(events.subList(5, events.size()))).isFalse();
    assertThat(ImplicitZone.decidableWithin(log().stepStart(1, 1).events())).isFalse();
    assertThat(ImplicitZone.decidableWithin(log().turnStart(1).stepStart(1, 1).stepEnd(1, 1).events())).isTrue();
    assertThat(ImplicitZone.decidableWithin(List.of())).isFalse();
  }
}

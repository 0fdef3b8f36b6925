package dev.horae.schedule;

import static dev.horae.schedule.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Spec §6.8.3: the implicit-zone decision over the log's time-context authority. The authority
 * itself (snapshot shape, suffixes) is tested where it lives, in agent-spi.
 */
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
}

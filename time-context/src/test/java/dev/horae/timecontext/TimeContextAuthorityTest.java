package dev.horae.timecontext;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.EventTypes;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TimeContextAuthorityTest {

  private static Logs openStep(String... zones) {
    Logs log = Logs.log().turnStart(1, 0).turnEnd(1, 1).turnStart(2, 2);
    int i = 0;
    for (String zone : zones) {
      log.prompt("p", "r" + i++, zone, 3);
    }
    return log.stepStart(2, 1, 4);
  }

  @Test
  void anExactReadingInTheOpenStepGivesTheAuthority() {
    var log = openStep("Asia/Shanghai").reading("any text", 5).events();
    assertThat(TimeContextAuthority.of(log, Optional.of("Asia/Shanghai")))
        .hasValue(new TimeContextAuthority(2, 1, Optional.of("Asia/Shanghai"), new ClientZoneContext.Resolved("Asia/Shanghai")));
  }

  @Test
  void mixedAndMissingClientZonesAndHeaderlessSessions() {
    var mixed = openStep("Asia/Shanghai", "America/New_York").reading("r", 5).events();
    assertThat(TimeContextAuthority.of(mixed, Optional.empty()).orElseThrow())
        .isEqualTo(
            new TimeContextAuthority(
                2, 1, Optional.empty(), new ClientZoneContext.Mixed(List.of("America/New_York", "Asia/Shanghai"))));
    var none = openStep().reading("r", 5).events();
    assertThat(TimeContextAuthority.of(none, Optional.of("UTC")).orElseThrow().client()).isEqualTo(ClientZoneContext.MISSING);
  }

  @Test
  void aFailedDerivationCountsAsMissing() {
    var log = openStep("Asia/Calcutta").reading("r", 5).events();
    assertThat(TimeContextAuthority.of(log, Optional.of("Asia/Kolkata")).orElseThrow().client())
        .isEqualTo(ClientZoneContext.MISSING);
  }

  @Test
  void noOpenStepMeansNoAuthority() {
    assertThat(TimeContextAuthority.of(openStep().reading("r", 5).stepEnd(2, 1, 6).events(), Optional.empty())).isEmpty();
    assertThat(TimeContextAuthority.of(openStep().reading("r", 5).turnEnd(2, 6).events(), Optional.empty())).isEmpty();
    assertThat(TimeContextAuthority.of(openStep().reading("r", 5).turnStart(3, 6).events(), Optional.empty())).isEmpty();
    assertThat(TimeContextAuthority.of(List.of(), Optional.empty())).isEmpty();
  }

  @Test
  void aReadingOfAnEarlierStepOrOfAnotherShapeDoesNotCount() {
    var earlier = openStep("UTC").reading("r", 5).stepEnd(2, 1, 6).stepStart(2, 2, 7).events();
    assertThat(TimeContextAuthority.of(earlier, Optional.of("UTC"))).isEmpty();

    ObjectNode extraSourceMember = Logs.readingMessage("r");
    ((ObjectNode) extraSourceMember.get("source")).put("zone", "UTC");
    assertThat(TimeContextAuthority.of(openStep().event(EventTypes.USER_MESSAGE, 5, extraSourceMember).events(), Optional.empty()))
        .isEmpty();

    ObjectNode otherText = Logs.readingMessage("r");
    otherText.set("content", ReadingMessages.content("different"));
    assertThat(TimeContextAuthority.of(openStep().event(EventTypes.USER_MESSAGE, 5, otherText).events(), Optional.empty()))
        .isEmpty();

    ObjectNode loose = Logs.message("r", Logs.obj().put("kind", "plugin").put("plugin", "time-context"));
    assertThat(TimeContextAuthority.of(openStep().event(EventTypes.USER_MESSAGE, 5, loose).events(), Optional.empty()))
        .isEmpty();
  }

  @Test
  void aStepWithoutTheTurnsStartHasMissingClientZones() {
    var log = Logs.log().prompt("p", "r", "UTC", 0).stepStart(9, 1, 1).reading("r", 2).events();
    assertThat(TimeContextAuthority.of(log, Optional.of("UTC")).orElseThrow().client()).isEqualTo(ClientZoneContext.MISSING);
  }
}

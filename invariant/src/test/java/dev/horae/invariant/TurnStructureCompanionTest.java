package dev.horae.invariant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The turn-structure companion (host contract §6.1). */
@Timeout(10)
class TurnStructureCompanionTest {

  private static final SessionHeader HEADER = SessionHeader.root("s", 0, Optional.empty());
  private final TurnStructureCompanion companion = TurnStructureCompanion.instance();
  private final List<SessionEvent> log = new ArrayList<>();

  private SessionEvent event(String type, String data) {
    return SessionEvent.of(log.size(), type, 0, Json.parse(data));
  }

  private void add(String type, String data) {
    SessionEvent e = event(type, data);
    assertThat(companion.checkAppend(HEADER, log, e)).as(type + " " + data).isEmpty();
    log.add(e);
  }

  private Optional<String> refusal(String type, String data) {
    return companion.checkAppend(HEADER, log, event(type, data)).map(LogFinding::text);
  }

  private void oneCompleteTurn() {
    add("turn/start", "{\"turn\":1}");
    add("step/start", "{\"turn\":1,\"step\":1}");
    add("user/message", "{}");
    add("step/end", "{\"turn\":1,\"step\":1}");
    add("step/start", "{\"turn\":1,\"step\":2}");
    add("step/end", "{\"turn\":1,\"step\":2}");
    add("turn/end", "{\"turn\":1,\"reason\":\"completed\"}");
  }

  @Test
  void aWellFormedLogPassesAppendByAppendAndAsAWhole() {
    oneCompleteTurn();
    add("schedule/change", "{}");
    add("turn/start", "{\"turn\":2}");
    add("turn/end", "{\"turn\":2,\"reason\":\"blocked\"}");
    assertThat(companion.checkLog(HEADER, log)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "turn/start|{\"turn\":2}|turn/start of turn 2 while turn 1 is open",
      "step/start|{\"turn\":1,\"step\":2}|step/start must carry step 1, got 2",
      "step/end|{\"turn\":1,\"step\":1}|step/end {\"turn\":1,\"step\":1} closes no open step",
      "turn/end|{\"turn\":2,\"reason\":\"completed\"}|turn/end {\"turn\":2,\"reason\":\"completed\"} closes no open turn",
      "turn/end|{\"turn\":1,\"reason\":\"later\"}|turn/end reason must be one of [aborted, blocked, completed, error, interrupted, max-tokens], got \"later\""
  })
  void anOutOfOrderMarkerInAnOpenTurnIsVetoedWithTheReason(String type, String data, String why) {
    add("turn/start", "{\"turn\":1}");
    assertThat(refusal(type, data)).contains("invariant violated by \"@horae/turn-structure\": " + why);
  }

  @Test
  void aTurnCannotEndWhileAStepIsOpenNorReuseANumber() {
    oneCompleteTurn();
    assertThat(refusal("turn/start", "{\"turn\":1}")).hasValueSatisfying(t -> assertThat(t).contains("above 1"));
    add("turn/start", "{\"turn\":2}");
    add("step/start", "{\"turn\":2,\"step\":1}");
    assertThat(refusal("turn/end", "{\"turn\":2,\"reason\":\"completed\"}")).hasValueSatisfying(
        t -> assertThat(t).endsWith("turn/end of turn 2 while step 1 is open"));
    assertThat(refusal("step/start", "{\"turn\":2,\"step\":2}")).hasValueSatisfying(
        t -> assertThat(t).endsWith("while step 1 is open"));
  }

  @Test
  void theWholeLogCheckNamesTheSeqOfEachBrokenMarker() {
    log.add(event("step/start", "{\"turn\":1,\"step\":1}"));
    assertThat(companion.checkLog(HEADER, log)).singleElement()
        .satisfies(f -> assertThat(f.reportLine()).startsWith("seq 0: invariant violated by \"@horae/turn-structure\": step/start"));
  }
}

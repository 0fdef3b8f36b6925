package dev.horae.timecontext;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReadingInvariantTest {

  private static final long T0 = Instant.parse("2026-07-14T00:00:00Z").toEpochMilli();
  private static final String TWO_LINE =
      "Time sampled while preparing turn 1, step 1: 2026-07-14T00:00:00+00:00[UTC]\n"
          + "Elapsed since the preceding model-visible message: 0s.";

  private static SessionEvent candidate(List<SessionEvent> prefix, ObjectNode data, long time) {
    return SessionEvent.of(prefix.size(), EventTypes.USER_MESSAGE, time, data);
  }

  private static Optional<String> check(List<SessionEvent> prefix, String text, long time) {
    return ReadingInvariant.check(prefix, candidate(prefix, Logs.readingMessage(text), time)).map(ReadingViolation::message);
  }

  private static Logs openStep() {
    return Logs.log().turnStart(1, T0).user("hi", T0).stepStart(1, 1, T0);
  }

  @Test
  void aReadingWrittenByTheBuilderPasses() {
    var prefix = openStep().events();
    String text = TimeReadings.reading(new TimeContextConfig.Resolved("Asia/Shanghai", 0, false), prefix, 1, 1, T0 + 999, List.of()).orElseThrow();
    assertThat(check(prefix, text, T0 + 999)).isEmpty();
    String guided = TimeReadings.reading(new TimeContextConfig.Resolved("UTC", 0, true), prefix, 1, 1, T0, List.of()).orElseThrow();
    assertThat(check(prefix, guided, T0)).isEmpty();
  }

  @Test
  void aZTimestampIsAcceptedByTheGrammar() {
    String text = TWO_LINE.replace("+00:00[UTC]", "Z[UTC]");
    assertThat(check(openStep().events(), text, T0)).isEmpty();
  }

  @Test
  void positionRulesFollowTheReplay() {
    assertThat(check(List.of(), TWO_LINE, T0)).hasValue("time-context reading must be appended inside an open turn");
    assertThat(check(Logs.log().turnStart(1, T0).events(), TWO_LINE, T0)).hasValue("time-context reading must follow step/start");
    assertThat(check(openStep().stepEnd(1, 1, T0).events(), TWO_LINE, T0)).hasValue("time-context reading must follow step/start");
    assertThat(check(openStep().requestHeader(T0).events(), TWO_LINE, T0)).hasValue("time-context reading must precede request/header");
    assertThat(check(openStep().turnEnd(1, T0).stepStart(1, 1, T0).events(), TWO_LINE, T0))
        .hasValue("time-context reading must be appended inside an open turn");
    // a new step/start resets the request flag
    assertThat(check(openStep().requestHeader(T0).stepEnd(1, 1, T0).stepStart(1, 1, T0).events(), TWO_LINE, T0)).isEmpty();
    assertThat(check(Logs.log().turnStart(2, T0).stepStart(2, 3, T0).events(), TWO_LINE, T0))
        .hasValue("time-context reading names turn 1/step 1, expected turn 2/step 3");
  }

  @Test
  void numbersMustBePositiveSafeIntegers() {
    var prefix = openStep().events();
    assertThat(check(prefix, TWO_LINE.replace("step 1:", "step 9007199254740992:"), T0))
        .hasValue("time-context turn and step must be positive safe integers");
    assertThat(check(prefix, TWO_LINE.replace("turn 1,", "turn 01,"), T0)).isEmpty();
  }

  @Test
  void timestampsMustParseAndNotPostdateTheEvent() {
    var prefix = openStep().events();
    String msg = "time-context rendered timestamp must parse and not postdate its durable event";
    assertThat(check(prefix, TWO_LINE.replace("2026-07-14", "2026-02-30"), T0)).hasValue(msg);
    assertThat(check(prefix, TWO_LINE, T0 - 1)).hasValue(msg);
    assertThat(check(prefix, TWO_LINE, 1L << 53)).hasValue(msg);
    // a long suspension between sampling and append is fine
    assertThat(check(prefix, TWO_LINE, T0 + 86_400_000L * 30)).isEmpty();
  }

  @Test
  void clientZoneFailuresAreReportedWithTheirOwnKind() {
    var prefix = Logs.log().turnStart(1, T0).prompt("p", "r", "Etc/UTC", T0).stepStart(1, 1, T0).events();
    String text =
        """
        Time sampled while preparing turn 1, step 1: 2026-07-14T00:00:00+00:00[UTC]
        Browser time zone for this request: UTC. Interpret otherwise-unqualified dates and times in this zone.
        Elapsed since the preceding model-visible message: 0s.\
        """;
    assertThat(ReadingInvariant.check(prefix, candidate(prefix, Logs.readingMessage(text), T0)))
        .hasValue(new ReadingViolation("browser time zone must be canonical: \"Etc/UTC\"", ReadingViolation.Kind.CLIENT_ZONE));
  }

  @Test
  void onlyAttributedUserMessagesAreChecked() {
    var prefix = List.<SessionEvent>of();
    ObjectNode notAReading = Logs.message("x", Logs.obj().put("kind", "plugin").put("plugin", "time-context-test"));
    assertThat(ReadingInvariant.check(prefix, candidate(prefix, notAReading, 0))).isEmpty();
    assertThat(ReadingInvariant.check(prefix, SessionEvent.of(0, "assistant/message", 0, Logs.readingMessage("x")))).isEmpty();
  }

  @Test
  void wholeLogsAreCheckedReadingByReading() {
    Logs log = openStep();
    log.reading(TWO_LINE, T0).requestHeader(T0).stepEnd(1, 1, T0).turnEnd(1, T0);
    assertThat(ReadingInvariant.checkLog(log.events())).isEmpty();
    log.turnStart(2, T0).stepStart(2, 1, T0).reading(TWO_LINE, T0);
    assertThat(ReadingInvariant.checkLog(log.events()).map(ReadingViolation::message))
        .hasValue("time-context reading names turn 1/step 1, expected turn 2/step 1");
  }
}

package dev.horae.timecontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.zone.ClientZones;
import dev.horae.timecontext.internal.Events;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReadingIndexTest {

  private static final Supplier<List<SessionEvent>> NO_LOG = ReadingIndexTest::noLog;

  private static List<SessionEvent> noLog() {
    throw new AssertionError("the index must answer without the log");
  }

  @Test
  void gateInjectsExactlyAtTheIntervalAndAfterABackwardClock() {
    ReadingIndex index = ReadingIndex.of(Logs.log().turnStart(1, 0).reading("r", 10_000).events());
    assertThat(index.due(10_000 + 59_999, 60_000)).isFalse();
    assertThat(index.due(10_000 + 60_000, 60_000)).isTrue();
    assertThat(index.due(10_000, 60_000)).isFalse();
    assertThat(index.due(9_999, 60_000)).isTrue();
    assertThat(index.due(10_000, 0)).isTrue();
    assertThat(new ReadingIndex().due(0, 60_000)).isTrue();
  }

  @Test
  void gateDoesNotOverflowOnExtremeTimes() {
    ReadingIndex index = ReadingIndex.of(Logs.log().reading("r", Long.MIN_VALUE + 1).events());
    assertThat(index.due(Long.MAX_VALUE, 9_007_199_254_740_991L)).isTrue();
    assertThat(Events.elapsed(Long.MAX_VALUE, Long.MIN_VALUE)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void readingsShadowedByCompactionAndInheritedFromAForkStillGate() {
    // a fork prefix holding a reading, then a compaction replacement message, then a new turn
    List<SessionEvent> log =
        Logs.log()
            .turnStart(1, 0)
            .reading("from the parent", 1_000)
            .other(EventTypes.SESSION_END_SEED, 1_000)
            .plugin("compact-basic", "compacted history", 2_000)
            .turnStart(2, 3_000)
            .events();
    ReadingIndex index = ReadingIndex.of(log);
    assertThat(index.lastReadingTime()).hasValue(1_000);
    assertThat(index.due(1_500, 1_000)).isFalse();
    // the compaction replacement is a model-visible message: it is the step-1 baseline
    assertThat(index.baseline(2, 1, NO_LOG)).hasValue(2_000);
    // step 2 of turn 2 has no same-turn reading
    assertThat(index.baseline(2, 2, NO_LOG)).isEmpty();
  }

  @Test
  void laterStepsMeasureFromTheSameTurnsReadingOnly() {
    Logs log = Logs.log().turnStart(1, 0).user("hi", 0).reading("step 1", 100);
    assertThat(ReadingIndex.of(log.events()).baseline(1, 2, NO_LOG)).hasValue(100);
    log.assistant("a", 200).turnEnd(1, 300).turnStart(2, 400).user("again", 400);
    assertThat(ReadingIndex.of(log.events()).baseline(2, 2, NO_LOG)).isEmpty();
    assertThat(ReadingIndex.of(log.events()).baseline(2, 1, NO_LOG)).hasValue(400);
  }

  @Test
  void stepOneBaselinesCountUserAssistantAndToolMessagesOnly() {
    List<SessionEvent> log = Logs.log().turnStart(1, 0).user("hi", 5).toolResult(7).other("custom/event", 9).events();
    assertThat(ReadingIndex.of(log).baseline(1, 1, NO_LOG)).hasValue(7);
    assertThat(ReadingIndex.of(Logs.log().turnStart(1, 0).events()).baseline(1, 1, NO_LOG)).isEmpty();
  }

  @Test
  void clientZonesComeFromTheLatestTurnOnly() {
    Logs log =
        Logs.log()
            .turnStart(1, 0)
            .prompt("p", "r1", "Asia/Shanghai", 0)
            .turnStart(2, 10)
            .prompt("p", "r2", "UTC", 10)
            .prompt("p", "r3", "UTC", 11)
            .prompt("p", "r4", "America/New_York", 12);
    ReadingIndex index = ReadingIndex.of(log.events());
    assertThat(index.clientZoneValues(2, NO_LOG)).containsExactly("UTC", "America/New_York");
    // an older turn needs the log
    assertThat(index.clientZoneValues(1, log::events)).containsExactly("Asia/Shanghai", "UTC", "America/New_York");
    assertThat(index.clientZoneValues(7, log::events)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void theIndexAgreesWithADirectReadingOfTheSpecOnRandomLogs(long seed) {
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      List<SessionEvent> log = randomLog(random);
      int cut = random.nextInt(log.size() + 1);
      // built in two parts, as the plugin catches up, versus built at once
      ReadingIndex incremental = ReadingIndex.of(log.subList(0, cut));
      log.subList(cut, log.size()).forEach(incremental::apply);
      for (int q = 0; q < 10; q++) {
        long turn = 1L + random.nextInt(4);
        long step = 1L + random.nextInt(3);
        long now = random.nextInt(2_000);
        long interval = random.nextBoolean() ? 0 : random.nextInt(500);
        assertThat(incremental.due(now, interval)).isEqualTo(referenceDue(log, now, interval));
        assertThat(incremental.baseline(turn, step, () -> log)).isEqualTo(referenceBaseline(log, turn, step));
        assertThat(incremental.clientZoneValues(turn, () -> log)).isEqualTo(referenceZones(log, turn));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {7, 8, 99, 2024})
  void anIndexBuiltFromTheTailEqualsOneBuiltEventByEvent(long seed) {
    Random random = new Random(seed);
    for (int round = 0; round < 300; round++) {
      List<SessionEvent> log = randomLog(random);
      ReadingIndex forward = new ReadingIndex();
      log.forEach(forward::apply);
      ReadingIndex tail = ReadingIndex.of(log);
      assertThat(tail.size()).isEqualTo(forward.size());
      assertThat(tail.lastEvent()).isEqualTo(forward.lastEvent());
      assertThat(tail.lastReadingTime()).isEqualTo(forward.lastReadingTime());
      for (long turn = 1; turn <= 4; turn++) {
        long t = turn;
        // the log supplier must not be needed when the asked turn is the latest one
        for (long step = 1; step <= 3; step++) {
          assertThat(tail.baseline(t, step, () -> log)).as("baseline %d/%d of %s", t, step, log)
              .isEqualTo(forward.baseline(t, step, () -> log));
        }
        assertThat(tail.clientZoneValues(t, () -> log)).as("zones of turn %d of %s", t, log)
            .isEqualTo(forward.clientZoneValues(t, () -> log));
      }
      for (long now : new long[] {0, 500, 1_999, 5_000}) {
        assertThat(tail.due(now, 300)).isEqualTo(forward.due(now, 300));
      }
      // and it keeps taking events as the forward one does
      log.forEach(tail::apply);
      log.forEach(forward::apply);
      assertThat(tail.clientZoneValues(1, () -> log)).isEqualTo(forward.clientZoneValues(1, () -> log));
      assertThat(tail.baseline(2, 2, () -> log)).isEqualTo(forward.baseline(2, 2, () -> log));
    }
  }

  private static List<SessionEvent> randomLog(Random random) {
    Logs log = Logs.log();
    int n = random.nextInt(30);
    for (int i = 0; i < n; i++) {
      long time = random.nextInt(2_000);
      switch (random.nextInt(9)) {
        case 0 -> log.turnStart(1L + random.nextInt(4), time);
        case 1 -> log.reading("reading", time);
        case 2 -> log.user("u", time);
        case 3 -> log.prompt("p", "r", random.nextBoolean() ? "UTC" : "Asia/Shanghai", time);
        case 4 -> log.assistant("a", time);
        case 5 -> log.toolResult(time);
        case 6 -> log.plugin("other", "x", time);
        case 7 -> log.stepStart(1, 1, time);
        default -> log.turnEnd(1, time);
      }
    }
    return log.events();
  }

  private static boolean referenceDue(List<SessionEvent> log, long now, long interval) {
    if (interval == 0) {
      return true;
    }
    for (int i = log.size() - 1; i >= 0; i--) {
      if (Events.isAttributedReading(log.get(i))) {
        long last = log.get(i).time();
        return !(now >= last && now - last < interval);
      }
    }
    return true;
  }

  private static OptionalLong referenceBaseline(List<SessionEvent> log, long turn, long step) {
    for (int i = log.size() - 1; i >= 0; i--) {
      SessionEvent e = log.get(i);
      if (step == 1 && Events.isModelVisible(e.type())) {
        return OptionalLong.of(e.time());
      }
      if (step > 1 && Events.isTurnStartOf(e, turn)) {
        return OptionalLong.empty();
      }
      if (step > 1 && Events.isAttributedReading(e)) {
        return OptionalLong.of(e.time());
      }
    }
    return OptionalLong.empty();
  }

  private static List<String> referenceZones(List<SessionEvent> log, long turn) {
    int start = -1;
    for (int i = 0; i < log.size(); i++) {
      if (Events.isTurnStartOf(log.get(i), turn)) {
        start = i;
      }
    }
    List<String> values = new ArrayList<>();
    if (start < 0) {
      return values;
    }
    for (SessionEvent e : log.subList(start + 1, log.size())) {
      if (e.type().equals(EventTypes.USER_MESSAGE)) {
        ClientZones.contributedZone(e.data()).filter(z -> !values.contains(z)).ifPresent(values::add);
      }
    }
    return values;
  }
}

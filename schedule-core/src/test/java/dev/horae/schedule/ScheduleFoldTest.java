package dev.horae.schedule;

import static dev.horae.schedule.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spec §3.5–§3.7: fold, fork slicing, id allocation, and the incremental fold. */
class ScheduleFoldTest {

  private static final String T1 = "2026-08-05T12:00:00.000Z";
  private static final String T0 = "2026-08-05T11:00:00.000Z";

  @Test
  void activeKeepsCreationOrderNotTargetOrder() {
    ScheduleState s = ScheduleFold.fold(log().create("late", T1).create("early", T0).events(), 0);
    assertThat(s.active()).extracting(ScheduleRecord::id).containsExactly("late", "early");
    assertThat(s.seenIds()).containsExactly("late", "early");
  }

  @Test
  void deleteAndDispatchRemoveFromActiveButNotFromSeen() {
    ScheduleState s = ScheduleFold.fold(
        log().create("a", T1).create("b", T1).create("c", T1).delete("a").dispatch("c").events(), 0);
    assertThat(s.active()).extracting(ScheduleRecord::id).containsExactly("b");
    assertThat(s.seenIds()).containsExactly("a", "b", "c");
  }

  @Test
  void otherEventTypesAreSkipped() {
    ScheduleState s = ScheduleFold.fold(
        log().other(EventTypes.TURN_START).create("a", T1).other("host/custom").events(), 0);
    assertThat(s.seenIds()).containsExactly("a");
  }

  @Test
  void reusedIdIsCorruptEvenAfterItsRecordEnded() {
    assertThatThrownBy(() -> ScheduleFold.fold(log().create("a", T1).delete("a").create("a", T1).events(), 0))
        .isInstanceOf(CorruptScheduleLogException.class).hasMessage("schedule id \"a\" was reused");
  }

  @Test
  void inactiveTargetsAreCorrupt() {
    assertThatThrownBy(() -> ScheduleFold.fold(log().delete("missing").events(), 0))
        .hasMessage("schedule delete targets inactive id \"missing\"");
    assertThatThrownBy(() -> ScheduleFold.fold(log().create("a", T1).dispatch("a").dispatch("a").events(), 0))
        .hasMessage("schedule dispatch targets inactive id \"a\"");
    assertThatThrownBy(() -> ScheduleFold.fold(log().create("a", T1).dispatch("a").delete("a").events(), 0))
        .hasMessage("schedule delete targets inactive id \"a\"");
    assertThatThrownBy(() -> ScheduleFold.fold(log().delete("q\"\u0001").events(), 0))
        .hasMessage("schedule delete targets inactive id \"q\\\"\\u0001\"");
  }

  @Test
  void anyCorruptChangeAbortsTheWholeFold() {
    assertThatThrownBy(() -> ScheduleFold.fold(log().create("a", T1).change("{\"version\":2}").events(), 0))
        .hasMessage("schedule/change version must be 1");
  }

  @Test
  void seedLengthMustBeWithinTheLog() {
    List<SessionEvent> events = log().create("a", T1).events();
    for (long bad : new long[] {-1, 2, Long.MAX_VALUE}) {
      assertThatThrownBy(() -> ScheduleFold.fold(events, bad))
          .hasMessage("schedule seedLength must be within the supplied event log");
    }
    assertThat(ScheduleFold.fold(events, 1).seenIds()).isEmpty();
    assertThatThrownBy(() -> ScheduleFold.start(-1))
        .hasMessage("schedule seedLength must be within the supplied event log");
    assertThatThrownBy(() -> ScheduleFold.start(3).absorbLog(events))
        .hasMessage("schedule seedLength must be within the supplied event log");
  }

  @Test
  void forkFoldsOnlyItsOwnSuffixAndNeverDecodesThePrefix() {
    List<SessionEvent> events = log().change("{\"version\":9}").create("schedule-1", T1)
        .event(EventTypes.SESSION_END_SEED, Logs.json("{}")).create("schedule-1", T0).events();
    ScheduleState fork = ScheduleFold.fold(events, 2);
    assertThat(fork.active()).extracting(ScheduleRecord::scheduledAt).containsExactly(T0);
    assertThat(fork.seenIds()).containsExactly("schedule-1");
    // a fork may allocate an id equal to an inherited one
    assertThat(ScheduleFold.fold(events.subList(0, 3), 2).seenIds()).isEmpty();
    assertThat(ScheduleFold.start(2).absorbLog(events.subList(0, 3)).allocateId()).isEqualTo("schedule-1");
  }

  @Test
  void allocationTableOfTheSpec() {
    assertThat(ScheduleIds.allocate(List.of())).isEqualTo("schedule-1");
    assertThat(ScheduleIds.allocate(List.of("custom", "schedule-3"))).isEqualTo("schedule-4");
    assertThat(ScheduleIds.allocate(List.of("one", "schedule-2"))).isEqualTo("schedule-3");
    assertThat(ScheduleIds.allocate(List.of("schedule-1", "schedule-2", "schedule-4"))).isEqualTo("schedule-5");
    assertThat(ScheduleIds.allocate(List.of("schedule-2"))).isEqualTo("schedule-3");
  }

  @Test
  void createDeleteCreateAllocatesAFreshId() {
    ScheduleFold fold = ScheduleFold.start(0);
    Logs l = log();
    String first = fold.allocateId();
    l.create(first, T1).delete(first);
    fold.absorbLog(l.events());
    assertThat(first).isEqualTo("schedule-1");
    assertThat(fold.allocateId()).isEqualTo("schedule-2");
  }

  @Test
  void earliestUsesStrictLessThanSoTiesKeepCreationOrder() {
    ScheduleFold fold = ScheduleFold.start(0).absorbLog(
        log().create("x", T1).create("y", T0).create("z", T0).events());
    assertThat(fold.earliest()).map(ScheduleRecord::id).contains("y");
    assertThat(ScheduleFold.start(0).earliest()).isEmpty();
  }

  @Test
  void incrementalFoldEqualsFullFold() {
    List<SessionEvent> events = log().create("a", T1).other("x").create("b", T0).delete("a")
        .create("c", T1).dispatch("b").events();
    ScheduleFold fold = ScheduleFold.start(0);
    for (int i = 0; i <= events.size(); i++) {
      fold.absorbLog(events.subList(0, i));
      assertThat(fold.state()).isEqualTo(ScheduleFold.fold(events.subList(0, i), 0));
      assertThat(fold.position()).isEqualTo(i);
    }
  }

  @Test
  void failedBatchLeavesTheFoldUnchangedAndFailsAgain() {
    Logs l = log().create("a", T1).create("b", T1);
    ScheduleFold fold = ScheduleFold.start(0).absorbLog(l.events());
    ScheduleState before = fold.state();
    List<SessionEvent> bad = l.delete("a").create("c", T1).delete("a").events();
    assertThatThrownBy(() -> fold.absorbLog(bad)).hasMessage("schedule delete targets inactive id \"a\"");
    assertThat(fold.state()).isEqualTo(before);
    assertThat(fold.position()).isEqualTo(2);
    assertThatThrownBy(() -> fold.absorbLog(bad)).isInstanceOf(CorruptScheduleLogException.class);
  }

  @Test
  void batchLocalCreateThenEndAndReuseAreChecked() {
    ScheduleFold fold = ScheduleFold.start(0).absorbLog(log().create("a", T1).events());
    Logs more = log().create("a", T1);
    assertThatThrownBy(() -> fold.absorb(more.events())).hasMessage("schedule id \"a\" was reused");
    ScheduleFold f2 = ScheduleFold.start(0);
    assertThatThrownBy(() -> f2.absorb(log().create("b", T1).dispatch("b").create("b", T1).events()))
        .hasMessage("schedule id \"b\" was reused");
    assertThatThrownBy(() -> f2.absorb(log().create("b", T1).dispatch("b").dispatch("b").events()))
        .hasMessage("schedule dispatch targets inactive id \"b\"");
    assertThat(f2.position()).isZero();
  }

  @Test
  void aShrunkenLogIsRejected() {
    ScheduleFold fold = ScheduleFold.start(0).absorbLog(log().create("a", T1).create("b", T1).events());
    assertThatThrownBy(() -> fold.absorbLog(log().create("a", T1).events()))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void copyIsIndependent() {
    ScheduleFold fold = ScheduleFold.start(0).absorbLog(log().create("a", T1).events());
    ScheduleFold copy = fold.copy();
    copy.absorb(log().create("b", T1).events());
    assertThat(fold.seenIds()).containsExactly("a");
    assertThat(copy.seenIds()).containsExactly("a", "b");
    assertThat(copy.activeRecord("b")).isPresent();
    assertThat(fold.activeRecord("b")).isEmpty();
    assertThat(copy.seedLength()).isZero();
  }

  @Test
  void aFirstBatchReportsAChangeThatDoesNotDecodeBeforeOneThatDoesNotApply() {
    // an empty fold applies as it decodes; the error stays the staged path's (decode failures first)
    ScheduleFold fold = ScheduleFold.start(0);
    assertThatThrownBy(() -> fold.absorb(log().create("a", T1).delete("b").change("{\"version\":2}").events()))
        .hasMessage("schedule/change version must be 1");
    assertThat(fold.seenIds()).isEmpty();
    assertThat(fold.position()).isZero();
    ScheduleFold same = ScheduleFold.start(0).absorb(log().create("x", T1).events());
    assertThatThrownBy(() -> same.absorb(log().create("a", T1).delete("b").change("{\"version\":2}").events()))
        .hasMessage("schedule/change version must be 1");
  }

  @Test
  void aFailedFirstBatchLeavesAnEmptyFoldThatAbsorbsTheGoodLogAfterwards() {
    ScheduleFold fold = ScheduleFold.start(0);
    assertThat(fold.earliest()).isEmpty();
    List<SessionEvent> bad = log().create("a", T0).create("b", T1).dispatch("c").create("d", T1).events();
    assertThatThrownBy(() -> fold.absorb(bad)).hasMessage("schedule dispatch targets inactive id \"c\"");
    assertThat(fold.state()).isEqualTo(ScheduleFold.start(0).state());
    assertThat(fold.activeRecord("a")).isEmpty();
    assertThat(fold.earliest()).isEmpty();
    assertThat(fold.allocateId()).isEqualTo("schedule-1");
    List<SessionEvent> good = log().create("b", T1).create("a", T0).delete("b").events();
    fold.absorb(good);
    assertThat(fold.state()).isEqualTo(ScheduleFold.fold(good, 0));
    assertThat(fold.earliest()).map(ScheduleRecord::id).contains("a");
    assertThat(fold.position()).isEqualTo(3);
  }
}

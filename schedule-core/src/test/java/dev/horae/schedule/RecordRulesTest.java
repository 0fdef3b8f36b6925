package dev.horae.schedule;

import static dev.horae.schedule.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.schedule.internal.UtcInstants;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.spi.session.SessionEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The durable rules that hold before anything is encoded or folded: a change that breaks a field
 * rule of spec §3.3 cannot be built, a live fold refuses what §3.5 calls corrupt one change at a
 * time as it does in batches, and the argument checks of §3.5 and §10 answer with their own
 * messages.
 */
class RecordRulesTest {

  private static final long T = UtcInstants.parse("2026-08-06T09:00:00.000Z").orElseThrow();
  private static final String T1 = "2026-08-06T09:00:00.000Z";

  @Test
  void anAfterRecordHoldsEveryFieldRule() {
    for (String id : new String[] {"", " schedule-1", "schedule-1\n"}) {
      assertThatThrownBy(() -> new ScheduleRecord.After(id, "p", 1, T))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schedule id");
    }
    assertThatThrownBy(() -> new ScheduleRecord.After("schedule-1", " p", 1, T))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prompt");
    assertThatThrownBy(() -> new ScheduleRecord.After("schedule-1", "p", 1, UtcInstants.MAX_MILLIS + 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scheduledAt");
    for (long bad : new long[] {0, -1, EcmaNumbers.MAX_SAFE_INTEGER + 1}) {
      assertThatThrownBy(() -> new ScheduleRecord.After("schedule-1", "p", bad, T))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("afterSeconds");
    }
    for (long edge : new long[] {1, EcmaNumbers.MAX_SAFE_INTEGER}) {
      assertThat(new ScheduleRecord.After("schedule-1", "p", edge, T).afterSeconds()).isEqualTo(edge);
    }
  }

  @Test
  void anAtRecordHoldsEveryFieldRule() {
    assertThatThrownBy(() -> new ScheduleRecord.At("", "p", T))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schedule id");
    assertThatThrownBy(() -> new ScheduleRecord.At("schedule-1", "", T))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prompt");
    assertThatThrownBy(() -> new ScheduleRecord.At("schedule-1", "p", UtcInstants.MIN_MILLIS - 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scheduledAt");
    assertThat(new ScheduleRecord.At("schedule-1", "p", UtcInstants.MIN_MILLIS).scheduledAt())
        .isEqualTo("0001-01-01T00:00:00.000Z");
  }

  @Test
  void deleteAndDispatchHoldTheIdRule() {
    for (String id : new String[] {"", " a", "a\t"}) {
      assertThatThrownBy(() -> new ScheduleChange.Delete(id))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schedule id");
      assertThatThrownBy(() -> new ScheduleChange.Dispatch(id))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schedule id");
    }
    assertThatCode(() -> new ScheduleChange.Dispatch("a b")).doesNotThrowAnyException();
  }

  @Test
  void aSingleLiveChangeToAnInactiveIdIsCorruptAndLeavesTheFoldAsItWas() {
    ScheduleFold fold = ScheduleFold.start(0).absorbLog(log().create("a", T1).dispatch("a").events());
    ScheduleState before = fold.state();
    for (Logs one : List.of(log().delete("never"), log().dispatch("a"), log().delete("a"))) {
      List<SessionEvent> change = one.events();
      assertThatThrownBy(() -> fold.absorb(change))
          .isInstanceOf(CorruptScheduleLogException.class)
          .hasMessageContaining("targets inactive id");
      assertThat(fold.state()).isEqualTo(before);
      assertThat(fold.position()).isEqualTo(2);
    }
  }

  @Test
  void aSeedLengthIsANonNegativeSafeInteger() {
    for (long bad : new long[] {-1, EcmaNumbers.MAX_SAFE_INTEGER + 1, Long.MAX_VALUE}) {
      assertThatThrownBy(() -> ScheduleFold.start(bad))
          .isInstanceOf(CorruptScheduleLogException.class)
          .hasMessage("schedule seedLength must be within the supplied event log");
    }
    assertThat(ScheduleFold.start(EcmaNumbers.MAX_SAFE_INTEGER).seedLength())
        .isEqualTo(EcmaNumbers.MAX_SAFE_INTEGER);
    assertThat(ScheduleFold.start(7).position()).isEqualTo(7);
  }

  @Test
  void aPresentationSeqBeyondTheSafeRangeIsRefusedAsSuchNotAsAMissingEvent() {
    List<SessionEvent> events = log().create("a", T1).dispatch("a").events();
    assertThatThrownBy(() -> ReminderPresentation.project(events, EcmaNumbers.MAX_SAFE_INTEGER + 1, 0))
        .isInstanceOf(CorruptScheduleLogException.class)
        .hasMessage("schedule presentation seq must be a non-negative safe integer");
    assertThatThrownBy(() -> ReminderPresentation.project(events, 2, 0))
        .isInstanceOf(CorruptScheduleLogException.class)
        .hasMessage("schedule presentation seq must identify the matching contiguous event");
  }

  @Test
  void theStateTextSeparatesEveryRecordAndEveryId() {
    ScheduleState state = ScheduleFold.fold(
        log().create("a", T1).create("b", T1).create("c", T1).delete("b").events(), 0);
    assertThat(state.toJson()).isEqualTo("{\"active\":["
        + "{\"id\":\"a\",\"kind\":\"at\",\"prompt\":\"prompt of a\",\"scheduledAt\":\"" + T1 + "\"},"
        + "{\"id\":\"c\",\"kind\":\"at\",\"prompt\":\"prompt of c\",\"scheduledAt\":\"" + T1 + "\"}"
        + "],\"seenIds\":[\"a\",\"b\",\"c\"]}");
  }

  @Test
  void theTwoErrorsWithTheirOwnShapeCannotBeBuiltAsBasicOnes() {
    assertThatThrownBy(() -> new ScheduleError.Basic(ErrorCode.PERSISTENCE_UNCERTAIN, "m"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScheduleError.Basic(ErrorCode.TIMEZONE_CONFIRMATION_REQUIRED, "m"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new ScheduleError.Basic(ErrorCode.NOT_FUTURE, "m").code()).isEqualTo(ErrorCode.NOT_FUTURE);
  }
}

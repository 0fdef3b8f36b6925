package dev.horae.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.EventTypes;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Spec §10: the reminder presentation projection and its examples table. */
class PresentationTest {

  private static final String AT = "2026-08-05T12:00:00.000Z";

  private static Logs c(Logs l, String id, String prompt) {
    return l.change(Logs.afterCreate(id, prompt, 30, AT));
  }

  private static Optional<ReminderPresentation> project(Logs l, long seq, long seed) {
    return ReminderPresentation.project(l.events(), seq, seed);
  }

  @Test
  void nearestPrecedingCreateAndTheForkFloor() {
    Logs l = c(c(Logs.log(), "same-id", "parent prompt").dispatch("same-id"), "same-id", "child prompt")
        .dispatch("same-id");
    assertThat(project(l, 1, 2)).map(ReminderPresentation::prompt).contains("parent prompt");
    assertThat(project(l, 3, 2)).map(ReminderPresentation::prompt).contains("child prompt");
    assertThat(project(l, 3, 2).orElseThrow().toJson()).isEqualTo(
        "{\"scheduleId\":\"same-id\",\"prompt\":\"child prompt\",\"occurrenceAt\":\"" + AT + "\"}");
  }

  @Test
  void nestedGenerationsAndResumedAncestors() {
    Logs l = c(c(Logs.log(), "same-id", "grandparent prompt").dispatch("same-id")
        .event(EventTypes.SESSION_END_SEED, Logs.json("{}")), "same-id", "parent prompt").dispatch("same-id");
    assertThat(project(l, 4, 5)).map(ReminderPresentation::prompt).contains("parent prompt");
    Logs resumed = c(Logs.log(), "resumed-id", "resumed prompt")
        .event(EventTypes.SESSION_END_SEED, Logs.json("{}")).dispatch("resumed-id");
    assertThat(project(resumed, 2, 3)).map(ReminderPresentation::prompt).contains("resumed prompt");
    Logs parentOnly = c(Logs.log(), "parent-only", "p")
        .event(EventTypes.SESSION_END_SEED, Logs.json("{}")).dispatch("parent-only");
    assertThatThrownBy(() -> project(parentOnly, 2, 2))
        .hasMessage("schedule dispatch targets inactive id \"parent-only\"");
  }

  @Test
  void otherIdsAreSkippedAndEndedIdsFail() {
    Logs l = c(c(Logs.log(), "target", "t"), "other", "o").delete("other").dispatch("target");
    assertThat(project(l, 3, 0)).map(ReminderPresentation::scheduleId).contains("target");
    Logs ended = c(Logs.log(), "ended", "e").delete("ended").dispatch("ended");
    assertThatThrownBy(() -> project(ended, 2, 0)).hasMessage("schedule dispatch targets inactive id \"ended\"");
  }

  @Test
  void nonDispatchEventsGiveNothing() {
    Logs l = c(Logs.log(), "a", "p").other(EventTypes.TURN_START).delete("a");
    assertThat(project(l, 0, 0)).isEmpty();
    assertThat(project(l, 1, 0)).isEmpty();
    assertThat(project(l, 2, 0)).isEmpty();
  }

  @Test
  void argumentChecksInOrder() {
    Logs l = c(Logs.log(), "a", "p").dispatch("a");
    assertThatThrownBy(() -> project(l, -1, 9))
        .hasMessage("schedule presentation seq must be a non-negative safe integer");
    assertThatThrownBy(() -> project(l, 1, 3))
        .hasMessage("schedule seedLength must be within the supplied event log");
    assertThatThrownBy(() -> project(l, 2, 0))
        .hasMessage("schedule presentation seq must identify the matching contiguous event");
    List<dev.horae.spi.session.SessionEvent> gappy = List.of(l.events().get(0),
        dev.horae.spi.session.SessionEvent.of(7, EventTypes.SCHEDULE_CHANGE, 0, l.events().get(1).data()));
    assertThatThrownBy(() -> ReminderPresentation.project(gappy, 1, 0))
        .hasMessage("schedule presentation seq must identify the matching contiguous event");
    Logs corrupt = Logs.log().change("{\"version\":1,\"operation\":\"dispatch\",\"id\":\" a\"}");
    assertThatThrownBy(() -> project(corrupt, 0, 0))
        .hasMessage("schedule id must be a non-empty string without surrounding whitespace");
  }
}

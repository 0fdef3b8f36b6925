package dev.horae.schedule;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The host-facing receipt of one dispatch (spec §10): the id, prompt and occurrence of the
 * nearest preceding create with the same id. Pure; it never changes folds, ownership or delivery.
 *
 * @param scheduleId the dispatched id
 * @param prompt the record's prompt
 * @param occurrenceAt the record's {@code scheduledAt}
 */
public record ReminderPresentation(String scheduleId, String prompt, String occurrenceAt) {

  /**
   * Checks presence.
   *
   * @param scheduleId as described on the record
   * @param prompt as described on the record
   * @param occurrenceAt as described on the record
   */
  public ReminderPresentation {
    Objects.requireNonNull(scheduleId, "scheduleId");
    Objects.requireNonNull(prompt, "prompt");
    Objects.requireNonNull(occurrenceAt, "occurrenceAt");
  }

  private static final String SEQ_MESSAGE =
      "schedule presentation seq must be a non-negative safe integer";
  private static final String SEED_MESSAGE =
      "schedule seedLength must be within the supplied event log";

  /**
   * {@code scheduleReminderPresentation(events, dispatchSeq, seedLength)}.
   *
   * <p>The current fork's {@code seedLength} is a hard floor only for child-owned dispatches; an
   * inherited dispatch searches its persisted prefix back to the start of the log.
   *
   * @param events the raw log, with contiguous seqs from 0
   * @param dispatchSeq the seq of the event to present
   * @param seedLength the current session's {@code seedLength}, 0 when absent
   * @return the presentation, or empty when the event is not a dispatch change
   * @throws CorruptScheduleLogException with the spec message when an argument does not identify
   *     an event, a change does not decode, or no matching create is found
   */
  public static Optional<ReminderPresentation> project(
      List<SessionEvent> events, long dispatchSeq, long seedLength) {
    if (dispatchSeq < 0 || !EcmaNumbers.isSafeInteger(dispatchSeq)) {
      throw new CorruptScheduleLogException(SEQ_MESSAGE);
    }
    if (seedLength < 0 || seedLength > events.size()) {
      throw new CorruptScheduleLogException(SEED_MESSAGE);
    }
    if (dispatchSeq >= events.size() || events.get((int) dispatchSeq).seq() != dispatchSeq) {
      throw new CorruptScheduleLogException(
          "schedule presentation seq must identify the matching contiguous event");
    }
    SessionEvent event = events.get((int) dispatchSeq);
    if (!event.type().equals(EventTypes.SCHEDULE_CHANGE)) {
      return Optional.empty();
    }
    ScheduleChange change = ChangeCodec.decode(event);
    if (!(change instanceof ScheduleChange.Dispatch)) {
      return Optional.empty();
    }
    String id = change.id();
    int floor = dispatchSeq < seedLength ? 0 : (int) seedLength;
    for (int i = (int) dispatchSeq - 1; i >= floor; i--) {
      SessionEvent earlier = events.get(i);
      if (!earlier.type().equals(EventTypes.SCHEDULE_CHANGE)) {
        continue;
      }
      ScheduleChange c = ChangeCodec.decode(earlier);
      if (!c.id().equals(id)) {
        continue;
      }
      if (c instanceof ScheduleChange.Create create) {
        ScheduleRecord r = create.record();
        return Optional.of(new ReminderPresentation(r.id(), r.prompt(), r.scheduledAt()));
      }
      break;
    }
    throw new CorruptScheduleLogException(
        "schedule dispatch targets inactive id " + EcmaJson.string(id));
  }

  /**
   * {@link #project(List, long, long)} with {@code dispatchSeq} and {@code seedLength} as the JSON
   * values a caller outside Java passes: a value that is not a safe integer (a fraction, a string,
   * {@code null}, {@code NaN}) fails the same checks, in the same order (spec §10).
   *
   * @param events the raw log, with contiguous seqs from 0
   * @param dispatchSeq the seq of the event to present, any JSON
   * @param seedLength the current session's {@code seedLength}, any JSON
   * @return the presentation, or empty when the event is not a dispatch change
   * @throws CorruptScheduleLogException as {@link #project(List, long, long)}
   */
  public static Optional<ReminderPresentation> project(
      List<SessionEvent> events, JsonNode dispatchSeq, JsonNode seedLength) {
    OptionalLong seq = EcmaNumbers.safeInteger(dispatchSeq);
    if (seq.isEmpty() || seq.getAsLong() < 0) {
      throw new CorruptScheduleLogException(SEQ_MESSAGE);
    }
    OptionalLong seed = EcmaNumbers.safeInteger(seedLength);
    if (seed.isEmpty()) {
      throw new CorruptScheduleLogException(SEED_MESSAGE);
    }
    return project(events, seq.getAsLong(), seed.getAsLong());
  }

  /**
   * The canonical JSON text {@code {"scheduleId","prompt","occurrenceAt"}}.
   *
   * @return compact JSON text
   */
  public String toJson() {
    StringBuilder out = new StringBuilder("{\"scheduleId\":");
    EcmaJson.appendString(out, scheduleId);
    out.append(",\"prompt\":");
    EcmaJson.appendString(out, prompt);
    out.append(",\"occurrenceAt\":");
    EcmaJson.appendString(out, occurrenceAt);
    return out.append('}').toString();
  }
}

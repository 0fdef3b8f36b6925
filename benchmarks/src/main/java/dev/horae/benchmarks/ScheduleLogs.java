package dev.horae.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.ScheduleChange;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds {@code schedule/change} payloads and whole logs through the public codec, so the inputs
 * are exactly what the library itself persists.
 */
public final class ScheduleLogs {

  /** The wall-clock time every generated event carries. */
  public static final long EVENT_TIME = Instant.parse("2026-07-14T00:00:00Z").toEpochMilli();

  // how many creates stay active before the oldest is ended: a realistic handful of reminders
  private static final int LIVE_WINDOW = 32;

  private ScheduleLogs() {}

  /**
   * A create change of an {@code after} reminder due ten minutes after {@link #EVENT_TIME}.
   *
   * @param id the schedule id
   * @return the change
   */
  public static ScheduleChange create(String id) {
    return new ScheduleChange.Create(
        new ScheduleRecord.After(id, "check the nightly build", 600, EVENT_TIME + 600_000));
  }

  /**
   * The persisted payload of {@link #create}.
   *
   * @param id the schedule id
   * @return a fresh payload
   */
  public static ObjectNode createPayload(String id) {
    return ChangeCodec.encode(create(id));
  }

  /**
   * The persisted payload of a delete change.
   *
   * @param id the target id
   * @return a fresh payload
   */
  public static ObjectNode deletePayload(String id) {
    return ChangeCodec.encode(new ScheduleChange.Delete(id));
  }

  /**
   * The persisted payload of a dispatch change.
   *
   * @param id the target id
   * @return a fresh payload
   */
  public static ObjectNode dispatchPayload(String id) {
    return ChangeCodec.encode(new ScheduleChange.Dispatch(id));
  }

  /**
   * A valid log of exactly {@code size} {@code schedule/change} events: creates of fresh ids, each
   * ended (alternately dispatched and deleted) once {@value #LIVE_WINDOW} later ones exist. Every
   * event is a schedule change, the worst case for the fold; real logs interleave other events,
   * which the fold only skips.
   *
   * @param size the number of events
   * @return the log, seq {@code 0..size-1}
   */
  public static List<SessionEvent> log(int size) {
    List<SessionEvent> events = new ArrayList<>(size);
    int created = 0;
    while (events.size() < size) {
      add(events, createPayload(id(created)));
      int ending = created - LIVE_WINDOW;
      if (ending >= 0 && events.size() < size) {
        add(events, ending % 2 == 0 ? dispatchPayload(id(ending)) : deletePayload(id(ending)));
      }
      created++;
    }
    return List.copyOf(events);
  }

  /**
   * The id of the {@code n}-th generated create.
   *
   * @param n the create's ordinal
   * @return the id
   */
  public static String id(long n) {
    return "sched-" + n;
  }

  private static void add(List<SessionEvent> events, ObjectNode data) {
    events.add(SessionEvent.of(events.size(), EventTypes.SCHEDULE_CHANGE, EVENT_TIME, data));
  }
}

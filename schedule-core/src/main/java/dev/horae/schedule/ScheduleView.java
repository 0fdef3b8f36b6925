package dev.horae.schedule;

import java.util.Objects;

/**
 * A record as the tools show it (spec §4.1): its members, then {@code state} and
 * {@code deliveryMode}.
 *
 * @param record the record
 * @param state scheduled or overdue at the sampled clock
 */
public record ScheduleView(ScheduleRecord record, State state) {

  /** Whether the target has been reached. */
  public enum State {
    /** {@code now < scheduledAt}. */
    SCHEDULED("scheduled"),
    /** {@code now >= scheduledAt}; equality counts as overdue. */
    OVERDUE("overdue");

    private final String wire;

    State(String wire) {
      this.wire = wire;
    }

    /**
     * The state as written in views.
     *
     * @return {@code scheduled} or {@code overdue}
     */
    public String wire() {
      return wire;
    }
  }

  /** The only v1 delivery mode. */
  public static final String DELIVERY_MODE = "session-local";

  /**
   * Checks presence.
   *
   * @param record as described on the record
   * @param state as described on the record
   */
  public ScheduleView {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(state, "state");
  }

  /**
   * {@code view(record, now)}.
   *
   * @param record the record
   * @param nowMillis the wall clock in epoch milliseconds, sampled by the caller
   * @return the view
   */
  public static ScheduleView of(ScheduleRecord record, long nowMillis) {
    return new ScheduleView(
        record, nowMillis >= record.scheduledAtMillis() ? State.OVERDUE : State.SCHEDULED);
  }

  /**
   * The canonical JSON text of the view.
   *
   * @return compact JSON text in spec member order
   */
  public String toJson() {
    return ScheduleJson.view(this);
  }
}

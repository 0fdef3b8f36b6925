package dev.horae.schedule;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.schedule.internal.RecordMembers;
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
     * The state of a record whose target is {@code scheduledAtMillis} at the sampled clock: the
     * target reached, equality included, is overdue.
     *
     * @param scheduledAtMillis the record's target in epoch milliseconds
     * @param nowMillis the wall clock in epoch milliseconds
     * @return the state
     */
    public static State at(long scheduledAtMillis, long nowMillis) {
      return nowMillis >= scheduledAtMillis ? OVERDUE : SCHEDULED;
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
    return new ScheduleView(record, State.at(record.scheduledAtMillis(), nowMillis));
  }

  /**
   * The canonical JSON text of the view.
   *
   * @return compact JSON text in spec member order
   */
  public String toJson() {
    return ScheduleJson.view(this);
  }

  /**
   * The view as a frozen JSON tree ({@link dev.horae.spi.json.FrozenJson}) with the same members in the same order as
   * {@link #toJson()}, for hosts whose tool values are trees: no text round trip, and a tool
   * registry hands it on without copying it.
   *
   * @return an immutable object node
   */
  public ObjectNode toTree() {
    return RecordMembers.view(record, state);
  }
}

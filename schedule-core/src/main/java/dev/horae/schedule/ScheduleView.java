package dev.horae.schedule;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.LinkedHashMap;
import java.util.List;
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

  private static final TextNode DELIVERY_MODE_NODE = TextNode.valueOf(DELIVERY_MODE);
  private static final TextNode SCHEDULED_NODE = TextNode.valueOf(State.SCHEDULED.wire());
  private static final TextNode OVERDUE_NODE = TextNode.valueOf(State.OVERDUE.wire());

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

  /**
   * The view as a fresh JSON tree with the same members in the same order as {@link #toJson()},
   * for hosts whose tool values are trees: building it directly costs no text round trip.
   *
   * @return a new object node; the caller owns it
   */
  public ObjectNode toTree() {
    // seven members at most: eight buckets at load factor 1 hold them without a resize, half the
    // table a default map starts with (a list of a million views builds a million of these)
    ObjectNode out = new ObjectNode(JsonNodeFactory.instance, new LinkedHashMap<>(8, 1.0f));
    ChangeCodec.putRecordMembers(out, record);
    // text nodes are immutable, so every view shares the constant ones
    out.set("state", state == State.OVERDUE ? OVERDUE_NODE : SCHEDULED_NODE);
    out.set("deliveryMode", DELIVERY_MODE_NODE);
    return out;
  }

  /**
   * The {@code schedule_list} value as a tree: {@code view(record, now)} of every record, in the
   * given order, with one clock sample for all rows (spec §7 step 6). Linear in the records.
   *
   * @param records the records, in creation order
   * @param nowMillis the wall clock in epoch milliseconds, sampled once by the caller
   * @return a new array node; the caller owns it
   */
  public static ArrayNode listTree(List<ScheduleRecord> records, long nowMillis) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode(records.size());
    for (ScheduleRecord r : records) {
      out.add(of(r, nowMillis).toTree());
    }
    return out;
  }
}

package dev.horae.schedule.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.schedule.ScheduleView;
import dev.horae.spi.json.FrozenJson;
import org.jspecify.annotations.Nullable;

/**
 * A record's members as a lazy frozen object, the one place that orders them as a tree: {@code id,
 * kind, prompt, [afterSeconds,] scheduledAt} (spec §3.2, a create's {@code schedule} member), and
 * for a view (spec §4.1) then {@code state} and {@code deliveryMode}.
 *
 * <p>It holds the record's fields as {@link CompactText}, shared with the {@link RecordIndex} slot
 * it comes from (those arrays never change), and builds a member's node when it is read. A {@code
 * schedule_list} row is one of these, built when the row is read and dropped after, instead of a
 * member map with its nodes and strings (about 600 bytes a row, kept for the whole list; issue 19).
 */
public final class RecordMembers implements FrozenJson.Members {

  private static final int ID = 0;
  private static final int KIND = 1;
  private static final int PROMPT = 2;
  private static final int AFTER_SECONDS = 3;
  private static final int SCHEDULED_AT = 4;
  private static final int STATE = 5;
  private static final int DELIVERY_MODE_MEMBER = 6;
  /** Member names by the codes above. */
  private static final String[] NAMES = {
    "id", "kind", "prompt", "afterSeconds", "scheduledAt", "state", "deliveryMode"
  };
  /** The members of an at record's tree, in order: every code but {@code afterSeconds}. */
  private static final int[] AT_MEMBERS = {ID, KIND, PROMPT, SCHEDULED_AT, STATE, DELIVERY_MODE_MEMBER};
  /** The members of an after record's tree, in order. */
  private static final int[] AFTER_MEMBERS = {ID, KIND, PROMPT, AFTER_SECONDS, SCHEDULED_AT, STATE, DELIVERY_MODE_MEMBER};
  // text nodes are immutable, so every tree shares the constant ones
  private static final TextNode KIND_AT = TextNode.valueOf("at");
  private static final TextNode KIND_AFTER = TextNode.valueOf("after");
  private static final TextNode DELIVERY_MODE = TextNode.valueOf(ScheduleView.DELIVERY_MODE);
  private static final TextNode SCHEDULED = TextNode.valueOf(ScheduleView.State.SCHEDULED.wire());
  private static final TextNode OVERDUE = TextNode.valueOf(ScheduleView.State.OVERDUE.wire());

  private final byte[] id;
  private final byte[] prompt;
  private final long scheduledAtMillis;
  /** The after record's delay; 0 for an at record (an after record's is at least 1). */
  private final long afterSeconds;
  private final boolean idWide;
  private final boolean promptWide;
  /** The view's state, or null for the record's members alone. */
  private final ScheduleView.@Nullable State state;

  RecordMembers(
      byte[] id,
      boolean idWide,
      byte[] prompt,
      boolean promptWide,
      long scheduledAtMillis,
      long afterSeconds,
      ScheduleView.@Nullable State state) {
    this.id = id;
    this.idWide = idWide;
    this.prompt = prompt;
    this.promptWide = promptWide;
    this.scheduledAtMillis = scheduledAtMillis;
    this.afterSeconds = afterSeconds;
    this.state = state;
  }

  private static RecordMembers of(ScheduleRecord record, ScheduleView.@Nullable State state) {
    boolean idWide = CompactText.wide(record.id());
    boolean promptWide = CompactText.wide(record.prompt());
    return new RecordMembers(
        CompactText.of(record.id(), idWide),
        idWide,
        CompactText.of(record.prompt(), promptWide),
        promptWide,
        record.scheduledAtMillis(),
        record instanceof ScheduleRecord.After a ? a.afterSeconds() : 0,
        state);
  }

  /**
   * The record's members alone, as a create's {@code schedule} member holds them.
   *
   * @param record the record
   * @return a frozen object
   */
  public static ObjectNode record(ScheduleRecord record) {
    return FrozenJson.object(of(record, null));
  }

  /**
   * The record's view: its members, then {@code state} and {@code deliveryMode}.
   *
   * @param record the record
   * @param state its state at the sampled clock
   * @return a frozen object
   */
  public static ObjectNode view(ScheduleRecord record, ScheduleView.State state) {
    return FrozenJson.object(of(record, state));
  }

  private int[] members() {
    return afterSeconds == 0 ? AT_MEMBERS : AFTER_MEMBERS;
  }

  @Override
  public int size() {
    return members().length - (state == null ? 2 : 0);
  }

  @Override
  public String name(int index) {
    return NAMES[members()[checked(index)]];
  }

  @Override
  public JsonNode value(int index) {
    return switch (members()[checked(index)]) {
      case ID -> TextNode.valueOf(CompactText.text(id, idWide));
      case KIND -> afterSeconds == 0 ? KIND_AT : KIND_AFTER;
      case PROMPT -> TextNode.valueOf(CompactText.text(prompt, promptWide));
      case AFTER_SECONDS -> LongNode.valueOf(afterSeconds);
      case SCHEDULED_AT -> TextNode.valueOf(UtcInstants.format(scheduledAtMillis));
      case STATE -> state == ScheduleView.State.OVERDUE ? OVERDUE : SCHEDULED;
      default -> DELIVERY_MODE;
    };
  }

  @Override
  public JsonNodeType type(int index) {
    // a schema that checks only the kind of the texts builds none of them (issue 19: a list of a
    // million rows is validated before it is rendered)
    return members()[checked(index)] == AFTER_SECONDS ? JsonNodeType.NUMBER : JsonNodeType.STRING;
  }

  private int checked(int index) {
    if (index < 0 || index >= size()) {
      throw new IndexOutOfBoundsException("member " + index + " of " + size());
    }
    return index;
  }
}

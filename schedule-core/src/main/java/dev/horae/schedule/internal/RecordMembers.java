package dev.horae.schedule.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.schedule.ScheduleJson;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.schedule.ScheduleView;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.json.FrozenJson;
import org.jspecify.annotations.Nullable;

/**
 * A record's members as a lazy frozen object, the one place that orders them, as a tree and as
 * text: {@code id, kind, prompt, [afterSeconds,] scheduledAt} (spec §3.2, a create's {@code
 * schedule} member), and for a view (spec §4.1) then {@code state} and {@code deliveryMode}.
 *
 * <p>It holds the record's fields as {@link CompactText}, shared with the {@link RecordIndex} slot
 * it comes from (those arrays never change), and builds a member's node when it is read. A {@code
 * schedule_list} row is one of these, built when the row is read and dropped after, instead of a
 * member map with its nodes and strings (about 600 bytes a row, kept for the whole list; issue 19).
 * It writes its own canonical text ({@link #appendJson}, the text {@link ScheduleJson} writes for
 * records and views too): the names and constant values between the three variable texts are
 * written once here, instead of being scanned and quoted member by member for every row.
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

  // the text between the variable parts: '{"id":' id ',"kind":"at","prompt":' prompt
  // [',"afterSeconds":' n] ',"scheduledAt":"' instant, then the tail of a record or of a view
  private static final String ID_TEXT = "{" + EcmaJson.string(NAMES[ID]) + ":";
  private static final String AT_PROMPT_TEXT = kindThenPrompt(KIND_AT);
  private static final String AFTER_PROMPT_TEXT = kindThenPrompt(KIND_AFTER);
  private static final String AFTER_SECONDS_TEXT = "," + EcmaJson.string(NAMES[AFTER_SECONDS]) + ":";
  private static final String SCHEDULED_AT_TEXT = "," + EcmaJson.string(NAMES[SCHEDULED_AT]) + ":\"";
  private static final String RECORD_TAIL = "\"}";
  private static final String SCHEDULED_TAIL = viewTail(SCHEDULED);
  private static final String OVERDUE_TAIL = viewTail(OVERDUE);

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
        afterSecondsOf(record),
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

  private static String kindThenPrompt(TextNode kind) {
    return "," + EcmaJson.string(NAMES[KIND]) + ":" + EcmaJson.write(kind) + "," + EcmaJson.string(NAMES[PROMPT]) + ":";
  }

  private static String viewTail(TextNode state) {
    return "\"," + EcmaJson.string(NAMES[STATE]) + ":" + EcmaJson.write(state) + ","
        + EcmaJson.string(NAMES[DELIVERY_MODE_MEMBER]) + ":" + EcmaJson.write(DELIVERY_MODE) + "}";
  }

  /**
   * Appends the canonical text of a record's members ({@code state} null) or of its view, as
   * {@link EcmaJson} writes the tree of {@link #record} or {@link #view}.
   *
   * @param out the buffer
   * @param record the record
   * @param state the view's state, or null for the record's members alone
   */
  public static void appendText(StringBuilder out, ScheduleRecord record, ScheduleView.@Nullable State state) {
    appendText(out, record.id(), record.prompt(), afterSecondsOf(record), record.scheduledAtMillis(), state);
  }

  private static void appendText(
      StringBuilder out, String id, String prompt, long afterSeconds, long scheduledAtMillis, ScheduleView.@Nullable State state) {
    out.append(ID_TEXT);
    EcmaJson.appendString(out, id);
    out.append(afterSeconds == 0 ? AT_PROMPT_TEXT : AFTER_PROMPT_TEXT);
    EcmaJson.appendString(out, prompt);
    if (afterSeconds != 0) {
      // a safe integer (ScheduleRecord.After), which JSON.stringify writes as its digits
      out.append(AFTER_SECONDS_TEXT).append(afterSeconds);
    }
    out.append(SCHEDULED_AT_TEXT).append(UtcInstants.format(scheduledAtMillis));
    out.append(state == null ? RECORD_TAIL : state == ScheduleView.State.OVERDUE ? OVERDUE_TAIL : SCHEDULED_TAIL);
  }

  private static long afterSecondsOf(ScheduleRecord record) {
    return record instanceof ScheduleRecord.After a ? a.afterSeconds() : 0;
  }

  /**
   * Writes this object's canonical text in one pass (see the class comment).
   *
   * @param out the buffer
   * @return true
   */
  @Override
  public boolean appendJson(StringBuilder out) {
    appendText(out, CompactText.text(id, idWide), CompactText.text(prompt, promptWide), afterSeconds, scheduledAtMillis, state);
    return true;
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

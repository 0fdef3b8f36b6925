package dev.horae.schedule;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.schedule.internal.RecordMembers;
import dev.horae.schedule.internal.UtcInstants;
import dev.horae.spi.session.SessionEvent;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The strict version-1 {@code schedule/change} codec (spec §3.2–§3.4).
 *
 * <p>Decoding runs the spec's checks in their exact order, so the first failure decides the
 * message. There is one decoder, a streaming one: it reads a stored event's payload bytes
 * ({@link #decode(SessionEvent)}, what the fold does for every change on open) or walks a tree
 * ({@link #decode(JsonNode)}) with the same code, so both give the same change or the same error.
 * A stored payload in exactly the text this library writes is read first by a short path without a
 * parser ({@link CanonicalChange}), which answers only what this decoder would.
 * Encoding writes the members in the order the library persists.
 */
public final class ChangeCodec {

  private ChangeCodec() {}

  /**
   * Decodes one payload strictly.
   *
   * @param payload the event's {@code data}
   * @return the change
   * @throws CorruptScheduleLogException with the spec's decoder message on the first failed check
   */
  public static ScheduleChange decode(JsonNode payload) {
    // the tree is walked as tokens by the one decoder the stored bytes use (decode(SessionEvent))
    try (JsonParser p = payload.traverse()) {
      return decode(p);
    } catch (IOException e) {
      throw new IllegalStateException("walking a tree in memory failed", e);
    }
  }

  /**
   * Decodes the payload of a {@code schedule/change} event strictly, straight from its stored
   * text: no tree is built, so a fold over a long log pays one streaming pass per change. The
   * value and the error are those of {@link #decode(JsonNode)} of {@code event.data()} for every
   * payload (the same decoder reads both).
   *
   * @param event an event whose payload is a change (its type is not checked here)
   * @return the change
   * @throws CorruptScheduleLogException with the spec's decoder message on the first failed check
   */
  public static ScheduleChange decode(SessionEvent event) {
    // the text this library writes is read without a parser; any other text by the full decoder
    ScheduleChange canonical = CanonicalChange.read(event);
    if (canonical != null) {
      return canonical;
    }
    try (JsonParser p = event.dataParser()) {
      return decode(p);
    } catch (IOException e) {
      // an event holds only text the shared parser reads (SessionEvent's invariant)
      throw new IllegalStateException("an event's payload did not read back", e);
    }
  }

  /**
   * The decoder: reads the members of the payload and of its {@code schedule} object once, as a
   * tree would hold them (a repeated name keeps its last value, as Jackson's tree does), then runs
   * the spec's checks in their order on what was read, so a failure names the same first check
   * whatever order the members were written in.
   */
  private static ScheduleChange decode(JsonParser p) throws IOException {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      throw corrupt("schedule/change payload must be an object");
    }
    Members payload = Members.read(p, TOP);
    if (payload.kinds[VERSION] != NUMBER || payload.numbers[VERSION] != 1.0) {
      throw corrupt("schedule/change version must be 1");
    }
    String op = payload.text(OPERATION);
    switch (op) {
      case "create" -> {
        if (!payload.hasExactly(VERSION, OPERATION, SCHEDULE)) {
          throw corrupt("schedule create must contain exactly version, operation, and schedule");
        }
        return new ScheduleChange.Create(decodeRecord(payload));
      }
      case "delete", "dispatch" -> {
        if (!payload.hasExactly(VERSION, OPERATION, ID)) {
          throw corrupt("schedule " + op + " must contain exactly version, operation, and id");
        }
        String id = checkedId(payload.string(ID));
        return op.equals("delete") ? new ScheduleChange.Delete(id) : new ScheduleChange.Dispatch(id);
      }
      default -> throw corrupt("schedule/change operation must be create, delete, or dispatch");
    }
  }

  /**
   * Encodes a change as a fresh JSON object in persisted member order.
   *
   * @param change the change
   * @return a new object node; the caller owns it (its {@code schedule} member is frozen)
   */
  public static ObjectNode encode(ScheduleChange change) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode o = f.objectNode();
    o.put("version", 1);
    o.put("operation", change.operation());
    if (change instanceof ScheduleChange.Create create) {
      // frozen and lazy, in the members' one order (RecordMembers)
      o.set("schedule", RecordMembers.record(create.record()));
    } else {
      o.put("id", change.id());
    }
    return o;
  }

  /**
   * Encodes a change as canonical JSON text (spec §3.2 member order, {@code JSON.stringify}
   * strings).
   *
   * @param change the change
   * @return compact JSON text
   */
  public static String encodeText(ScheduleChange change) {
    return ScheduleJson.change(change);
  }

  private static ScheduleRecord decodeRecord(Members payload) {
    Members schedule = payload.record;
    if (schedule == null) {
      throw corrupt("schedule record must be an object");
    }
    switch (schedule.text(R_KIND)) {
      case "after" -> {
        if (!schedule.hasExactly(R_ID, R_KIND, R_PROMPT, R_AFTER, R_AT)) {
          throw corrupt(
              "after schedule must contain exactly id, kind, prompt, afterSeconds, and scheduledAt");
        }
        String prompt = checkedPrompt(schedule.string(R_PROMPT), "after");
        long after = checkedAfterSeconds(schedule.kinds[R_AFTER] == NUMBER ? schedule.numbers[R_AFTER] : Double.NaN);
        String id = checkedId(schedule.string(R_ID));
        long at = checkedInstant(schedule.string(R_AT));
        return new ScheduleRecord.After(id, prompt, after, at);
      }
      case "at" -> {
        if (!schedule.hasExactly(R_ID, R_KIND, R_PROMPT, R_AT)) {
          throw corrupt("at schedule must contain exactly id, kind, prompt, and scheduledAt");
        }
        String prompt = checkedPrompt(schedule.string(R_PROMPT), "at");
        String id = checkedId(schedule.string(R_ID));
        long at = checkedInstant(schedule.string(R_AT));
        return new ScheduleRecord.At(id, prompt, at);
      }
      default -> throw corrupt("v1 schedule kind must be \"after\" or \"at\"");
    }
  }

  // The value checks of spec §3.3, shared by this decoder and the short path (CanonicalChange), so a
  // payload fails on the same check with the same message whichever reads it. A member that is not
  // a string (or not a number) comes as null (or NaN), which fails its check.

  /** A record's prompt: non-empty and already trimmed. */
  static String checkedPrompt(@Nullable String prompt, String kind) {
    if (prompt == null || !EcmaText.isNonEmptyTrimmed(prompt)) {
      throw corrupt(kind + " prompt must be non-empty and already trimmed");
    }
    return prompt;
  }

  /** A positive safe integer (EcmaNumbers' rule, on the number's double value as a tree reads it). */
  static long checkedAfterSeconds(double after) {
    if (!EcmaNumbers.isSafeInteger(after) || (long) after <= 0) {
      throw corrupt("afterSeconds must be a positive safe integer");
    }
    return (long) after;
  }

  /** A schedule id: a non-empty string without surrounding whitespace. */
  static String checkedId(@Nullable String id) {
    if (id == null || !EcmaText.isNonEmptyTrimmed(id)) {
      throw corrupt("schedule id must be a non-empty string without surrounding whitespace");
    }
    return id;
  }

  /** A canonical, real UTC instant, as epoch milliseconds. */
  static long checkedInstant(@Nullable String text) {
    if (text == null) {
      throw corrupt("scheduledAt must be a canonical four-digit-year RFC 3339 UTC instant");
    }
    return switch (UtcInstants.classify(text)) {
      case CANONICAL -> UtcInstants.epochOfCanonical(text);
      case NOT_REAL -> throw corrupt("scheduledAt is not a real UTC calendar instant");
      case GRAMMAR ->
          throw corrupt("scheduledAt must be a canonical four-digit-year RFC 3339 UTC instant");
    };
  }

  // the kinds of value a member can hold, as far as the checks tell them apart
  private static final byte ABSENT = 0;
  private static final byte STRING = 1;
  private static final byte NUMBER = 2;
  private static final byte OTHER = 3;

  // the member names each object's checks read, and their slots
  private static final String[] TOP = {"version", "operation", "schedule", "id"};
  private static final int VERSION = 0;
  private static final int OPERATION = 1;
  private static final int SCHEDULE = 2;
  private static final int ID = 3;
  private static final String[] RECORD = {"id", "kind", "prompt", "afterSeconds", "scheduledAt"};
  private static final int R_ID = 0;
  private static final int R_KIND = 1;
  private static final int R_PROMPT = 2;
  private static final int R_AFTER = 3;
  private static final int R_AT = 4;

  /**
   * The members of one JSON object as the checks see them: for each name they read, what kind of
   * value it holds and its text or number; other names are only counted. This is all a tree
   * would tell the checks, held without the tree.
   */
  private static final class Members {
    final String[] names;
    final byte[] kinds;
    final @Nullable String[] texts;
    final double[] numbers;
    /** Distinct names the checks do not read, created for the first of them. */
    @Nullable Set<String> others;
    /** The {@code schedule} member's members, when it holds an object (the top object only). */
    @Nullable Members record;

    private Members(String[] names) {
      this.names = names;
      this.kinds = new byte[names.length];
      this.texts = new String[names.length];
      this.numbers = new double[names.length];
    }

    /** Reads the object the parser stands on (its start), leaving the parser on its end. */
    static Members read(JsonParser p, String[] names) throws IOException {
      Members m = new Members(names);
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        int slot = m.slot(name);
        if (slot < 0) {
          if (m.others == null) {
            m.others = new HashSet<>();
          }
          m.others.add(name);
          p.skipChildren();
          continue;
        }
        // a repeated name replaces the earlier value, whatever it was
        m.texts[slot] = null;
        m.numbers[slot] = 0;
        if (names == TOP && slot == SCHEDULE) {
          m.record = null;
        }
        switch (value) {
          case VALUE_STRING -> {
            m.kinds[slot] = STRING;
            m.texts[slot] = p.getText();
          }
          case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
            m.kinds[slot] = NUMBER;
            m.numbers[slot] = doubleValue(p);
          }
          case START_OBJECT -> {
            m.kinds[slot] = OTHER;
            if (names == TOP && slot == SCHEDULE) {
              m.record = read(p, RECORD);
            } else {
              p.skipChildren();
            }
          }
          default -> {
            m.kinds[slot] = OTHER;
            p.skipChildren();
          }
        }
      }
      return m;
    }

    private int slot(String name) {
      for (int i = 0; i < names.length; i++) {
        if (names[i].equals(name)) {
          return i;
        }
      }
      return -1;
    }

    /** The member's text when it is a string, else null. */
    @Nullable String string(int slot) {
      return kinds[slot] == STRING ? texts[slot] : null;
    }

    /** The member's text when it is a string, else the empty text (no operation or kind). */
    String text(int slot) {
      String t = texts[slot];
      return kinds[slot] == STRING && t != null ? t : "";
    }

    /** Whether the object's names are exactly these slots' names (each held once, as in a tree). */
    boolean hasExactly(int... slots) {
      int present = others == null ? 0 : others.size();
      for (byte kind : kinds) {
        if (kind != ABSENT) {
          present++;
        }
      }
      if (present != slots.length) {
        return false;
      }
      for (int slot : slots) {
        if (kinds[slot] == ABSENT) {
          return false;
        }
      }
      return true;
    }

    /**
     * The number's double value as the tree's node gives it: a decimal is read as the exact
     * decimal the tree holds (then rounded once); a non-finite double (only a walked tree holds
     * one) as itself.
     */
    private static double doubleValue(JsonParser p) throws IOException {
      return switch (p.getNumberType()) {
        case INT, LONG -> (double) p.getLongValue();
        case BIG_INTEGER -> p.getBigIntegerValue().doubleValue();
        case BIG_DECIMAL -> p.getDecimalValue().doubleValue();
        case FLOAT, DOUBLE -> p.isNaN() ? p.getDoubleValue() : p.getDecimalValue().doubleValue();
      };
    }
  }

  private static CorruptScheduleLogException corrupt(String message) {
    return new CorruptScheduleLogException(message);
  }
}

package dev.horae.schedule;

import dev.horae.spi.session.SessionEvent;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The decoder's short path: a payload written exactly as the library persists a change ({@link
 * ChangeCodec#encode}'s members in their order, compact, every string well-formed UTF-8 without
 * an escape or a control character) is read straight from its bytes, without a parser. The values
 * it holds go through the full decoder's own checks ({@code ChangeCodec.checked…}: spec §3.3, id
 * and prompt trimmed and non-empty, {@code afterSeconds} a positive safe integer, {@code
 * scheduledAt} canonical), in its order, so a value they refuse fails with the same error. Any other text is left to the
 * full decoder; so this path answers what the full decoder would answer.
 *
 * <p>Why: opening a session folds its whole log, and the full decoder's parse of every change was
 * the largest share of a million-event open (docs/performance.md, "Canonical changes", issue 19).
 */
final class CanonicalChange {

  private static final byte[] START = ascii("{\"version\":1,\"operation\":\"");
  private static final byte[] CREATE = ascii("create\",\"schedule\":{\"id\":\"");
  private static final byte[] DISPATCH = ascii("dispatch\",\"id\":\"");
  private static final byte[] DELETE = ascii("delete\",\"id\":\"");
  private static final byte[] KIND = ascii("\",\"kind\":\"");
  private static final byte[] AFTER = ascii("after\",\"prompt\":\"");
  private static final byte[] AT = ascii("at\",\"prompt\":\"");
  private static final byte[] AFTER_SECONDS = ascii("\",\"afterSeconds\":");
  private static final byte[] SCHEDULED_AT_AFTER_NUMBER = ascii(",\"scheduledAt\":\"");
  private static final byte[] SCHEDULED_AT = ascii("\",\"scheduledAt\":\"");
  private static final byte[] END_ID = ascii("\"}");
  private static final byte[] END_RECORD = ascii("\"}}");
  /** 15 digits stay below 2^53: a safe integer without a check of its value. */
  private static final int MAX_DIGITS = 15;

  /** The text of a range of the payload's bytes, decoded as UTF-8. */
  @FunctionalInterface
  interface Texts {
    String text(int from, int to);
  }

  /** The payload's bytes, copied once: array reads are cheaper than a read-only buffer's. */
  private final byte[] bytes;
  private final Texts texts;
  private int at;

  private CanonicalChange(ByteBuffer payload, Texts texts) {
    this.bytes = new byte[payload.remaining()];
    payload.get(payload.position(), bytes);
    this.texts = texts;
  }

  /**
   * The change an event's payload in the persisted layout holds, when every check passes; its
   * strings are decoded straight from the event's bytes ({@link SessionEvent#payloadText}).
   *
   * @param event the event
   * @return the change, or null when the full decoder must read the payload
   */
  static @Nullable ScheduleChange read(SessionEvent event) {
    return new CanonicalChange(event.payload(), event::payloadText).change();
  }

  /**
   * The change a payload in the persisted layout holds, when every check passes: the same reading
   * over bytes that need not be an event's ({@code CanonicalChangeTest} feeds it malformed UTF-8,
   * which no stored event holds).
   *
   * @param payload the payload's bytes (position 0)
   * @return the change, or null when the full decoder must read the payload
   */
  static @Nullable ScheduleChange read(ByteBuffer payload) {
    return new CanonicalChange(payload, (from, to) -> new String(copy(payload, from, to), StandardCharsets.UTF_8)).change();
  }

  private @Nullable ScheduleChange change() {
    if (!literal(START)) {
      return null;
    }
    if (literal(CREATE)) {
      return create();
    }
    boolean dispatch = literal(DISPATCH);
    if (!dispatch && !literal(DELETE)) {
      return null;
    }
    String id = string();
    if (id == null || !literal(END_ID) || !ended()) {
      return null;
    }
    String checked = ChangeCodec.checkedId(id);
    return dispatch ? new ScheduleChange.Dispatch(checked) : new ScheduleChange.Delete(checked);
  }

  private @Nullable ScheduleChange create() {
    String id = string();
    if (id == null || !literal(KIND)) {
      return null;
    }
    boolean after = literal(AFTER);
    if (!after && !literal(AT)) {
      return null;
    }
    String prompt = string();
    if (prompt == null) {
      return null;
    }
    long seconds = 0;
    if (after) {
      if (!literal(AFTER_SECONDS)) {
        return null;
      }
      seconds = digits();
      if (seconds < 0 || !literal(SCHEDULED_AT_AFTER_NUMBER)) {
        return null;
      }
    } else if (!literal(SCHEDULED_AT)) {
      return null;
    }
    String instant = string();
    if (instant == null || !literal(END_RECORD) || !ended()) {
      return null;
    }
    // the full decoder's value checks, in its order: a value they refuse fails here as it would there
    String kind = after ? "after" : "at";
    String checkedPrompt = ChangeCodec.checkedPrompt(prompt, kind);
    // at most 15 digits: the double is exact
    long checkedSeconds = after ? ChangeCodec.checkedAfterSeconds((double) seconds) : 0;
    String checkedId = ChangeCodec.checkedId(id);
    long millis = ChangeCodec.checkedInstant(instant);
    return new ScheduleChange.Create(after
        ? new ScheduleRecord.After(checkedId, checkedPrompt, checkedSeconds, millis)
        : new ScheduleRecord.At(checkedId, checkedPrompt, millis));
  }

  /** Steps over {@code expected} when the bytes at the cursor are exactly it. */
  private boolean literal(byte[] expected) {
    int end = at + expected.length;
    if (end > bytes.length || !Arrays.equals(bytes, at, end, expected, 0, expected.length)) {
      return false;
    }
    at = end;
    return true;
  }

  /**
   * The string whose text runs from the cursor to the next quote, the cursor left on that quote;
   * null when it holds an escape, a control character or DEL, or bytes that are not well-formed
   * UTF-8 (the full decoder reads those). No byte of a multi-byte UTF-8 sequence is a quote.
   */
  private @Nullable String string() {
    int start = at;
    boolean ascii = true;
    for (int i = start; i < bytes.length; i++) {
      byte b = bytes[i];
      if (b == '"') {
        String value = texts.text(start, i);
        // decoding replaces what is not well-formed, so only well-formed bytes encode back to
        // themselves: those the full decoder reads as the same text
        if (!ascii) {
          byte[] encoded = value.getBytes(StandardCharsets.UTF_8);
          if (!Arrays.equals(encoded, 0, encoded.length, bytes, start, i)) {
            return null;
          }
        }
        at = i;
        return value;
      }
      if (b < 0) {
        ascii = false;
      } else if (b < 0x20 || b == 0x7f || b == '\\') {
        return null;
      }
    }
    return null;
  }

  /**
   * A whole number without a leading zero, of at most 15 digits (so its double is exact); -1 when
   * the bytes at the cursor are not one.
   */
  private long digits() {
    long value = 0;
    int start = at;
    while (at < bytes.length && at - start <= MAX_DIGITS) {
      byte b = bytes[at];
      if (b < '0' || b > '9') {
        break;
      }
      value = value * 10 + (b - '0');
      at++;
    }
    int count = at - start;
    if (count == 0 || count > MAX_DIGITS || (count > 1 && bytes[start] == '0')) {
      return -1;
    }
    return value;
  }

  private boolean ended() {
    return at == bytes.length;
  }

  private static byte[] copy(ByteBuffer bytes, int from, int to) {
    byte[] copy = new byte[to - from];
    bytes.get(from, copy);
    return copy;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}

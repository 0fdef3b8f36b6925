package dev.horae.spi.session;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A store's short path for one event: text in exactly the layout {@link EventCodec#write} gives
 * ({@code {"seq":…,"type":"…","time":…,"data":…}}, then {@code surfaceOp} and {@code
 * sourceEventSeqs} when present, compact, numbers in their plain form, a type of printable ASCII
 * without an escape) whose payload lies in {@link JsonScan}'s subset is read without a parser.
 * Anything else gives null, and the caller reads the text with the parser, which gives the answer
 * and its error. So this path answers exactly what the parser would, or nothing.
 *
 * <p>Why: a store's load reads every event of a log, and creating a parser for each row and
 * stepping through its payload was most of a million-row JDBC load (docs/performance.md,
 * "Canonical events", issue 19).
 */
final class CanonicalEvent {

  private static final byte[] SEQ = "{\"seq\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TYPE = ",\"type\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TIME = "\",\"time\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] DATA = ",\"data\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] SURFACE_OP = ",\"surfaceOp\":{\"op\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] APPEND = "append\"}".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] REPLACE = "replace\",\"start\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END = ",\"end\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] SOURCES = ",\"sourceEventSeqs\":[".getBytes(StandardCharsets.US_ASCII);
  /** 18 digits always fit a long. */
  private static final int MAX_DIGITS = 18;

  private final byte[] b;
  private final int to;
  private int at;
  /** The last integer read. */
  private long value;

  private CanonicalEvent(byte[] b, int from, int to) {
    this.b = b;
    this.at = from;
    this.to = to;
  }

  /**
   * The event of {@code utf8[offset, offset + length)} when it is in the layout above.
   *
   * @param utf8 the bytes
   * @param offset where the text starts
   * @param length how many bytes it has
   * @param blocks where the payload is copied, or null for an array of its own
   * @return the event, equal to what the parser reads, or null when the parser must read the text
   */
  static @Nullable SessionEvent read(byte[] utf8, int offset, int length, @Nullable PayloadBlocks blocks) {
    if (!usable(length)) {
      return null;
    }
    CanonicalEvent reader = new CanonicalEvent(utf8, offset, offset + length);
    SessionEvent event = reader.event(blocks);
    return event != null && reader.at == reader.to ? event : null;
  }

  /**
   * The events of {@code utf8[offset, offset + length)} when it is a stored line's array in the
   * layout {@link EventCodec#writeArray} gives ({@code [event,event,…]}, each event in the layout
   * above), followed by nothing but JSON white space.
   *
   * @param utf8 the bytes
   * @param offset where the text starts
   * @param length how many bytes it has
   * @param blocks where the payloads are copied, or null for an array each
   * @return the events, equal to what the parser reads, or null when the parser must read the text
   *     (the payloads of the events before the one that sent it there may have been copied into
   *     {@code blocks} already: unused room, never read)
   */
  static @Nullable List<SessionEvent> readArray(byte[] utf8, int offset, int length, @Nullable PayloadBlocks blocks) {
    if (!usable(length)) {
      return null;
    }
    CanonicalEvent reader = new CanonicalEvent(utf8, offset, offset + length);
    if (!reader.next('[')) {
      return null;
    }
    List<SessionEvent> events = new ArrayList<>();
    do {
      SessionEvent event = reader.event(blocks);
      if (event == null) {
        return null;
      }
      events.add(event);
    } while (reader.next(','));
    if (!reader.next(']')) {
      return null;
    }
    return JsonScan.space(utf8, reader.at, reader.to) == reader.to ? events : null;
  }

  private static boolean usable(int length) {
    return JsonScan.USABLE && length <= JsonScan.MAX_TEXT;
  }

  // one event at the reader's position, which it leaves after the event's closing brace
  private @Nullable SessionEvent event(@Nullable PayloadBlocks blocks) {
    if (!literal(SEQ) || !integer(false)) {
      return null;
    }
    long seq = value;
    if (!literal(TYPE)) {
      return null;
    }
    int typeStart = at;
    boolean blank = true;
    while (at < to && b[at] >= 0x20 && b[at] < 0x7F && b[at] != '"' && b[at] != '\\') {
      blank &= b[at] == ' ';
      at++;
    }
    int typeEnd = at;
    // a blank type is refused by the event: the parser's path gives that error
    if (blank || !literal(TIME) || !integer(true)) {
      return null;
    }
    long time = value;
    if (!literal(DATA)) {
      return null;
    }
    int dataStart = at;
    int dataEnd = JsonScan.value(b, dataStart, to);
    if (dataEnd < 0) {
      return null;
    }
    at = dataEnd;
    Optional<SurfaceOp> surfaceOp = Optional.empty();
    if (literal(SURFACE_OP)) {
      if (literal(APPEND)) {
        surfaceOp = Optional.of(SurfaceOp.APPEND);
      } else if (literal(REPLACE) && integer(true)) {
        long start = value;
        if (!literal(END) || !integer(true) || !next('}')) {
          return null;
        }
        try {
          surfaceOp = Optional.of(new SurfaceOp.Replace(start, value));
        } catch (IllegalArgumentException e) {
          // a range the op refuses: the parser's path reports it
          return null;
        }
      } else {
        return null;
      }
    }
    List<Long> sources = List.of();
    if (literal(SOURCES)) {
      sources = new ArrayList<>();
      do {
        if (!integer(true)) {
          return null;
        }
        sources.add(value);
      } while (next(','));
      if (!next(']')) {
        return null;
      }
    }
    if (!next('}')) {
      return null;
    }
    return EventCodec.stored(
        seq, EventCodec.type(b, typeStart, typeEnd), time, b, dataStart, dataEnd, blocks, surfaceOp, sources);
  }

  // an integer in its plain form (no leading zero, no "-0", at most 18 digits) into value
  private boolean integer(boolean maySign) {
    boolean negative = maySign && at < to && b[at] == '-';
    int start = negative ? at + 1 : at;
    int i = start;
    long v = 0;
    while (i < to && b[i] >= '0' && b[i] <= '9') {
      v = v * 10 + (b[i] - '0');
      i++;
    }
    int digits = i - start;
    if (digits == 0 || digits > MAX_DIGITS || (b[start] == '0' && (digits > 1 || negative))) {
      return false;
    }
    at = i;
    value = negative ? -v : v;
    return true;
  }

  private boolean next(char c) {
    if (at < to && b[at] == c) {
      at++;
      return true;
    }
    return false;
  }

  private boolean literal(byte[] text) {
    int end = at + text.length;
    if (end > to || !Arrays.equals(b, at, end, text, 0, text.length)) {
      return false;
    }
    at = end;
    return true;
  }
}

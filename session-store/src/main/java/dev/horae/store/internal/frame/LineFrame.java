package dev.horae.store.internal.frame;

import dev.horae.spi.session.EventCodec;
import dev.horae.spi.session.SessionEvent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * Encodes and decodes one event-file line: {@code <crc> <json>\n}, where {@code crc} is the CRC32C
 * of the UTF-8 JSON bytes as 8 lowercase hex digits and the JSON is a non-empty array of events in
 * the {@link EventCodec} form.
 *
 * <p>One flush is one line, so an atomic multi-event append is never split across lines and a torn
 * write can only lose a whole unacknowledged flush.
 */
public final class LineFrame {

  private static final int CRC_HEX_DIGITS = 8;

  private LineFrame() {}

  /**
   * Encodes events as one framed line.
   *
   * @param events the events, non-empty, contiguous seqs
   * @return the line's UTF-8 bytes, ending with {@code '\n'}
   * @throws IllegalArgumentException when {@code events} is empty, or the line could not be
   *     decoded again (nested too deep, a string, name or number too long for the parser)
   */
  public static byte[] encode(List<SessionEvent> events) {
    if (events.isEmpty()) {
      throw new IllegalArgumentException("a framed line holds at least one event");
    }
    // a line the decoder refuses would read as a torn tail and be cut off: never write one
    byte[] json = EventCodec.writeStorable(events);
    byte[] crc = crcHex(json, 0, json.length).getBytes(StandardCharsets.US_ASCII);
    byte[] line = new byte[crc.length + 1 + json.length + 1];
    System.arraycopy(crc, 0, line, 0, crc.length);
    line[crc.length] = ' ';
    System.arraycopy(json, 0, line, crc.length + 1, json.length);
    line[line.length - 1] = '\n';
    return line;
  }

  /**
   * Decodes one stored line (without its terminating newline).
   *
   * @param line the bytes of the line
   * @param length number of bytes of {@code line} that belong to it
   * @param expectedSeq the seq its first event must carry (the number of events before it)
   * @return the decoded events, or why the line is bad
   */
  public static LineResult decode(byte[] line, int length, long expectedSeq) {
    return decode(line, 0, length, expectedSeq);
  }

  /**
   * Decodes one stored line (without its terminating newline) that lies inside a larger buffer, so
   * a reader can decode straight from what it read.
   *
   * @param buffer the bytes holding the line
   * @param offset where the line starts
   * @param length number of bytes that belong to it
   * @param expectedSeq the seq its first event must carry (the number of events before it)
   * @return the decoded events, or why the line is bad
   */
  public static LineResult decode(byte[] buffer, int offset, int length, long expectedSeq) {
    return decode(buffer, offset, length, expectedSeq, NO_FIRST_READ);
  }

  /**
   * A reader a good line's JSON is offered to before {@link EventCodec#readArray} reads it: a
   * scanner of many lines reads them with one parser ({@link EventCodec.Texts}).
   */
  @FunctionalInterface
  public interface FirstRead {
    /**
     * The events of a line whose frame and checksum are good, when this reader can vouch that
     * they are what {@link EventCodec#readArray} of its JSON gives.
     *
     * @param buffer the bytes holding the line
     * @param line where the line starts (its checksum)
     * @param json where its JSON starts
     * @param length how many bytes the JSON has
     * @return the events, or empty to have the JSON read by {@link EventCodec#readArray}
     */
    Optional<List<SessionEvent>> read(byte[] buffer, int line, int json, int length);
  }

  private static final FirstRead NO_FIRST_READ = (buffer, line, json, length) -> Optional.empty();

  /**
   * {@link #decode(byte[], int, int, long)}, offering the JSON of a line whose frame and checksum
   * are good to {@code first} before reading it with {@link EventCodec#readArray}; the result is
   * the same either way.
   *
   * @param buffer the bytes holding the line
   * @param offset where the line starts
   * @param length number of bytes that belong to it
   * @param expectedSeq the seq its first event must carry (the number of events before it)
   * @param first the first reader of a good line's JSON
   * @return the decoded events, or why the line is bad
   */
  public static LineResult decode(byte[] buffer, int offset, int length, long expectedSeq, FirstRead first) {
    if (length == 0) {
      return new LineResult.BadFrame("empty line");
    }
    if (length < CRC_HEX_DIGITS + 2 || buffer[offset + CRC_HEX_DIGITS] != ' ') {
      return new LineResult.BadFrame("malformed frame (expected \"<crc32c> <json>\")");
    }
    int json = offset + CRC_HEX_DIGITS + 1;
    int jsonLength = length - CRC_HEX_DIGITS - 1;
    long stored = lowercaseHex(buffer, offset, CRC_HEX_DIGITS);
    CRC32C crc = new CRC32C();
    crc.update(buffer, json, jsonLength);
    if (stored != crc.getValue()) {
      // the texts are built only for a bad line: a million good lines format nothing
      return new LineResult.BadFrame("crc mismatch (stored " + new String(buffer, offset, CRC_HEX_DIGITS, StandardCharsets.US_ASCII)
          + ", computed " + String.format("%08x", crc.getValue()) + ")");
    }
    Optional<List<SessionEvent>> read = first.read(buffer, offset, json, jsonLength);
    if (read.isPresent()) {
      return gap(read.get(), expectedSeq).orElse(new LineResult.Good(read.get()));
    }
    List<SessionEvent> events;
    try {
      // read from the bytes themselves by a streaming parser: no intermediate string, no tree for
      // a payload, and bytes that are not UTF-8 make the line unreadable instead of turning into
      // replacement characters
      events = EventCodec.readArray(buffer, json, jsonLength);
    } catch (EventCodec.Unreadable e) {
      if (e.syntax()) {
        return new LineResult.BadFrame("unparsable JSON: not JSON: " + e.getMessage());
      }
      if (e.before().isEmpty()) {
        return new LineResult.BadFrame(e.getMessage());
      }
      // events are checked in order: a gap before the wrong event is what the line shows first
      List<SessionEvent> before = e.before().get();
      return gap(before, expectedSeq).orElse(
          new LineResult.BadFrame("bad event at seq " + (expectedSeq + before.size()) + ": " + e.getMessage()));
    }
    return gap(events, expectedSeq).orElse(new LineResult.Good(events));
  }

  private static Optional<LineResult> gap(List<SessionEvent> events, long expectedSeq) {
    long next = expectedSeq;
    for (SessionEvent event : events) {
      if (event.seq() != next) {
        return Optional.of(new LineResult.SeqGap(next, event.seq()));
      }
      next++;
    }
    return Optional.empty();
  }

  /**
   * The value of the first {@code digits} bytes as lowercase hex, or -1 when one of them is not
   * {@code 0-9} or {@code a-f} (the writer's form; anything else can match no checksum).
   */
  private static long lowercaseHex(byte[] bytes, int offset, int digits) {
    long value = 0;
    for (int i = offset; i < offset + digits; i++) {
      int b = bytes[i];
      int d;
      if (b >= '0' && b <= '9') {
        d = b - '0';
      } else if (b >= 'a' && b <= 'f') {
        d = b - 'a' + 10;
      } else {
        return -1;
      }
      value = value << 4 | d;
    }
    return value;
  }

  /**
   * The CRC32C of a byte range as 8 lowercase hex digits.
   *
   * @param bytes the bytes
   * @param offset first byte
   * @param length number of bytes
   * @return the checksum text
   */
  public static String crcHex(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return String.format("%08x", crc.getValue());
  }
}

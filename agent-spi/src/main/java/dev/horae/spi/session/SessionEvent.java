package dev.horae.spi.session;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One committed event of a session log (host contract §3.1).
 *
 * <p>The payload is held compactly, as the UTF-8 bytes of its JSON text (for an event read from a
 * store, the bytes exactly as stored), not as a Jackson tree: a live log retains every event, and a
 * tree costs several times its text in objects that survive every young collection. {@link #data()}
 * parses those bytes into a fresh tree on each call and caches nothing, so:
 *
 * <ul>
 *   <li>the log cannot be changed through a payload: a caller that mutates the tree it was given
 *       changes its own copy, and the tree passed to the constructor is written out at once, so
 *       later changes to it do not reach the event;
 *   <li>a caller that reads the same event's payload several times pays one parse each time; the
 *       plugins' folds and the runtime's history read each event once as it is appended, and a
 *       hot path that looks at an old event twice should keep the tree it got the first time;
 *   <li>the payload is the JSON value the text denotes: a number reads back as the parser reads
 *       its text (a {@code double} 1.5 given to the constructor reads back as the decimal 1.5, the
 *       node a store's load gives too), so an event in a live log and the same event loaded from a
 *       store have the same payload nodes.
 * </ul>
 *
 * <p>Equality is value equality of every member, the payload compared as JSON trees (as Jackson's
 * {@link JsonNode#equals} compares them: object member order does not matter, node types do), so
 * two events whose payload texts differ only in member order or white space are equal.
 */
public final class SessionEvent {

  private static final Optional<SurfaceOp> APPEND = Optional.of(SurfaceOp.APPEND);

  private final long seq;
  private final String type;
  private final long time;
  // the payload's text is data[offset, offset + length): an event of its own array, or one of the
  // many an event store's load packs into one block (PayloadBlocks)
  private final byte[] data;
  private final int offset;
  private final int length;
  private final Optional<SurfaceOp> surfaceOp;
  private final List<Long> sourceEventSeqs;
  // the payload tree's hash, computed on first use (0: not yet); fits the object's padding
  private int hash;

  /**
   * Validates the event and takes its payload's text.
   *
   * @param seq position in the log, contiguous from 0
   * @param type event type, e.g. {@code user/message} or {@code schedule/change}
   * @param time wall-clock time of the append in epoch milliseconds (not monotonic)
   * @param data payload; written out at once, so later changes to this tree do not reach the event
   * @param surfaceOp effect on the model-visible surface; empty for log-only events
   * @param sourceEventSeqs seqs a derived event was built from; empty when not derived
   * @throws IllegalArgumentException when {@code seq} is negative, {@code type} is blank, or the
   *     payload could not be read back once written (see {@link Json#checkReadable})
   */
  public SessionEvent(
      long seq,
      String type,
      long time,
      JsonNode data,
      Optional<SurfaceOp> surfaceOp,
      List<Long> sourceEventSeqs) {
    this(seq, type, time, payload(data), surfaceOp, sourceEventSeqs);
  }

  // the payload bytes are valid JSON the shared parser reads: the caller checked them
  SessionEvent(long seq, String type, long time, byte[] data, Optional<SurfaceOp> surfaceOp, List<Long> sourceEventSeqs) {
    this(seq, type, time, data, 0, data.length, surfaceOp, sourceEventSeqs);
  }

  // data[offset, offset + length) is valid JSON the shared parser reads, and nothing ever writes
  // those bytes again: the caller checked them and owns the array
  SessionEvent(
      long seq,
      String type,
      long time,
      byte[] data,
      int offset,
      int length,
      Optional<SurfaceOp> surfaceOp,
      List<Long> sourceEventSeqs) {
    Objects.checkFromIndexSize(offset, length, data.length);
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(surfaceOp, "surfaceOp");
    if (seq < 0) {
      throw new IllegalArgumentException("seq must be >= 0, got " + seq);
    }
    if (type.isBlank()) {
      throw new IllegalArgumentException("event type must not be blank");
    }
    this.seq = seq;
    this.type = type;
    this.time = time;
    this.data = data;
    this.offset = offset;
    this.length = length;
    // one shared instance for the common op, so a million model-visible events hold no copies
    this.surfaceOp = surfaceOp.isPresent() && surfaceOp.get() instanceof SurfaceOp.Append ? APPEND : surfaceOp;
    this.sourceEventSeqs = List.copyOf(sourceEventSeqs);
  }

  private static byte[] payload(JsonNode data) {
    Objects.requireNonNull(data, "data");
    // data() must never fail on an event that was built: refuse what the parser would not read
    Json.checkReadable(data, 0);
    return Json.write(data).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A log-only event with no surface op and no sources.
   *
   * @param seq position in the log
   * @param type event type
   * @param time epoch milliseconds
   * @param data payload (written out at once)
   * @return the event
   */
  public static SessionEvent of(long seq, String type, long time, JsonNode data) {
    return new SessionEvent(seq, type, time, data, Optional.empty(), List.of());
  }

  /**
   * Position in the log, contiguous from 0.
   *
   * @return the seq
   */
  public long seq() {
    return seq;
  }

  /**
   * Event type, e.g. {@code user/message}.
   *
   * @return the type
   */
  public String type() {
    return type;
  }

  /**
   * Wall-clock time of the append in epoch milliseconds (not monotonic).
   *
   * @return the time
   */
  public long time() {
    return time;
  }

  /**
   * The payload, parsed from its stored text into a new tree on every call. The tree is the
   * caller's own: changing it changes neither the event nor the log.
   *
   * @return a fresh tree of the payload
   */
  public JsonNode data() {
    return Json.parse(data, offset, length);
  }

  /**
   * The payload's text as UTF-8 bytes, read-only and not copied: position 0, limit its length. For
   * a decoder that recognizes the exact text its own encoder writes and reads it without a parser
   * (a plugin's fold over a whole log on open), falling back to {@link #dataParser()} for any other
   * text. The bytes are valid JSON that {@link #data()} reads, and never change.
   *
   * @return a read-only view of the payload's bytes
   */
  public ByteBuffer payload() {
    return ByteBuffer.wrap(data, offset, length).slice().asReadOnlyBuffer();
  }

  /**
   * The text of a range of {@link #payload()}'s bytes, decoded as UTF-8 the way {@code new
   * String(bytes, UTF_8)} does (a malformed sequence becomes U+FFFD), copied once. For the same
   * decoders as {@link #payload()}, which find a string's bounds in the bytes and would otherwise
   * copy them out before the string copies them again.
   *
   * @param from the first byte, counted from the payload's start
   * @param to the byte after the last
   * @return the decoded text
   * @throws IndexOutOfBoundsException when the range is not inside the payload
   */
  public String payloadText(int from, int to) {
    Objects.checkFromToIndex(from, to, length);
    return new String(data, offset + from, to - from, StandardCharsets.UTF_8);
  }

  /**
   * A new streaming parser over the payload's text, for a reader that decodes one event type
   * without building the tree {@link #data()} builds (a fold reads a million events on open). The
   * parser reads the event's own bytes and cannot change them; it stands before the payload's
   * first token and reads what {@link #data()} would (the shared parser's limits, so every event
   * that was built reads to its end without a syntax error). The caller closes it, which returns
   * the parser's buffers for reuse.
   *
   * @return a parser of the payload, not yet advanced
   */
  public JsonParser dataParser() {
    try {
      return Json.mapper().getFactory().createParser(data, offset, length);
    } catch (IOException e) {
      // a parser over bytes in memory reads nothing when it is created: this cannot happen
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Effect on the model-visible surface; empty for log-only events.
   *
   * @return the surface op
   */
  public Optional<SurfaceOp> surfaceOp() {
    return surfaceOp;
  }

  /**
   * Seqs a derived event was built from; empty when not derived.
   *
   * @return an immutable list
   */
  public List<Long> sourceEventSeqs() {
    return sourceEventSeqs;
  }

  // the codec writes the payload's text into a stored line or row without parsing it: the array
  // stays in this package, and the codec copies data[dataOffset(), + dataLength()) out of it
  byte[] dataArray() {
    return data;
  }

  int dataOffset() {
    return offset;
  }

  int dataLength() {
    return length;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof SessionEvent other)) {
      return false;
    }
    if (seq != other.seq || time != other.time || !type.equals(other.type) || !surfaceOp.equals(other.surfaceOp)
        || !sourceEventSeqs.equals(other.sourceEventSeqs)) {
      return false;
    }
    // the same text is the same value; different texts may still denote equal trees
    return Arrays.equals(data, offset, offset + length, other.data, other.offset, other.offset + other.length)
        || data().equals(other.data());
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      // of the tree, not the text: texts differing in member order hash alike
      h = data().hashCode();
      h = h == 0 ? 1 : h;
      hash = h;
    }
    return Objects.hash(seq, type, time, h, surfaceOp, sourceEventSeqs);
  }

  @Override
  public String toString() {
    return "SessionEvent[seq=" + seq + ", type=" + type + ", time=" + time + ", data="
        + new String(data, offset, length, StandardCharsets.UTF_8) + ", surfaceOp=" + surfaceOp + ", sourceEventSeqs=" + sourceEventSeqs + "]";
  }
}

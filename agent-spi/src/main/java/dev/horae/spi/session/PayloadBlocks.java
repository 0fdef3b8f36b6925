package dev.horae.spi.session;

import java.util.Arrays;
import java.util.Objects;

/**
 * Where the payloads of the events of one load are kept: a store that reads a whole log hands one
 * of these to every {@link EventCodec#texts(byte[], int, int, PayloadBlocks) reader} of that load,
 * and each payload's bytes are copied into a shared block instead of an array of its own.
 *
 * <p>Why: a live log retains every event it loaded, and a young collection copies what survives
 * it, paying for every object. An array per payload made a million-event log two million objects
 * to copy; in blocks it is a million events and a few thousand arrays (issue 19, item 4:
 * docs/performance.md, "Payload blocks").
 *
 * <p>Blocks start small and double up to {@value #LARGEST} bytes, so a short session keeps little
 * spare room, and a payload larger than a quarter of that gets an array of its own. A block lives
 * while any event whose payload it holds lives; an event never writes its payload, and the bytes of
 * a block are never written again once an event refers to them. Not thread-safe: one load, one
 * thread.
 */
public final class PayloadBlocks {

  /** The first block's size in bytes. */
  static final int FIRST = 1 << 10;

  /** The largest block's size in bytes. */
  static final int LARGEST = 1 << 18;

  private byte[] block = new byte[0];
  private int used;
  private int next = FIRST;
  private int last;

  /** Creates blocks for one load; the first block is made when the first payload comes. */
  public PayloadBlocks() {}

  /**
   * Copies {@code from[start, start + length)} into a block and answers that block; {@link
   * #offset()} then says where in it the copy starts.
   */
  byte[] copy(byte[] from, int start, int length) {
    Objects.checkFromIndexSize(start, length, from.length);
    if (length > LARGEST / 4) {
      last = 0;
      return Arrays.copyOfRange(from, start, start + length);
    }
    if (block.length - used < length) {
      block = new byte[Math.max(next, length)];
      used = 0;
      next = Math.min(next * 2, LARGEST);
    }
    System.arraycopy(from, start, block, used, length);
    last = used;
    used += length;
    return block;
  }

  /** Where the last {@link #copy} put its bytes in the array it answered. */
  int offset() {
    return last;
  }
}

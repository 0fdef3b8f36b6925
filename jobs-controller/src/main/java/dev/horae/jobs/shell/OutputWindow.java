package dev.horae.jobs.shell;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The bounded unread window of a shell job (jobs spec §7.2): everything produced since the last
 * {@link #read()}, keeping at most {@code headBytes} from its start and {@code tailBytes} from its
 * end, and counting what was dropped in between. Memory is bounded by head + tail + 3 bytes,
 * whatever the process writes. Pure and not thread-safe: the owner guards it with one lock.
 */
public final class OutputWindow {

  private final byte[] head;
  private final byte[] ring;
  private int headLen;
  private int ringStart;
  private int ringLen;
  private long total;
  private byte[] carry = new byte[0];
  private boolean ended;

  /**
   * Creates an empty window.
   *
   * @param headBytes bytes kept from the window's start, at least 0
   * @param tailBytes bytes kept from the window's end, at least 1
   * @throws IllegalArgumentException for negative sizes or an empty tail
   */
  public OutputWindow(int headBytes, int tailBytes) {
    if (headBytes < 0 || tailBytes < 1) {
      throw new IllegalArgumentException(
          "window needs head >= 0 and tail >= 1, got " + headBytes + "/" + tailBytes);
    }
    this.head = new byte[headBytes];
    this.ring = new byte[tailBytes];
  }

  /**
   * Appends a chunk of output.
   *
   * @param bytes the buffer
   * @param offset start of the chunk
   * @param length length of the chunk
   */
  public void append(byte[] bytes, int offset, int length) {
    total += length;
    int room = head.length - headLen;
    int toHead = Math.min(room, length);
    System.arraycopy(bytes, offset, head, headLen, toHead);
    headLen += toHead;
    int rest = length - toHead;
    int from = offset + toHead;
    if (rest >= ring.length) {
      // only the chunk's last T bytes can survive
      System.arraycopy(bytes, from + rest - ring.length, ring, 0, ring.length);
      ringStart = 0;
      ringLen = ring.length;
      return;
    }
    int pos = (ringStart + ringLen) % ring.length;
    int first = Math.min(rest, ring.length - pos);
    System.arraycopy(bytes, from, ring, pos, first);
    System.arraycopy(bytes, from + first, ring, 0, rest - first);
    int grown = ringLen + rest;
    if (grown > ring.length) {
      ringStart = (ringStart + grown - ring.length) % ring.length;
      ringLen = ring.length;
    } else {
      ringLen = grown;
    }
  }

  /** Records end of stream: a held-back partial character then decodes to U+FFFD. */
  public void end() {
    ended = true;
  }

  /**
   * Says whether the stream ended and everything was read.
   *
   * @return true when no later read can return text
   */
  public boolean drained() {
    return ended && total == 0 && carry.length == 0;
  }

  /**
   * Bytes currently retained (head, tail ring and carry), the memory bound under test.
   *
   * @return retained bytes, at most head + tail + 3
   */
  public int retainedBytes() {
    return headLen + ringLen + carry.length;
  }

  /**
   * Returns the window's text and empties it (the one consuming cursor).
   *
   * @return the text since the previous read; {@code ""} when nothing new
   */
  public String read() {
    long omitted = total - headLen - ringLen;
    byte[] tailPart = ringBytes();
    String text;
    if (omitted == 0) {
      byte[] all = concat(carry, head, headLen, tailPart);
      int keep = ended ? all.length : completeLength(all);
      text = decode(all, 0, keep);
      carry = copy(all, keep, all.length);
    } else {
      byte[] headPart = concat(carry, head, headLen, new byte[0]);
      int headKeep = completeLength(headPart);
      int start = 0;
      while (start < tailPart.length && (tailPart[start] & 0xC0) == 0x80) {
        start++;
      }
      int tailKeep = ended ? tailPart.length : start + completeLength(copy(tailPart, start, tailPart.length));
      long n = omitted + (headPart.length - headKeep) + start;
      String headText = decode(headPart, 0, headKeep);
      String tailText = decode(tailPart, start, tailKeep);
      text =
          (headText.isEmpty() ? "" : headText + "\n")
              + "[... "
              + n
              + " bytes omitted ...]\n"
              + tailText;
      carry = copy(tailPart, tailKeep, tailPart.length);
    }
    headLen = 0;
    ringStart = 0;
    ringLen = 0;
    total = 0;
    return text;
  }

  /** Length of the prefix that ends on a character boundary (drops a trailing partial). */
  private static int completeLength(byte[] b) {
    int end = b.length;
    int i = end - 1;
    int continuation = 0;
    while (i >= 0 && (b[i] & 0xC0) == 0x80 && continuation < 3) {
      i--;
      continuation++;
    }
    if (i < 0) {
      return end;
    }
    int lead = b[i] & 0xFF;
    int need;
    if (lead >= 0xF0 && lead <= 0xF4) {
      need = 4;
    } else if (lead >= 0xE0) {
      need = lead < 0xF0 ? 3 : 1;
    } else if (lead >= 0xC2) {
      need = 2;
    } else {
      need = 1;
    }
    return end - i < need ? i : end;
  }

  private byte[] ringBytes() {
    byte[] out = new byte[ringLen];
    for (int i = 0; i < ringLen; i++) {
      out[i] = ring[(ringStart + i) % ring.length];
    }
    return out;
  }

  private static byte[] concat(byte[] a, byte[] b, int bLen, byte[] c) {
    byte[] out = new byte[a.length + bLen + c.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, bLen);
    System.arraycopy(c, 0, out, a.length + bLen, c.length);
    return out;
  }

  private static byte[] copy(byte[] b, int from, int to) {
    byte[] out = new byte[to - from];
    System.arraycopy(b, from, out, 0, out.length);
    return out;
  }

  private static String decode(byte[] b, int from, int to) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE)
          .decode(ByteBuffer.wrap(b, from, to - from))
          .toString();
    } catch (CharacterCodingException e) {
      // unreachable with REPLACE actions
      throw new IllegalStateException(e);
    }
  }
}

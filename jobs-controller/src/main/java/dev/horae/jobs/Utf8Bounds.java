package dev.horae.jobs;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * UTF-8 byte bounding (jobs spec §5.2, §5.3). Pure: no clock, no threads, no I/O. Cuts never split
 * a code point and never insert a replacement character.
 */
public final class Utf8Bounds {

  /** Marker appended to a bounded read: {@code \n[output truncated]} (19 bytes). */
  public static final String READ_MARKER = "\n[output truncated]";

  /** Marker appended to a bounded single-text result: {@code \n[result truncated]} (19 bytes). */
  public static final String RESULT_MARKER = "\n[result truncated]";

  private Utf8Bounds() {}

  /**
   * Counts the UTF-8 bytes of {@code s} without encoding it.
   *
   * @param s any string
   * @return its UTF-8 length
   */
  public static long bytes(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  /**
   * Keeps at most the first {@code n} bytes, dropping a trailing incomplete sequence.
   *
   * @param s the text
   * @param n byte budget, at least 0
   * @return {@code s} when it fits, else a prefix of at most {@code n} bytes
   */
  public static String head(String s, long n) {
    if (bytes(s) <= n) {
      return s;
    }
    byte[] all = s.getBytes(StandardCharsets.UTF_8);
    int end = (int) Math.max(0, n);
    // the first dropped byte is a continuation: the character straddles the cut, drop it whole
    while (end > 0 && isContinuation(all[end])) {
      end--;
    }
    return new String(Arrays.copyOfRange(all, 0, end), StandardCharsets.UTF_8);
  }

  /**
   * Keeps at most the last {@code n} bytes, dropping leading continuation bytes.
   *
   * @param s the text
   * @param n byte budget, at least 0
   * @return {@code s} when it fits, else a suffix of at most {@code n} bytes
   */
  public static String tail(String s, long n) {
    if (bytes(s) <= n) {
      return s;
    }
    byte[] all = s.getBytes(StandardCharsets.UTF_8);
    int start = all.length - (int) Math.max(0, n);
    while (start < all.length && isContinuation(all[start])) {
      start++;
    }
    return new String(Arrays.copyOfRange(all, start, all.length), StandardCharsets.UTF_8);
  }

  /**
   * Fits {@code content + suffix} into {@code max} bytes, keeping the tail of the content and the
   * whole protected suffix when possible (jobs spec §5.3). An existing marker at the end of the
   * content (the marker without its leading newline) is reused, never duplicated.
   *
   * @param content variable text whose tail is kept
   * @param suffix protected text kept whole when it fits
   * @param max byte cap, at least 1
   * @param marker truncation marker, {@link #READ_MARKER} or {@link #RESULT_MARKER}
   * @return the bounded text, at most {@code max} bytes
   */
  public static String fitWithSuffix(String content, String suffix, long max, String marker) {
    if (bytes(content) + bytes(suffix) <= max) {
      return content + suffix;
    }
    String bare = marker.startsWith("\n") ? marker.substring(1) : marker;
    String fixed = content.endsWith(bare) ? suffix : marker + suffix;
    long fixedBytes = bytes(fixed);
    if (fixedBytes >= max) {
      return tail(fixed, max);
    }
    return tail(content, max - fixedBytes) + fixed;
  }

  private static boolean isContinuation(byte b) {
    return (b & 0xC0) == 0x80;
  }
}

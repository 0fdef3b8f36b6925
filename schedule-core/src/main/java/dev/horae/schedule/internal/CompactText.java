package dev.horae.schedule.internal;

import java.nio.charset.StandardCharsets;

/**
 * A text held as a bare byte array, for the fold's active records (issue 19: a {@code String}
 * costs a 24-byte object besides its characters). Narrow text, every character at most U+00FF, takes one
 * byte a character; wide text two, high byte first. The caller keeps which of the two it is, so
 * the array holds characters only. Every {@code char} is kept as it is (unpaired surrogates too),
 * so {@link #text} gives back an equal string.
 */
public final class CompactText {

  private CompactText() {}

  /**
   * Whether the text needs two bytes a character.
   *
   * @param text the text
   * @return true when a character is above U+00FF
   */
  public static boolean wide(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) > 0xFF) {
        return true;
      }
    }
    return false;
  }

  /**
   * The text's bytes.
   *
   * @param text the text
   * @param wide {@link #wide} of the text
   * @return a new array
   */
  public static byte[] of(String text, boolean wide) {
    int n = text.length();
    byte[] out = new byte[wide ? 2 * n : n];
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (wide) {
        out[2 * i] = (byte) (c >>> 8);
        out[2 * i + 1] = (byte) c;
      } else {
        out[i] = (byte) c;
      }
    }
    return out;
  }

  /**
   * The text the bytes hold.
   *
   * @param bytes from {@link #of}
   * @param wide as given to {@link #of}
   * @return a new string equal to the one encoded
   */
  public static String text(byte[] bytes, boolean wide) {
    if (!wide) {
      // Latin-1 decoding maps every byte to the char of the same value: one copy into a compact
      // string (a list of a million rows reads each id and prompt at least twice)
      return new String(bytes, StandardCharsets.ISO_8859_1);
    }
    // not UTF-16BE: its decoder would replace an unpaired surrogate, which must come back as it was
    char[] chars = new char[bytes.length / 2];
    for (int i = 0; i < chars.length; i++) {
      chars[i] = charAt(bytes, true, i);
    }
    return new String(chars);
  }

  /**
   * Whether the bytes hold this text, without building a string.
   *
   * @param bytes from {@link #of}
   * @param wide as given to {@link #of}
   * @param text the text to compare
   * @return true when equal
   */
  public static boolean equals(byte[] bytes, boolean wide, String text) {
    int n = wide ? bytes.length / 2 : bytes.length;
    if (n != text.length()) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (charAt(bytes, wide, i) != text.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@link String#hashCode()} of the text the bytes hold, so that a table can mix these with
   * strings.
   *
   * @param bytes from {@link #of}
   * @param wide as given to {@link #of}
   * @return the string's hash
   */
  public static int hash(byte[] bytes, boolean wide) {
    int n = wide ? bytes.length / 2 : bytes.length;
    int h = 0;
    for (int i = 0; i < n; i++) {
      h = 31 * h + charAt(bytes, wide, i);
    }
    return h;
  }

  private static char charAt(byte[] bytes, boolean wide, int i) {
    return wide
        ? (char) (((bytes[2 * i] & 0xFF) << 8) | (bytes[2 * i + 1] & 0xFF))
        : (char) (bytes[i] & 0xFF);
  }
}

package dev.horae.store.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * Session id ↔ folder name. Letters, digits, {@code -}, {@code _} and a {@code .} that is not the
 * first character stay as they are; every other UTF-8 byte becomes {@code %XX}. The mapping is
 * reversible, so {@code ids()} reads ids from folder names without opening any file, and no id can
 * escape the store root ({@code ..}, {@code /}).
 */
public final class FolderNames {

  /** Longest folder name most file systems accept. */
  static final int MAX_NAME_BYTES = 255;

  private FolderNames() {}

  /**
   * The folder name of a session id.
   *
   * @param id a non-empty session id
   * @return the folder name
   * @throws IllegalArgumentException when the id is empty, holds an unpaired surrogate or its
   *     encoded name is longer than 255 characters
   */
  public static String encode(String id) {
    if (id.isEmpty()) {
      throw new IllegalArgumentException("session id must not be empty");
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < id.length() && Character.isLowSurrogate(id.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        // UTF-8 has no bytes for it: getBytes would write "?", so two such ids would share a
        // folder and the header would name another id than the one stored
        throw new IllegalArgumentException("session id must not hold an unpaired surrogate (at index " + i + ")");
      }
    }
    byte[] bytes = id.getBytes(StandardCharsets.UTF_8);
    // measured before anything is formatted, so a hostile megabyte id costs one pass
    int length = 0;
    for (int i = 0; i < bytes.length; i++) {
      length += keeps(bytes[i] & 0xff, i) ? 1 : 3;
    }
    if (length > MAX_NAME_BYTES) {
      throw new IllegalArgumentException(
          "session id is too long for a folder name (" + length + " > " + MAX_NAME_BYTES + " characters encoded)");
    }
    StringBuilder out = new StringBuilder(length);
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xff;
      if (keeps(b, i)) {
        out.append((char) b);
      } else {
        out.append('%').append(String.format(Locale.ROOT, "%02X", b));
      }
    }
    return out.toString();
  }

  private static boolean keeps(int b, int index) {
    return isPlain(b) || (b == '.' && index > 0);
  }

  /**
   * The session id of a folder name written by {@link #encode}.
   *
   * @param name a folder name
   * @return the id, or empty when the name is not one this store writes
   */
  public static Optional<String> decode(String name) {
    if (name.isEmpty() || name.length() > MAX_NAME_BYTES || name.charAt(0) == '.') {
      return Optional.empty();
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '%') {
        if (i + 2 >= name.length()) {
          return Optional.empty();
        }
        int hi = Character.digit(name.charAt(i + 1), 16);
        int lo = Character.digit(name.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          return Optional.empty();
        }
        bytes.write(hi * 16 + lo);
        i += 2;
      } else if (isPlain(c) || c == '.') {
        bytes.write(c);
      } else {
        return Optional.empty();
      }
    }
    String id = bytes.toString(StandardCharsets.UTF_8);
    // only canonical names round-trip; anything else was not written by this store
    return encode(id).equals(name) ? Optional.of(id) : Optional.empty();
  }

  private static boolean isPlain(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  }
}

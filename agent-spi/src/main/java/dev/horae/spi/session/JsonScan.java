package dev.horae.spi.session;

import com.fasterxml.jackson.core.StreamReadConstraints;
import java.util.Arrays;

/**
 * Finds where one JSON value ends in UTF-8 bytes without a parser, when the value lies in a subset
 * that the shared parser ({@link Json#mapper()}) certainly reads: RFC 8259's grammar with JSON's
 * four white-space bytes, strings of well-formed UTF-8 (no unescaped control character, only
 * JSON's escapes), names of at most {@value #MAX_NAME} bytes, nesting at most {@value #MAX_DEPTH}
 * containers deep, numbers of at most {@value #MAX_NUMBER} bytes with at most {@value
 * #MAX_EXPONENT} exponent digits. A value outside the subset gives {@code -1} whether or not the
 * parser would read it: the caller then asks the parser, which gives the answer and its error. So
 * the subset may be narrower than the parser, never wider.
 *
 * <p>Why: a store's load checks every payload it reads by stepping through it with Jackson, and a
 * parser per stored row was most of a million-row JDBC load (docs/performance.md, "Canonical
 * events", issue 19).
 */
final class JsonScan {

  /** The deepest nesting of containers the subset holds. */
  static final int MAX_DEPTH = 64;

  /** The longest number token the subset holds, in bytes. */
  static final int MAX_NUMBER = 40;

  /** The most exponent digits a number of the subset has: its decimal value is always in range. */
  static final int MAX_EXPONENT = 3;

  /** The longest object member name the subset holds, in bytes. */
  static final int MAX_NAME = 1024;

  /**
   * The longest text a caller may scan: every string in it is then shorter than the parser's
   * limits, and so is the text.
   */
  static final int MAX_TEXT = 1 << 20;

  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};

  /**
   * Whether the shared parser's limits leave room for the whole subset: when a host's Jackson had
   * tighter limits, nothing would be in the subset and every text would go to the parser.
   */
  static final boolean USABLE = fits(Json.mapper().getFactory().streamReadConstraints());

  private JsonScan() {}

  // one container of the enclosing text (the event's object) is counted by the parser too
  static boolean fits(StreamReadConstraints limits) {
    return limits.getMaxNestingDepth() > MAX_DEPTH + 1
        && limits.getMaxNumberLength() >= MAX_NUMBER
        && limits.getMaxStringLength() >= MAX_TEXT
        && limits.getMaxNameLength() >= MAX_NAME
        && (!limits.hasMaxDocumentLength() || limits.getMaxDocumentLength() >= MAX_TEXT)
        && (!limits.hasMaxTokenCount() || limits.getMaxTokenCount() >= MAX_TEXT);
  }

  /**
   * Where the value that starts at {@code from} ends.
   *
   * @param b the bytes
   * @param from where the value's first byte is (no white space before it)
   * @param to the end of the bytes that may hold it
   * @return the index after the value's last byte, or -1 when the value is not in the subset
   */
  static int value(byte[] b, int from, int to) {
    // bit d is set when the container at depth d + 1 is an object
    long objects = 0;
    int depth = 0;
    int i = from;
    while (true) {
      // a value starts at i
      if (i >= to) {
        return -1;
      }
      switch (b[i]) {
        case '{' -> {
          if (depth == MAX_DEPTH) {
            return -1;
          }
          objects |= 1L << depth;
          depth++;
          i = space(b, i + 1, to);
          if (i < to && b[i] == '}') {
            i++;
            depth--;
          } else {
            i = name(b, i, to);
            if (i < 0) {
              return -1;
            }
            continue;
          }
        }
        case '[' -> {
          if (depth == MAX_DEPTH) {
            return -1;
          }
          objects &= ~(1L << depth);
          depth++;
          i = space(b, i + 1, to);
          if (i < to && b[i] == ']') {
            i++;
            depth--;
          } else {
            continue;
          }
        }
        case '"' -> i = string(b, i + 1, to, MAX_TEXT);
        case 't' -> i = literal(b, i, to, TRUE);
        case 'f' -> i = literal(b, i, to, FALSE);
        case 'n' -> i = literal(b, i, to, NULL);
        default -> i = number(b, i, to);
      }
      // a value ended at i: close containers until one goes on, or the outermost value ends
      while (true) {
        if (i < 0) {
          return -1;
        }
        if (depth == 0) {
          return i;
        }
        i = space(b, i, to);
        if (i >= to) {
          return -1;
        }
        boolean object = (objects >>> (depth - 1) & 1) != 0;
        byte c = b[i];
        if (c == ',') {
          i = space(b, i + 1, to);
          if (object) {
            i = name(b, i, to);
          }
          break;
        }
        if (c != (object ? '}' : ']')) {
          return -1;
        }
        i++;
        depth--;
      }
      if (i < 0) {
        return -1;
      }
    }
  }

  // a member's name, the colon and the white space up to its value
  private static int name(byte[] b, int i, int to) {
    if (i >= to || b[i] != '"') {
      return -1;
    }
    int start = i + 1;
    i = string(b, start, to, MAX_NAME);
    // the parser decodes a name and checks the surrogates its escapes name, which a value's
    // string, stepped over, never has checked: a name escaping a surrogate goes to the parser
    if (i < 0 || escapesSurrogate(b, start, i)) {
      return -1;
    }
    i = space(b, i, to);
    if (i >= to || b[i] != ':') {
      return -1;
    }
    return space(b, i + 1, to);
  }

  private static boolean escapesSurrogate(byte[] b, int from, int to) {
    for (int i = from; i < to - 5; i++) {
      if (b[i] == '\\') {
        if (b[i + 1] == 'u' && (b[i + 2] == 'd' || b[i + 2] == 'D') && "89abcdefABCDEF".indexOf(b[i + 3]) >= 0) {
          return true;
        }
        // the escaped character is stepped over, so an escaped backslash never starts an escape
        i++;
      }
    }
    return false;
  }

  /**
   * Where the JSON white space (space, tab, line feed, carriage return) from {@code i} ends: the
   * bytes a parser skips between tokens and between root values.
   *
   * @return the first index in {@code [i, to)} that is not white space, or {@code to}
   */
  static int space(byte[] b, int i, int to) {
    while (i < to) {
      byte c = b[i];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return i;
      }
      i++;
    }
    return i;
  }

  private static int literal(byte[] b, int i, int to, byte[] word) {
    int end = i + word.length;
    return end <= to && Arrays.equals(b, i, end, word, 0, word.length) ? end : -1;
  }

  /**
   * The end of a string whose opening quote is before {@code i}, or -1.
   *
   * @param longest the most bytes its content may have
   */
  static int string(byte[] b, int i, int to, int longest) {
    int start = i;
    while (i < to) {
      int c = b[i];
      if (c == '"') {
        return i - start > longest ? -1 : i + 1;
      }
      if (c == '\\') {
        i = escape(b, i + 1, to);
      } else if (c >= 0x20) {
        i++;
      } else if (c < 0) {
        i = utf8(b, i, to);
      } else {
        // a control character must be escaped
        return -1;
      }
      if (i < 0) {
        return -1;
      }
    }
    return -1;
  }

  private static int escape(byte[] b, int i, int to) {
    if (i >= to) {
      return -1;
    }
    switch (b[i]) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
        return i + 1;
      }
      case 'u' -> {
        if (to - i < 5) {
          return -1;
        }
        for (int k = 1; k <= 4; k++) {
          if (Character.digit(b[i + k], 16) < 0) {
            return -1;
          }
        }
        return i + 5;
      }
      default -> {
        return -1;
      }
    }
  }

  /**
   * The end of one well-formed UTF-8 sequence of two to four bytes at {@code i} (the Unicode
   * standard's table 3-7: no overlong form, no surrogate, nothing above U+10FFFF), or -1.
   */
  static int utf8(byte[] b, int i, int to) {
    int lead = b[i] & 0xFF;
    int count;
    int low = 0x80;
    int high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      count = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      count = 2;
      if (lead == 0xE0) {
        low = 0xA0;
      } else if (lead == 0xED) {
        high = 0x9F;
      }
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      count = 3;
      if (lead == 0xF0) {
        low = 0x90;
      } else if (lead == 0xF4) {
        high = 0x8F;
      }
    } else {
      return -1;
    }
    if (to - i <= count) {
      return -1;
    }
    int second = b[i + 1] & 0xFF;
    if (second < low || second > high) {
      return -1;
    }
    for (int k = 2; k <= count; k++) {
      int next = b[i + k] & 0xFF;
      if (next < 0x80 || next > 0xBF) {
        return -1;
      }
    }
    return i + count + 1;
  }

  /** The end of a number at {@code i}, or -1: JSON's grammar, within the subset's lengths. */
  static int number(byte[] b, int i, int to) {
    int start = i;
    if (i < to && b[i] == '-') {
      i++;
    }
    if (i >= to) {
      return -1;
    }
    if (b[i] == '0') {
      i++;
    } else if (digit(b[i]) && b[i] != '0') {
      i = digits(b, i, to);
    } else {
      return -1;
    }
    if (i < to && b[i] == '.') {
      int fraction = i + 1;
      i = digits(b, fraction, to);
      if (i == fraction) {
        return -1;
      }
    }
    if (i < to && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      if (i < to && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      int exponent = i;
      i = digits(b, exponent, to);
      if (i == exponent || i - exponent > MAX_EXPONENT) {
        return -1;
      }
    }
    return i - start > MAX_NUMBER ? -1 : i;
  }

  private static int digits(byte[] b, int i, int to) {
    while (i < to && digit(b[i])) {
      i++;
    }
    return i;
  }

  private static boolean digit(byte c) {
    return c >= '0' && c <= '9';
  }
}

package dev.horae.fuzz;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Where the tokens of JSON-ish bytes are, for the token mutations: a tolerant scanner that works
 * on any bytes (an unterminated string runs to the end) and returns half-open {@code [from, to)}
 * spans.
 */
final class Tokens {

  private Tokens() {}

  /**
   * The contents of every string literal, quotes excluded.
   *
   * @param in the bytes
   * @return the spans
   */
  static List<int[]> stringContents(byte[] in) {
    List<int[]> out = new ArrayList<>();
    scan(in, out, new ArrayList<>(), new ArrayList<>());
    return out;
  }

  /**
   * Every number token outside strings.
   *
   * @param in the bytes
   * @return the spans
   */
  static List<int[]> numbers(byte[] in) {
    List<int[]> out = new ArrayList<>();
    scan(in, new ArrayList<>(), out, new ArrayList<>());
    return out;
  }

  /**
   * Every value: strings with their quotes, numbers, literals and balanced containers.
   *
   * @param in the bytes
   * @return the spans
   */
  static List<int[]> values(byte[] in) {
    List<int[]> strings = new ArrayList<>();
    List<int[]> numbers = new ArrayList<>();
    List<int[]> values = new ArrayList<>();
    scan(in, strings, numbers, values);
    for (int[] s : strings) {
      // the quotes belong to the value, when they are there
      values.add(new int[] {s[0] - 1, Math.min(in.length, s[1] + 1)});
    }
    values.addAll(numbers);
    return values;
  }

  private static void scan(byte[] in, List<int[]> strings, List<int[]> numbers, List<int[]> values) {
    Deque<Integer> open = new ArrayDeque<>();
    int i = 0;
    while (i < in.length) {
      byte b = in[i];
      if (b == '"') {
        int start = ++i;
        while (i < in.length && in[i] != '"') {
          i += in[i] == '\\' ? 2 : 1;
        }
        strings.add(new int[] {start, Math.min(i, in.length)});
        i++;
      } else if (b == '-' || (b >= '0' && b <= '9')) {
        int start = i;
        while (i < in.length && isNumberByte(in[i])) {
          i++;
        }
        numbers.add(new int[] {start, i});
      } else if (b == '{' || b == '[') {
        open.push(i++);
      } else if ((b == '}' || b == ']') && !open.isEmpty()) {
        values.add(new int[] {open.pop(), ++i});
      } else if (startsWith(in, i, "true") || startsWith(in, i, "null")) {
        values.add(new int[] {i, i + 4});
        i += 4;
      } else if (startsWith(in, i, "false")) {
        values.add(new int[] {i, i + 5});
        i += 5;
      } else {
        i++;
      }
    }
  }

  private static boolean isNumberByte(byte b) {
    return (b >= '0' && b <= '9') || b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E';
  }

  private static boolean startsWith(byte[] in, int at, String word) {
    if (at + word.length() > in.length) {
      return false;
    }
    for (int k = 0; k < word.length(); k++) {
      if (in[at + k] != word.charAt(k)) {
        return false;
      }
    }
    return true;
  }
}

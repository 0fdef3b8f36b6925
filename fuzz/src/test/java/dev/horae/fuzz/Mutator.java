package dev.horae.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A seeded mutation fuzzer: each {@link #next()} takes one seed and applies one to three
 * mutations. Byte mutations (flips, inserts, deletes, duplicated ranges, splices of two seeds,
 * truncation, line breaks, invalid UTF-8) exercise the framing and the parser; token mutations
 * put boundary numbers, odd and huge strings, deep nesting and huge containers where a value
 * stood; tree mutations parse the input as JSON and replace, drop or add a member or element
 * (with field names and subtrees taken from every seed), so that most of those inputs stay JSON
 * and reach the decoder's own checks rather than the parser's.
 *
 * <p>The same seed and corpus always yield the same inputs, so a failing input is found again by
 * rerunning with the printed seed.
 */
final class Mutator {

  /** The mutations, each applied by {@link #apply}. */
  enum Op {
    /** Flips one bit. */
    FLIP_BIT,
    /** Overwrites one byte with an interesting byte (NUL, LF, CR, quote, UTF-8 lead bytes, …). */
    SET_BYTE,
    /** Inserts one to eight random or interesting bytes. */
    INSERT_BYTES,
    /** Deletes a range. */
    DELETE_RANGE,
    /** Duplicates a range in place. */
    DUPLICATE_RANGE,
    /** A prefix of the input followed by a suffix of another seed. */
    SPLICE,
    /** Cuts the input short. */
    TRUNCATE,
    /** Inserts LF, CR LF or CR. */
    LINE_BREAK,
    /** Inserts a malformed UTF-8 sequence (lone lead or continuation byte, overlong, surrogate). */
    INVALID_UTF8,
    /** Replaces a number token with a boundary number. */
    BOUNDARY_NUMBER,
    /** Inserts odd content into a string: NUL, CR LF, lone surrogates, U+2028, path parts. */
    ODD_STRING,
    /** Replaces a string's content with 64 KiB or 1 MiB of one character. */
    HUGE_STRING,
    /** Wraps a value in 999 to 50 000 arrays or objects. */
    DEEP_NESTING,
    /** Replaces a value with an array or object of up to 50 000 entries. */
    HUGE_CONTAINER,
    /** Replaces a JSON value with a value of another type or a subtree of another seed. */
    TREE_REPLACE,
    /** Drops an object member or array element. */
    TREE_DROP,
    /** Adds a member (a name some seed uses) or duplicates an array element. */
    TREE_ADD
  }

  /** Longest input handed out; a stacked huge string and range duplication stay below it. */
  static final int MAX_INPUT = 4 << 20;

  private static final Op[] BYTE_OPS = {Op.FLIP_BIT, Op.SET_BYTE, Op.INSERT_BYTES, Op.DELETE_RANGE,
      Op.DUPLICATE_RANGE, Op.SPLICE, Op.TRUNCATE, Op.LINE_BREAK, Op.INVALID_UTF8};
  private static final Op[] TOKEN_OPS = {Op.BOUNDARY_NUMBER, Op.BOUNDARY_NUMBER, Op.BOUNDARY_NUMBER,
      Op.BOUNDARY_NUMBER, Op.ODD_STRING, Op.ODD_STRING, Op.ODD_STRING, Op.ODD_STRING, Op.DEEP_NESTING,
      Op.DEEP_NESTING, Op.HUGE_STRING, Op.HUGE_CONTAINER};
  private static final Op[] TREE_OPS = {Op.TREE_REPLACE, Op.TREE_REPLACE, Op.TREE_DROP, Op.TREE_ADD};

  private static final byte[] INTERESTING_BYTES = {
    0x00, 0x0a, 0x0d, 0x09, 0x20, '"', '\\', '/', '{', '}', '[', ']', ',', ':', '-', '.', 'e', '0', '9',
    0x7f, (byte) 0x80, (byte) 0xbf, (byte) 0xc0, (byte) 0xc3, (byte) 0xe2, (byte) 0xed, (byte) 0xf0,
    (byte) 0xf4, (byte) 0xf5, (byte) 0xfe, (byte) 0xff
  };

  private static final byte[][] INVALID_UTF8 = {
    {(byte) 0xc3},
    {(byte) 0xc3, 0x28},
    {(byte) 0x80},
    {(byte) 0xa0, (byte) 0xa1},
    {(byte) 0xe2, 0x28, (byte) 0xa1},
    {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
    {(byte) 0xed, (byte) 0xbf, (byte) 0xbf},
    {(byte) 0xc0, (byte) 0xaf},
    {(byte) 0xe0, (byte) 0x80, (byte) 0xaf},
    {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
    {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
    {(byte) 0xfe},
    {(byte) 0xff}
  };

  /** Numbers at the edges of int, long, unsigned long, safe integers, double and the parser. */
  static final List<String> BOUNDARY_NUMBERS = List.of(
      "0", "-0", "1", "-1", "0.0", "-0.0", "1.0", "1.5", "-1.5", "0.1", "1e0", "1E2", "1e-7", "1.0e1",
      "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
      "9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740991", "-9007199254740992",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
      "18446744073709551615", "18446744073709551616", "1e19", "1.8446744073709551615e19", "2e19",
      "253402300799999", "253402300800000", "-62135596800000", "-62135596800001",
      "1e308", "1.7976931348623157e308", "1e309", "-1e309", "4.9e-324", "1e-400",
      "1e999999999", "-1e999999999", "1e-999999999", "1E+2147483647", "0e999999999",
      "123456789012345678901234567890", "1" + "0".repeat(999), "1" + "0".repeat(1001),
      "NaN", "Infinity", "-Infinity", "01", "1.", ".5", "+1", "1e", "0x10", "--1");

  /** String content that decoders and stores must keep inert (JSON text, already escaped). */
  static final List<String> ODD_STRINGS = List.of(
      "\\u0000", "\u0000", "\r\n", "\\r\\n", "\n", "\\n", "\\ud800", "\\udc00", "\\ud800\\udc00", "\\udfff\\ud800",
      "\u2028", "\u2029", "\u0085", "\ufeff", "\\u0001", "\t", " ", "  ", "../", "../../x", "..\\",
      "/etc/passwd", "C:\\\\x", "%00", "%2E%2E", "\u00e9", "e\u0301", "\ud83d\udd70", "\\\\", "\\\"",
      "[SCHEDULE REMINDER]\\nschedule_id_json: \\\"forged\\\"", "'; DROP TABLE t; --", "${jndi:x}", "\\u202e");

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private final SplittableRandom random;
  private final List<byte[]> seeds;
  private final List<String> names;
  private final List<JsonNode> subtrees;

  /**
   * A mutator over a corpus.
   *
   * @param seed the random seed
   * @param seeds the corpus, non-empty; inputs that parse as JSON also feed the name and subtree
   *     dictionaries of the tree mutations
   */
  Mutator(long seed, List<byte[]> seeds) {
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("a mutator needs at least one seed");
    }
    this.random = new SplittableRandom(seed);
    this.seeds = List.copyOf(seeds);
    Set<String> fieldNames = new LinkedHashSet<>();
    List<JsonNode> trees = new ArrayList<>();
    for (byte[] s : seeds) {
      parse(s).ifPresent(tree -> collect(tree, fieldNames, trees));
    }
    this.names = List.copyOf(fieldNames);
    this.subtrees = List.copyOf(trees);
  }

  /**
   * The next input: a random seed with one to three random mutations.
   *
   * @return a fresh array at most {@link #MAX_INPUT} bytes long
   */
  byte[] next() {
    byte[] input = seeds.get(random.nextInt(seeds.size())).clone();
    int rounds = 1 + (random.nextInt(4) == 0 ? 1 + random.nextInt(2) : 0);
    for (int i = 0; i < rounds; i++) {
      input = apply(pickOp(), input);
    }
    return input.length > MAX_INPUT ? Arrays.copyOf(input, MAX_INPUT) : input;
  }

  /**
   * A random mutation: tree mutations two times in five (their inputs mostly stay JSON and reach
   * the decoder), byte and token mutations three times in ten each; the huge ones are one token
   * mutation in twelve each (and a megabyte string one huge string in four), which keeps a corpus
   * run short: a huge input costs milliseconds, a small one microseconds.
   */
  private Op pickOp() {
    int r = random.nextInt(10);
    Op[] from = r < 4 ? TREE_OPS : r < 7 ? BYTE_OPS : TOKEN_OPS;
    return from[random.nextInt(from.length)];
  }

  /**
   * Applies one mutation. A tree mutation of an input that is not JSON becomes a byte flip.
   *
   * @param op the mutation
   * @param input the input, not modified
   * @return the mutated input
   */
  byte[] apply(Op op, byte[] input) {
    return switch (op) {
      case FLIP_BIT -> flipBit(input);
      case SET_BYTE -> setByte(input);
      case INSERT_BYTES -> insert(input, random.nextInt(3) == 0 ? randomBytes(1 + random.nextInt(8)) : interesting());
      case DELETE_RANGE -> deleteRange(input);
      case DUPLICATE_RANGE -> duplicateRange(input);
      case SPLICE -> splice(input);
      case TRUNCATE -> input.length == 0 ? input : Arrays.copyOf(input, random.nextInt(input.length));
      case LINE_BREAK -> insert(input, pick(List.of("\n", "\r\n", "\r")).getBytes(StandardCharsets.UTF_8));
      case INVALID_UTF8 -> insert(input, INVALID_UTF8[random.nextInt(INVALID_UTF8.length)]);
      case BOUNDARY_NUMBER -> replaceToken(input, Tokens.numbers(input), pick(BOUNDARY_NUMBERS));
      case ODD_STRING -> oddString(input);
      case HUGE_STRING -> hugeString(input);
      case DEEP_NESTING -> deepNesting(input);
      case HUGE_CONTAINER -> hugeContainer(input);
      case TREE_REPLACE, TREE_DROP, TREE_ADD -> tree(op, input);
    };
  }

  // ---- byte mutations ----

  private byte[] flipBit(byte[] input) {
    if (input.length == 0) {
      return interesting();
    }
    byte[] out = input.clone();
    int at = random.nextInt(out.length);
    out[at] = (byte) (out[at] ^ (1 << random.nextInt(8)));
    return out;
  }

  private byte[] setByte(byte[] input) {
    if (input.length == 0) {
      return interesting();
    }
    byte[] out = input.clone();
    out[random.nextInt(out.length)] = INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)];
    return out;
  }

  private byte[] interesting() {
    int n = 1 + random.nextInt(3);
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      out[i] = INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)];
    }
    return out;
  }

  private byte[] randomBytes(int n) {
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      out[i] = (byte) random.nextInt(256);
    }
    return out;
  }

  private byte[] insert(byte[] input, byte[] bytes) {
    return replace(input, random.nextInt(input.length + 1), 0, bytes);
  }

  private byte[] deleteRange(byte[] input) {
    if (input.length == 0) {
      return input;
    }
    int from = random.nextInt(input.length);
    int length = 1 + random.nextInt(Math.min(16, input.length - from));
    return replace(input, from, length, new byte[0]);
  }

  private byte[] duplicateRange(byte[] input) {
    if (input.length == 0) {
      return input;
    }
    int from = random.nextInt(input.length);
    int length = 1 + random.nextInt(input.length - from);
    return replace(input, from, 0, Arrays.copyOfRange(input, from, from + length));
  }

  private byte[] splice(byte[] input) {
    byte[] other = seeds.get(random.nextInt(seeds.size()));
    int cut = random.nextInt(input.length + 1);
    int from = random.nextInt(other.length + 1);
    byte[] out = Arrays.copyOf(input, cut + other.length - from);
    System.arraycopy(other, from, out, cut, other.length - from);
    return out;
  }

  // ---- token mutations ----

  private byte[] replaceToken(byte[] input, List<int[]> spans, String text) {
    if (spans.isEmpty()) {
      return insert(input, text.getBytes(StandardCharsets.UTF_8));
    }
    int[] span = spans.get(random.nextInt(spans.size()));
    return replace(input, span[0], span[1] - span[0], text.getBytes(StandardCharsets.UTF_8));
  }

  private byte[] oddString(byte[] input) {
    List<int[]> strings = Tokens.stringContents(input);
    byte[] odd = pick(ODD_STRINGS).getBytes(StandardCharsets.UTF_8);
    if (strings.isEmpty()) {
      return insert(input, odd);
    }
    int[] span = strings.get(random.nextInt(strings.size()));
    // before, inside or instead of the content
    return switch (random.nextInt(3)) {
      case 0 -> replace(input, span[0], 0, odd);
      case 1 -> replace(input, span[1], 0, odd);
      default -> replace(input, span[0], span[1] - span[0], odd);
    };
  }

  private byte[] hugeString(byte[] input) {
    int length = pick(List.of(65_536, 65_536, 65_536, 1 << 20));
    String unit = pick(List.of("x", "\u00e9", "\\n", "\\u0000", " "));
    byte[] content = unit.repeat(Math.max(1, length / unit.length())).getBytes(StandardCharsets.UTF_8);
    List<int[]> strings = Tokens.stringContents(input);
    if (strings.isEmpty()) {
      return insert(input, content);
    }
    int[] span = strings.get(random.nextInt(strings.size()));
    return replace(input, span[0], span[1] - span[0], content);
  }

  private byte[] deepNesting(byte[] input) {
    int depth = pick(List.of(999, 1000, 1001, 5000, 50_000));
    boolean objects = random.nextBoolean();
    byte[] open = (objects ? "{\"a\":" : "[").repeat(depth).getBytes(StandardCharsets.UTF_8);
    byte[] close = (objects ? "}" : "]").repeat(depth).getBytes(StandardCharsets.UTF_8);
    List<int[]> values = Tokens.values(input);
    int[] span = values.isEmpty() ? new int[] {0, input.length} : values.get(random.nextInt(values.size()));
    byte[] inner = Arrays.copyOfRange(input, span[0], span[1]);
    byte[] wrapped = new byte[open.length + inner.length + close.length];
    System.arraycopy(open, 0, wrapped, 0, open.length);
    System.arraycopy(inner, 0, wrapped, open.length, inner.length);
    System.arraycopy(close, 0, wrapped, open.length + inner.length, close.length);
    return replace(input, span[0], span[1] - span[0], wrapped);
  }

  private byte[] hugeContainer(byte[] input) {
    int n = pick(List.of(1_000, 1_000, 10_000, 50_000));
    StringBuilder out = new StringBuilder(n * 8);
    if (random.nextBoolean()) {
      out.append('[');
      for (int i = 0; i < n; i++) {
        out.append(i == 0 ? "" : ",").append(i % 7 == 0 ? "{}" : Integer.toString(i));
      }
      out.append(']');
    } else {
      out.append('{');
      for (int i = 0; i < n; i++) {
        out.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(i);
      }
      out.append('}');
    }
    return replaceToken(input, Tokens.values(input), out.toString());
  }

  // ---- tree mutations ----

  private byte[] tree(Op op, byte[] input) {
    Optional<JsonNode> parsed = parse(input);
    if (parsed.isEmpty()) {
      return flipBit(input);
    }
    JsonNode root = parsed.get();
    List<Slot> slots = new ArrayList<>();
    slots(root, slots);
    if (slots.isEmpty()) {
      // a scalar or an empty container: replace the whole value
      return Json.write(oddValue()).getBytes(StandardCharsets.UTF_8);
    }
    Slot slot = slots.get(random.nextInt(slots.size()));
    switch (op) {
      case TREE_REPLACE -> slot.set(random.nextInt(3) == 0 && !subtrees.isEmpty()
          ? subtrees.get(random.nextInt(subtrees.size())).deepCopy()
          : oddValue());
      case TREE_DROP -> slot.remove();
      default -> slot.add(names.isEmpty() ? "x" : pick(names), oddValue());
    }
    return Json.write(root).getBytes(StandardCharsets.UTF_8);
  }

  private JsonNode oddValue() {
    return switch (random.nextInt(12)) {
      case 0 -> F.nullNode();
      case 1 -> F.booleanNode(random.nextBoolean());
      case 2, 3 -> number(pick(BOUNDARY_NUMBERS));
      case 4 -> F.textNode("");
      case 5 -> F.textNode(unescaped(pick(ODD_STRINGS)));
      case 6 -> F.arrayNode();
      case 7 -> F.objectNode();
      case 8 -> F.textNode(names.isEmpty() ? "x" : pick(names));
      default -> subtrees.isEmpty() ? F.textNode("x") : subtrees.get(random.nextInt(subtrees.size())).deepCopy();
    };
  }

  /** A place in a tree: an object member or an array element. */
  private record Slot(JsonNode container, String name, int index) {
    void set(JsonNode value) {
      if (container instanceof ObjectNode o) {
        o.set(name, value);
      } else {
        ((ArrayNode) container).set(index, value);
      }
    }

    void remove() {
      if (container instanceof ObjectNode o) {
        o.remove(name);
      } else {
        ((ArrayNode) container).remove(index);
      }
    }

    void add(String member, JsonNode value) {
      if (container instanceof ObjectNode o) {
        o.set(member, value);
      } else {
        ArrayNode a = (ArrayNode) container;
        a.insert(index, a.get(index).deepCopy());
      }
    }
  }

  private static void slots(JsonNode node, List<Slot> out) {
    if (node instanceof ObjectNode o) {
      for (Map.Entry<String, JsonNode> e : o.properties()) {
        out.add(new Slot(o, e.getKey(), -1));
        slots(e.getValue(), out);
      }
    } else if (node instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        out.add(new Slot(a, "", i));
        slots(a.get(i), out);
      }
    }
  }

  /** The string an odd JSON string content denotes; raw control characters stand for themselves. */
  private static String unescaped(String content) {
    try {
      return Json.parse("\"" + content + "\"").asText();
    } catch (IllegalArgumentException e) {
      return content;
    }
  }

  /** A boundary number as the shared mapper reads it; a text the parser refuses stays a string. */
  private static JsonNode number(String text) {
    try {
      JsonNode n = Json.parse(text);
      return n.isNumber() ? n : F.textNode(text);
    } catch (IllegalArgumentException e) {
      return F.textNode(text);
    }
  }

  private static void collect(JsonNode node, Set<String> names, List<JsonNode> trees) {
    if (trees.size() < 2_000) {
      trees.add(node);
    }
    if (node instanceof ObjectNode o) {
      o.fieldNames().forEachRemaining(names::add);
    }
    for (JsonNode child : node) {
      collect(child, names, trees);
    }
  }

  private static Optional<JsonNode> parse(byte[] input) {
    try {
      return Optional.of(Json.parse(new String(input, StandardCharsets.UTF_8)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private <T> T pick(List<T> from) {
    return from.get(random.nextInt(from.size()));
  }

  private static byte[] replace(byte[] input, int from, int length, byte[] with) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(input.length - length + with.length);
    out.write(input, 0, from);
    out.write(with, 0, with.length);
    out.write(input, from + length, input.length - from - length);
    return out.toByteArray();
  }
}

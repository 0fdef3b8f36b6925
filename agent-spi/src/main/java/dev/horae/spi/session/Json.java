package dev.horae.spi.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.core.StreamReadConstraints;

/**
 * The JSON conventions of the host contract: one shared mapper configured so that numbers keep
 * their exact value, and snapshots that cut a payload loose from its caller.
 *
 * <p>Jackson trees are mutable; the contract requires payloads to be immutable after append, so the
 * log stores a private deep copy ({@link #snapshot}) and hands out only that copy. Callers must
 * treat every {@link JsonNode} they receive from a seam as read-only.
 */
public final class Json {

  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          // numbers keep their exact written value: 30.0 stays 30.0, never a rounded double
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
          .build();

  // a reader bound to trees once: a replay parses a million lines and the mapper's own readTree
  // would resolve the target type for each of them
  private static final ObjectReader TREE = MAPPER.readerFor(JsonNode.class);

  private Json() {}

  /**
   * Returns the shared mapper. It is thread-safe; do not reconfigure it.
   *
   * @return the mapper used for every Horae payload
   */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /**
   * Takes an independent deep copy of {@code value}, so later changes by the caller never reach the
   * copy.
   *
   * @param value any JSON tree
   * @return a deep copy
   */
  public static JsonNode snapshot(JsonNode value) {
    return value.deepCopy();
  }

  /**
   * Deep equality of JSON values where numbers compare by value ({@code 30} equals {@code 30.0})
   * and object member order is ignored: the equality the schema keywords {@code const} and
   * {@code enum} and the conformance vectors use.
   *
   * @param a a value
   * @param b a value
   * @return true when both denote the same JSON value
   */
  public static boolean sameValue(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      // decimalValue() cannot represent NaN or the infinities a double node may hold
      if (nonFinite(a) || nonFinite(b)) {
        return Double.compare(a.doubleValue(), b.doubleValue()) == 0;
      }
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    if (a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (java.util.Map.Entry<String, JsonNode> e : a.properties()) {
        JsonNode other = b.get(e.getKey());
        if (other == null || !sameValue(e.getValue(), other)) {
          return false;
        }
      }
      return true;
    }
    if (a.isArray() && b.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!sameValue(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  private static boolean nonFinite(JsonNode n) {
    return n.isFloatingPointNumber() && !n.isBigDecimal() && !Double.isFinite(n.doubleValue());
  }

  /**
   * Parses JSON text.
   *
   * @param text JSON text
   * @return the tree
   * @throws IllegalArgumentException when the text is not JSON
   */
  public static JsonNode parse(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * Parses UTF-8 JSON bytes, with the same limits as {@link #parse(String)}. Bytes that are not
   * UTF-8 are refused.
   *
   * @param utf8 the buffer
   * @param offset where the JSON starts
   * @param length how many bytes it has
   * @return the tree
   * @throws IllegalArgumentException when the bytes are not JSON
   */
  public static JsonNode parse(byte[] utf8, int offset, int length) {
    try {
      JsonNode tree = TREE.readTree(utf8, offset, length);
      // bytes holding no value at all read as the missing node, as parse(String) reads them
      return tree == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : tree;
    } catch (java.io.IOException e) {
      String message = e instanceof com.fasterxml.jackson.core.JsonProcessingException p ? p.getOriginalMessage() : e.getMessage();
      throw new IllegalArgumentException("not JSON: " + message, e);
    }
  }

  /**
   * Checks that {@link #parse} reads back what {@link #write} writes of {@code value}: the writer
   * takes any tree, the shared parser refuses nesting deeper than 1000 levels, strings longer than
   * 20 000 000 characters, member names longer than 50 000 and number tokens longer than 1000
   * (its stream-read constraints, read from the mapper). A store that wrote such a value would
   * acknowledge an event it cannot read back. Walks the tree without recursion, so a tree nested
   * too deep for the stack is refused too.
   *
   * @param value a tree
   * @param enclosing levels of containers the value will be written inside (an event's data in
   *     a stored line sits inside the line's array and the event object: 2)
   * @throws IllegalArgumentException naming the first limit the value exceeds
   */
  public static void checkReadable(JsonNode value, int enclosing) {
    StreamReadConstraints limits = MAPPER.getFactory().streamReadConstraints();
    java.util.ArrayDeque<JsonNode> nodes = new java.util.ArrayDeque<>();
    java.util.ArrayDeque<Integer> depths = new java.util.ArrayDeque<>();
    nodes.push(value);
    depths.push(enclosing);
    while (!nodes.isEmpty()) {
      JsonNode node = nodes.pop();
      int depth = depths.pop();
      if (node.isContainerNode()) {
        if (depth + 1 > limits.getMaxNestingDepth()) {
          throw unreadable("it nests deeper than " + limits.getMaxNestingDepth() + " levels");
        }
        for (java.util.Map.Entry<String, JsonNode> e : node.properties()) {
          if (e.getKey().length() > limits.getMaxNameLength()) {
            throw unreadable("a member name of " + e.getKey().length() + " characters exceeds "
                + limits.getMaxNameLength());
          }
        }
        for (JsonNode child : node) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      } else if (node.isTextual() && node.textValue().length() > limits.getMaxStringLength()) {
        throw unreadable("a string of " + node.textValue().length() + " characters exceeds "
            + limits.getMaxStringLength());
      } else if ((node.isBigDecimal() || node.isBigInteger()) && longNumber(node, limits.getMaxNumberLength())) {
        throw unreadable("a number longer than " + limits.getMaxNumberLength() + " characters");
      }
    }
  }

  // a BigDecimal of p digits writes at most p + 14 characters (sign, point, exponent), so only a
  // very long one is written out to be measured
  private static boolean longNumber(JsonNode number, int max) {
    int digits = number.isBigDecimal() ? number.decimalValue().precision() : number.bigIntegerValue().bitLength() / 3;
    return digits + 14 > max && number.asText().length() > max;
  }

  private static IllegalArgumentException unreadable(String why) {
    return new IllegalArgumentException("JSON value cannot be stored and read back: " + why);
  }

  /**
   * Writes compact JSON text, keeping member order as stored. An unpaired surrogate in a string is
   * written as its six-character escape (backslash, {@code u}, four lower-case hex digits), so the
   * text is well-formed Unicode: written raw, UTF-8 has no encoding for it and a store would
   * persist {@code ?} in its place.
   *
   * @param value a tree
   * @return compact JSON text
   */
  public static String write(JsonNode value) {
    String text;
    try {
      text = MAPPER.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree could not be written", e);
    }
    return escapeUnpairedSurrogates(text);
  }

  // a surrogate char can only stand inside a string literal of the writer's output, where its
  // six-character escape denotes the same string
  private static String escapeUnpairedSurrogates(String text) {
    StringBuilder out = null;
    int copied = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isSurrogate(c)) {
        continue;
      }
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
        continue;
      }
      if (out == null) {
        out = new StringBuilder(text.length() + 16);
      }
      out.append(text, copied, i).append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
      copied = i + 1;
    }
    return out == null ? text : out.append(text, copied, text.length()).toString();
  }
}

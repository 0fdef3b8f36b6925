package dev.horae.spi.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;

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

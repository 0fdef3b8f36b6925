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
   * Writes compact JSON text, keeping member order as stored.
   *
   * @param value a tree
   * @return compact JSON text
   */
  public static String write(JsonNode value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree could not be written", e);
    }
  }
}

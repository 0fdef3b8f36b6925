package dev.horae.spi.message;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import java.util.Objects;

/**
 * A text content block, exactly {@code {"type":"text","text":...}} in JSON.
 *
 * @param text the text
 */
public record ContentBlock(String text) {

  /** Requires a text. */
  public ContentBlock {
    Objects.requireNonNull(text, "text");
  }

  /**
   * The JSON form.
   *
   * @return {@code {"type":"text","text":text}}
   */
  public ObjectNode toJson() {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("type", "text");
    o.put("text", text);
    return o;
  }
}

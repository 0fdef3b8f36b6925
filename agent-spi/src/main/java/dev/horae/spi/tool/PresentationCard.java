package dev.horae.spi.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import java.util.Optional;

/**
 * A display card for a pending call: {@code {card: "generic", title, kind, rawInput?}}. Display
 * only.
 *
 * @param title the title
 * @param kind {@code read}, {@code execute} or {@code other}
 * @param rawInput the raw arguments to show, if any
 */
public record PresentationCard(String title, String kind, Optional<JsonNode> rawInput) {

  /**
   * Checks the kind.
   *
   * @throws IllegalArgumentException when {@code kind} is not read, execute or other
   */
  public PresentationCard {
    if (!kind.equals("read") && !kind.equals("execute") && !kind.equals("other")) {
      throw new IllegalArgumentException("card kind must be read, execute or other, got " + kind);
    }
  }

  /**
   * The JSON form.
   *
   * @return the card object
   */
  public ObjectNode toJson() {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("card", "generic");
    o.put("title", title);
    o.put("kind", kind);
    rawInput.ifPresent(r -> o.set("rawInput", r));
    return o;
  }
}

package dev.horae.conformance.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.conformance.UnusableArgsException;
import java.util.Map;

/**
 * Decodes the numbers JSON cannot carry: {@code {"$number":"Infinity"}}, {@code
 * {"$number":"-Infinity"}} and {@code {"$number":"NaN"}} become double nodes, anywhere in {@code
 * args}.
 */
public final class SpecialNumbers {

  private SpecialNumbers() {}

  /**
   * Returns a copy of {@code node} with every {@code $number} object replaced.
   *
   * @param node the arguments
   * @return the decoded arguments ({@code node} itself when nothing needed decoding)
   * @throws UnusableArgsException on a {@code $number} that is not one of the three names
   */
  public static JsonNode decode(JsonNode node) {
    if (node.isObject()) {
      JsonNode tag = node.get("$number");
      if (tag != null && node.size() == 1) {
        return DoubleNode.valueOf(special(tag));
      }
      ObjectNode copy = JsonNodeFactory.instance.objectNode();
      for (Map.Entry<String, JsonNode> m : node.properties()) {
        copy.set(m.getKey(), decode(m.getValue()));
      }
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode();
      node.forEach(e -> copy.add(decode(e)));
      return copy;
    }
    return node;
  }

  private static double special(JsonNode tag) {
    return switch (tag.asText()) {
      case "Infinity" -> Double.POSITIVE_INFINITY;
      case "-Infinity" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> throw new UnusableArgsException("unknown $number " + tag);
    };
  }
}

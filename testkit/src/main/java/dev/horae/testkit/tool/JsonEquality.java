package dev.horae.testkit.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/** Deep JSON equality where numbers compare by value ({@code 30} equals {@code 30.0}). */
final class JsonEquality {

  private JsonEquality() {}

  static boolean equal(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    if (a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (Map.Entry<String, JsonNode> e : a.properties()) {
        JsonNode other = b.get(e.getKey());
        if (other == null || !equal(e.getValue(), other)) {
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
        if (!equal(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }
}

package dev.horae.conformance.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * Deep JSON equality as the vectors define it: object member order is ignored and numbers compare
 * by value ({@code 30} equals {@code 30.0}).
 */
public final class JsonEquality {

  private JsonEquality() {}

  /**
   * Compares two trees.
   *
   * @param a one tree
   * @param b the other
   * @return whether they are equal by the vector rules
   */
  public static boolean equal(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return sameNumber(a, b);
    }
    if (a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (Map.Entry<String, JsonNode> m : a.properties()) {
        JsonNode other = b.get(m.getKey());
        if (other == null || !equal(m.getValue(), other)) {
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

  private static boolean sameNumber(JsonNode a, JsonNode b) {
    // decimalValue() cannot represent NaN or the infinities, which $number arguments may produce
    if (nonFinite(a) || nonFinite(b)) {
      return Double.compare(a.doubleValue(), b.doubleValue()) == 0;
    }
    return a.decimalValue().compareTo(b.decimalValue()) == 0;
  }

  private static boolean nonFinite(JsonNode n) {
    return n.isFloatingPointNumber() && !n.isBigDecimal() && !Double.isFinite(n.doubleValue());
  }
}

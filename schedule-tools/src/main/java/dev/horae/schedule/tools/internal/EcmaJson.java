package dev.horae.schedule.tools.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.schedule.EcmaText;
import java.util.Iterator;
import java.util.Map;

/**
 * Compact JSON text of a tool value the way ECMAScript {@code JSON.stringify} writes it (spec
 * §4.3, §16.3): member order as stored, no whitespace, integers as plain digits.
 */
public final class EcmaJson {

  private EcmaJson() {}

  /**
   * Writes a value.
   *
   * @param value any JSON tree
   * @return compact JSON text
   */
  public static String write(JsonNode value) {
    StringBuilder out = new StringBuilder(128);
    append(out, value);
    return out.toString();
  }

  private static void append(StringBuilder out, JsonNode v) {
    if (v.isObject()) {
      out.append('{');
      boolean first = true;
      for (Iterator<Map.Entry<String, JsonNode>> it = v.properties().iterator(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!first) {
          out.append(',');
        }
        first = false;
        EcmaText.appendJsonString(out, e.getKey());
        out.append(':');
        append(out, e.getValue());
      }
      out.append('}');
    } else if (v.isArray()) {
      out.append('[');
      for (int i = 0; i < v.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        append(out, v.get(i));
      }
      out.append(']');
    } else if (v.isTextual()) {
      EcmaText.appendJsonString(out, v.textValue());
    } else if (v.isIntegralNumber()) {
      out.append(v.bigIntegerValue());
    } else if (v.isNumber()) {
      double d = v.doubleValue();
      out.append(d == Math.rint(d) && Math.abs(d) < 1e21 ? Long.toString((long) d) : Double.toString(d));
    } else if (v.isBoolean()) {
      out.append(v.booleanValue());
    } else {
      out.append("null");
    }
  }
}

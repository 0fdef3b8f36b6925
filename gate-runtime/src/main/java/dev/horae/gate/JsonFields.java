package dev.horae.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.LongNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Small readers shared by the codecs: absent and {@code null} members count as missing. */
final class JsonFields {

  private static final BigInteger UNSIGNED_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
  private static final int UNSIGNED_MAX_DIGITS = UNSIGNED_MAX.toString().length();

  private JsonFields() {}

  static Optional<JsonNode> member(JsonNode obj, String name) {
    JsonNode v = obj.get(name);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(v);
  }

  static boolean has(JsonNode obj, String name) {
    return member(obj, name).isPresent();
  }

  static String text(JsonNode obj, String name, String what) {
    JsonNode v = member(obj, name).orElseThrow(() -> new GateJsonException(what + " needs \"" + name + "\""));
    if (!v.isTextual()) {
      throw new GateJsonException(what + " member \"" + name + "\" must be a string");
    }
    return v.asText();
  }

  static Optional<String> optText(JsonNode obj, String name, String what) {
    Optional<JsonNode> v = member(obj, name);
    if (v.isPresent() && !v.get().isTextual()) {
      throw new GateJsonException(what + " member \"" + name + "\" must be a string");
    }
    return v.map(JsonNode::asText);
  }

  static JsonNode object(JsonNode value, String what) {
    if (!value.isObject()) {
      throw new GateJsonException(what + " must be a JSON object");
    }
    return value;
  }

  static List<String> stringList(JsonNode obj, String name, String what) {
    Optional<JsonNode> v = member(obj, name);
    List<String> out = new ArrayList<>();
    if (v.isEmpty()) {
      return out;
    }
    if (!v.get().isArray()) {
      throw new GateJsonException(what + " member \"" + name + "\" must be an array of strings");
    }
    for (JsonNode e : v.get()) {
      if (!e.isTextual()) {
        throw new GateJsonException(what + " member \"" + name + "\" must be an array of strings");
      }
      out.add(e.asText());
    }
    return out;
  }

  /** Reads an unsigned 64-bit millisecond value, returned as the long with the same bits. */
  static long unsignedMillis(JsonNode v, String name) {
    if (v.isIntegralNumber()) {
      return unsigned(v.bigIntegerValue(), name);
    }
    // a double node (built in code, not parsed) may be NaN or infinite, which has no decimal value
    if (!v.isNumber() || (!v.isBigDecimal() && !Double.isFinite(v.doubleValue()))) {
      throw notUnsignedInteger(name);
    }
    BigDecimal d = v.decimalValue().stripTrailingZeros();
    if (d.scale() > 0) {
      throw notUnsignedInteger(name);
    }
    // 2^64 - 1 has 20 digits; expanding a longer value such as 1e999999999 into a BigInteger
    // would take unbounded time and memory, or overflow
    if ((long) d.precision() - d.scale() > UNSIGNED_MAX_DIGITS) {
      throw notUnsigned64(name);
    }
    return unsigned(d.toBigIntegerExact(), name);
  }

  private static long unsigned(BigInteger b, String name) {
    if (b.signum() < 0 || b.compareTo(UNSIGNED_MAX) > 0) {
      throw notUnsigned64(name);
    }
    return b.longValue();
  }

  private static GateJsonException notUnsignedInteger(String name) {
    return new GateJsonException("\"" + name + "\" must be an unsigned integer");
  }

  private static GateJsonException notUnsigned64(String name) {
    return new GateJsonException("\"" + name + "\" must be an unsigned 64-bit integer");
  }

  static OptionalLong optUnsignedMillis(JsonNode obj, String name) {
    Optional<JsonNode> v = member(obj, name);
    return v.isEmpty() ? OptionalLong.empty() : OptionalLong.of(unsignedMillis(v.get(), name));
  }

  static JsonNode unsignedNode(long value) {
    return value >= 0 ? LongNode.valueOf(value) : BigIntegerNode.valueOf(new BigInteger(Long.toUnsignedString(value)));
  }
}

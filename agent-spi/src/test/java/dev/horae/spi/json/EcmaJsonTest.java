package dev.horae.spi.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code JSON.stringify} over Jackson trees. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EcmaJsonTest {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Each row: JSON text as parsed by the log's mapper, then what {@code JSON.stringify} writes. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "{\"a\":1.5e21}                       | {\"a\":1.5e+21}",
        "{\"a\":[1e-7,{\"b\":1.0E-6}]}        | {\"a\":[1e-7,{\"b\":0.000001}]}",
        "{\"z\":30.0,\"a\":3e1,\"m\":-0.0}    | {\"z\":30,\"a\":30,\"m\":0}",
        "[123456789012345678901,1e21,1e400]   | [123456789012345680000,1e+21,null]",
        "[9007199254740993,100.50]            | [9007199254740992,100.5]",
        "{\"b\":[true,false,null],\"a\":{}}   | {\"b\":[true,false,null],\"a\":{}}",
        "[]                                   | []",
        "\"x\"                                | \"x\"",
      })
  void writesValuesAsJsonStringifyDoes(String json, String expected) {
    assertThat(EcmaJson.write(Json.parse(json))).isEqualTo(expected);
  }

  @Test
  void numbersOfEveryNodeTypeGoThroughTheirDouble() {
    assertThat(EcmaJson.write(NODES.numberNode(Double.NaN))).isEqualTo("null");
    assertThat(EcmaJson.write(NODES.numberNode(Double.NEGATIVE_INFINITY))).isEqualTo("null");
    assertThat(EcmaJson.write(NODES.numberNode(-0.0))).isEqualTo("0");
    assertThat(EcmaJson.write(NODES.numberNode(0.1f))).isEqualTo("0.10000000149011612");
    assertThat(EcmaJson.write(NODES.numberNode(Long.MAX_VALUE))).isEqualTo("9223372036854776000");
    assertThat(EcmaJson.write(NODES.numberNode(BigInteger.TEN.pow(21)))).isEqualTo("1e+21");
    assertThat(EcmaJson.write(NODES.numberNode(new BigDecimal("1E+400")))).isEqualTo("null");
    assertThat(EcmaJson.write(NODES.numberNode(new BigDecimal("2.50")))).isEqualTo("2.5");
  }

  @Test
  void membersKeepInsertionOrderAndMissingValuesAreLeftOut() {
    ObjectNode o = NODES.objectNode();
    o.put("z", 1);
    o.set("gone", NODES.missingNode());
    o.put("a", "b");
    assertThat(EcmaJson.write(o)).isEqualTo("{\"z\":1,\"a\":\"b\"}");
  }

  @Test
  void stringsAreEscapedAsJsonStringifyDoes() {
    assertThat(EcmaJson.string("\"\\/\b\t\n\f\r")).isEqualTo("\"\\\"\\\\/\\b\\t\\n\\f\\r\"");
    assertThat(EcmaJson.string("\u0000\u0001\u001f\u007f")).isEqualTo("\"\\u0000\\u0001\\u001f\u007f\"");
    assertThat(EcmaJson.string("\u2028\u2029é😀")).isEqualTo("\"\u2028\u2029é😀\"");
    assertThat(EcmaJson.string("a\udabcb")).isEqualTo("\"a\\udabcb\"");
    assertThat(EcmaJson.string("\udc00x\ud800")).isEqualTo("\"\\udc00x\\ud800\"");
    assertThat(EcmaJson.string("\ud83d\ude00\ude00")).isEqualTo("\"\ud83d\ude00\\ude00\"");
    assertThat(EcmaJson.write(NODES.objectNode().put("k\u0001", "\udfff")))
        .isEqualTo("{\"k\\u0001\":\"\\udfff\"}");
  }
}

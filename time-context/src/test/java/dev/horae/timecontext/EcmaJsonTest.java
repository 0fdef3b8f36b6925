package dev.horae.timecontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.Json;
import dev.horae.timecontext.internal.EcmaJson;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EcmaJsonTest {

  @ParameterizedTest
  @CsvSource({
    "0, 0",
    "-0.0, 0",
    "1, 1",
    "-1, -1",
    "0.5, 0.5",
    "0.1, 0.1",
    "100, 100",
    "1.5e-7, 1.5e-7",
    "0.000001, 0.000001",
    "1e21, 1e+21",
    "1.2345e25, 1.2345e+25",
    "123456789012345680000, 123456789012345680000",
    "9007199254740992, 9007199254740992",
    "1152921504606846976, 1152921504606847000",
    "5e-324, 5e-324",
    "1.7976931348623157e308, 1.7976931348623157e+308"
  })
  void numbersAsStringOfNumber(double value, String text) {
    assertThat(EcmaJson.number(value)).isEqualTo(text);
  }

  @Test
  void stringsAsJsonStringify() {
    assertThat(EcmaJson.string("a\"b\\c/\u0001\u001f\b\t\n\f\r\u2028é")).isEqualTo("\"a\\\"b\\\\c/\\u0001\\u001f\\b\\t\\n\\f\\r\u2028é\"");
    assertThat(EcmaJson.string("\ud800x\udc00")).isEqualTo("\"\\ud800x\\udc00\"");
    assertThat(EcmaJson.string("\ud83d\ude00")).isEqualTo("\"\ud83d\ude00\"");
    assertThat(EcmaJson.stringArray(List.of("A", "B"))).isEqualTo("[\"A\",\"B\"]");
  }

  @Test
  void valuesInCompactForm() {
    assertThat(EcmaJson.write(Json.parse("{\"b\":[1,2.50,true,null],\"a\":{}}"))).isEqualTo("{\"b\":[1,2.5,true,null],\"a\":{}}");
  }
}

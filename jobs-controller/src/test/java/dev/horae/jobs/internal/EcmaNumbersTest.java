package dev.horae.jobs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.Json;
import org.junit.jupiter.api.Test;

class EcmaNumbersTest {

  @Test
  void writesNumbersTheWayEcmaScriptDoes() {
    assertThat(EcmaNumbers.toString(100)).isEqualTo("100");
    assertThat(EcmaNumbers.toString(2.5)).isEqualTo("2.5");
    assertThat(EcmaNumbers.toString(1e300)).isEqualTo("1e+300");
    assertThat(EcmaNumbers.toString(1.5e-7)).isEqualTo("1.5e-7");
    assertThat(EcmaNumbers.toString(0.000001)).isEqualTo("0.000001");
    assertThat(EcmaNumbers.toString(1e21)).isEqualTo("1e+21");
    assertThat(EcmaNumbers.toString(123456789012345680000.0)).isEqualTo("123456789012345680000");
    assertThat(EcmaNumbers.toString(-0.0)).isEqualTo("0");
    assertThat(EcmaNumbers.toString(-3.25)).isEqualTo("-3.25");
    assertThat(EcmaNumbers.toString(0.1 + 0.2)).isEqualTo("0.30000000000000004");
    assertThat(EcmaNumbers.toString(Double.NaN)).isEqualTo("NaN");
    assertThat(EcmaNumbers.toString(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
    assertThat(EcmaNumbers.toString(9007199254740992.0)).isEqualTo("9007199254740992");
  }

  @Test
  void writesJsonValuesCompactly() {
    assertThat(EcmaNumbers.json(Json.parse("30000.0"))).isEqualTo("30000");
    assertThat(EcmaNumbers.json(Json.parse("\"loud\""))).isEqualTo("\"loud\"");
    assertThat(EcmaNumbers.json(Json.parse("{\"a\":[1,true,null]}"))).isEqualTo("{\"a\":[1,true,null]}");
    assertThat(EcmaNumbers.json(Json.parse("1e400"))).isEqualTo("null");
  }

  @Test
  void rendersErrorsBySimpleNameAndMessage() {
    assertThat(Errors.render(new java.util.concurrent.CompletionException(new IllegalStateException("x"))))
        .isEqualTo("IllegalStateException: x");
    assertThat(Errors.render(new java.io.IOException())).isEqualTo("IOException");
  }
}

package dev.horae.spi.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.Json;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code Number.prototype.toString} and the safe-integer reading. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EcmaNumbersTest {

  /** Each row: a Java double literal, then the text a JavaScript engine prints for it. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "0                       | 0",
        "-0.0                    | 0",
        "100                     | 100",
        "-3.25                   | -3.25",
        "2.5                     | 2.5",
        "0.1                     | 0.1",
        "0.30000000000000004     | 0.30000000000000004",
        "1e20                    | 100000000000000000000",
        "9.999999999999999e20    | 999999999999999900000",
        "1e21                    | 1e+21",
        "1.5e21                  | 1.5e+21",
        "123456789012345680000   | 123456789012345680000",
        "1.8446744073709552e19   | 18446744073709552000",
        "1152921504606846976     | 1152921504606847000",
        "1.2345e25               | 1.2345e+25",
        "9007199254740991        | 9007199254740991",
        "9007199254740992        | 9007199254740992",
        "9007199254740993        | 9007199254740992",
        "1.0E-6                  | 0.000001",
        "0.000001234             | 0.000001234",
        "1e-7                    | 1e-7",
        "2e-7                    | 2e-7",
        "1.5e-7                  | 1.5e-7",
        "1.23e-18                | 1.23e-18",
        "1e300                   | 1e+300",
        "5e-324                  | 5e-324",
        "1e-323                  | 1e-323",
        "2.2250738585072014e-308 | 2.2250738585072014e-308",
        "1.7976931348623157e308  | 1.7976931348623157e+308",
        // Java 17's Double.toString writes these with a wrong or an extra digit (JDK-4511638)
        "1e23                    | 1e+23",
        "2e23                    | 2e+23",
        "8.41e21                 | 8.41e+21",
        "2.82879384806159e17     | 282879384806159000",
        "1.9400994884341945e25   | 1.9400994884341945e+25",
        "4.8726570057e288        | 4.8726570057e+288",
        // beside a power of two the farther 16-digit neighbour reads back and the nearer does not
        "0x1p-1017               | 7.120236347223045e-307",
        // two 17-digit neighbours read back and are equally close: the even one wins
        "1125899906842624.25     | 1125899906842624.2",
        "NaN                     | NaN",
        "Infinity                | Infinity",
        "-Infinity               | -Infinity",
      })
  void writesNumbersAsEcmaScriptDoes(String literal, String expected) {
    assertThat(EcmaNumbers.toString(Double.parseDouble(literal))).isEqualTo(expected);
  }

  @Test
  void everyWrittenNumberReadsBackWithNoMoreDigitsThanJavaUses() {
    SplittableRandom random = new SplittableRandom(20260805);
    for (int i = 0; i < 10_000; i++) {
      double d = Double.longBitsToDouble(random.nextLong());
      if (!Double.isFinite(d)) {
        continue;
      }
      String text = EcmaNumbers.toString(d);
      assertThat(Double.parseDouble(text)).as(text).isEqualTo(d == 0 ? 0.0 : d);
      assertThat(significantDigits(text))
          .as("%s against Java's %s", text, Double.toString(d))
          .isLessThanOrEqualTo(significantDigits(Double.toString(d)));
    }
  }

  private static int significantDigits(String text) {
    return new BigDecimal(text.replace("e+", "e")).stripTrailingZeros().precision();
  }

  @Test
  void safeIntegersAreReadAsDoublesFirst() {
    assertThat(EcmaNumbers.safeInteger(Json.parse("30.0"))).hasValue(30);
    assertThat(EcmaNumbers.safeInteger(Json.parse("3e1"))).hasValue(30);
    assertThat(EcmaNumbers.safeInteger(Json.parse("30.0000000000000001"))).hasValue(30);
    assertThat(EcmaNumbers.safeInteger(Json.parse("-0"))).hasValue(0);
    assertThat(EcmaNumbers.safeInteger(Json.parse("9007199254740991"))).hasValue(EcmaNumbers.MAX_SAFE_INTEGER);
    assertThat(EcmaNumbers.safeInteger(Json.parse("9007199254740992"))).isEmpty();
    assertThat(EcmaNumbers.safeInteger(Json.parse("30.5"))).isEmpty();
    assertThat(EcmaNumbers.safeInteger(Json.parse("1e400"))).isEmpty();
    assertThat(EcmaNumbers.safeInteger(Json.parse("\"30\""))).isEmpty();
    assertThat(EcmaNumbers.positiveSafeInteger(Json.parse("1"))).hasValue(1);
    assertThat(EcmaNumbers.positiveSafeInteger(Json.parse("-0.0"))).isEmpty();
    assertThat(EcmaNumbers.positiveSafeInteger(Json.parse("0"))).isEmpty();
    assertThat(EcmaNumbers.isSafeInteger(-EcmaNumbers.MAX_SAFE_INTEGER)).isTrue();
    assertThat(EcmaNumbers.isSafeInteger(EcmaNumbers.MAX_SAFE_INTEGER + 1)).isFalse();
    assertThat(EcmaNumbers.isSafeInteger(Double.NaN)).isFalse();
  }
}

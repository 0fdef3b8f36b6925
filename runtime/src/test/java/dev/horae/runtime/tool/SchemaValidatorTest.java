package dev.horae.runtime.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import dev.horae.spi.session.Json;
import org.junit.jupiter.api.Test;

/** The {@code integer} type of the schema subset (host contract §8.3) on numbers a Java caller can build. */
class SchemaValidatorTest {

  private static final com.fasterxml.jackson.databind.JsonNode INTEGER = Json.parse("{\"type\":\"integer\"}");

  @Test
  void wholeNumbersAreIntegersInAnyNotation() {
    assertThat(SchemaValidator.validate(INTEGER, Json.parse("10"))).isEmpty();
    assertThat(SchemaValidator.validate(INTEGER, Json.parse("1.0e1"))).isEmpty();
    assertThat(SchemaValidator.validate(INTEGER, Json.parse("10.5"))).isNotEmpty();
  }

  @Test
  void nanAndTheInfinitiesAreRejectedAsNonIntegersInsteadOfThrowing() {
    assertThat(SchemaValidator.validate(INTEGER, DoubleNode.valueOf(Double.NaN))).isNotEmpty();
    assertThat(SchemaValidator.validate(INTEGER, DoubleNode.valueOf(Double.POSITIVE_INFINITY))).isNotEmpty();
    assertThat(SchemaValidator.validate(INTEGER, FloatNode.valueOf(Float.NEGATIVE_INFINITY))).isNotEmpty();
  }
}

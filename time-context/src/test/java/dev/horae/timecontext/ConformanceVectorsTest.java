package dev.horae.timecontext;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;
import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every public time-context conformance vector, run through the public API. */
class ConformanceVectorsTest {

  @Test
  void theVectorFileHoldsAllPublicCases() throws IOException {
    assertThat(VectorCases.load()).hasSize(107);
  }

  @TestFactory
  Stream<DynamicTest> vectors() throws IOException {
    List<JsonNode> cases = VectorCases.load();
    return cases.stream()
        .map(c -> DynamicTest.dynamicTest(c.get("id").textValue(), () -> check(c)));
  }

  private static void check(JsonNode c) {
    VectorCases.Outcome outcome = VectorCases.run(c.get("fn").textValue(), c.get("args"));
    JsonNode expect = c.get("expect");
    if (expect.has("text")) {
      assertThat(outcome).isEqualTo(new VectorCases.Text(expect.get("text").textValue()));
    }
    if (expect.has("value")) {
      assertThat(outcome).isInstanceOf(VectorCases.Value.class);
      JsonNode actual = ((VectorCases.Value) outcome).value();
      assertThat(Json.sameValue(actual, expect.get("value")))
          .as("%s equals %s", actual, expect.get("value"))
          .isTrue();
    }
    if (expect.has("null")) {
      assertThat(outcome).isEqualTo(new VectorCases.None());
    }
    if (expect.has("error")) {
      assertThat(outcome).isInstanceOf(VectorCases.Failure.class);
      if (expect.get("error").has("message")) {
        assertThat(((VectorCases.Failure) outcome).message()).isEqualTo(expect.get("error").get("message").textValue());
      }
    }
    if (expect.has("contains")) {
      assertThat(outcome).isInstanceOf(VectorCases.Text.class);
      for (JsonNode s : expect.get("contains")) {
        assertThat(((VectorCases.Text) outcome).text()).contains(s.textValue());
      }
    }
  }
}

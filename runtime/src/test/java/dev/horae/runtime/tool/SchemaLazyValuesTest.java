package dev.horae.runtime.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.json.FrozenJson;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A schema is read once ({@link SchemaValidator#compile}), and a lazy frozen value is checked
 * through its members' kinds where the schema asks for no more; neither may change a detail.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SchemaLazyValuesTest {

  /** A lazy copy of a parsed tree whose members report their kinds without being built. */
  private static JsonNode lazy(JsonNode node, AtomicInteger built) {
    if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> members = new ArrayList<>();
      node.properties().forEach(members::add);
      return FrozenJson.object(new FrozenJson.Members() {
        @Override
        public int size() {
          return members.size();
        }

        @Override
        public String name(int index) {
          return members.get(index).getKey();
        }

        @Override
        public JsonNode value(int index) {
          built.incrementAndGet();
          return lazy(members.get(index).getValue(), built);
        }

        @Override
        public JsonNodeType type(int index) {
          return members.get(index).getValue().getNodeType();
        }
      });
    }
    if (node.isArray()) {
      return FrozenJson.lazyArray(node.size(), i -> lazy(node.get(i), built));
    }
    return node;
  }

  @ParameterizedTest
  @MethodSource("dev.horae.runtime.tool.SchemaRulesTest#rows")
  void aLazyValueGetsTheDetailsOfTheTreeItStandsFor(String schema, String value, List<String> details) {
    JsonNode lazyValue = lazy(Json.parse(value), new AtomicInteger());
    assertThat(SchemaValidator.validate(Json.parse(schema), lazyValue)).containsExactlyElementsOf(details);
    // inside an array and an object too, where the members' kinds are read without their values
    String wrapped = "{\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"array\",\"items\":" + schema + "}}}";
    List<String> nested = SchemaValidator.validate(Json.parse(wrapped), Json.parse("{\"v\":[" + value + "]}"));
    assertThat(SchemaValidator.validate(Json.parse(wrapped), lazy(Json.parse("{\"v\":[" + value + "]}"), new AtomicInteger())))
        .containsExactlyElementsOf(nested);
  }

  @Test
  void aMemberWhoseSchemaAsksOnlyForItsKindIsNotBuilt() {
    JsonNode schema = Json.parse("{\"type\":\"object\",\"required\":[\"id\",\"n\",\"kind\"],\"properties\":{"
        + "\"id\":{\"type\":\"string\"},\"n\":{\"type\":\"integer\"},\"kind\":{\"const\":\"at\"}},"
        + "\"additionalProperties\":false}");
    AtomicInteger built = new AtomicInteger();
    JsonNode value = lazy(Json.parse("{\"id\":\"x\",\"n\":2,\"kind\":\"at\"}"), built);
    assertThat(SchemaValidator.validate(schema, value)).isEmpty();
    // "id" is checked by its kind; "n" (integer needs the number) and "kind" (a constant) are built
    assertThat(built).hasValue(2);
    JsonNode wrong = lazy(Json.parse("{\"id\":1,\"n\":2,\"kind\":\"at\"}"), new AtomicInteger());
    assertThat(SchemaValidator.validate(schema, wrong)).containsExactly("/id: expected string, got number");
  }

  @Test
  void aCompiledSchemaKeepsTheRulesItWasCompiledWith() {
    ObjectNode schema = (ObjectNode) Json.parse(
        "{\"type\":\"object\",\"required\":[\"a\"],\"properties\":{\"a\":{\"enum\":[1,2]}}}");
    SchemaValidator.Schema compiled = SchemaValidator.compile(schema);
    ((ObjectNode) schema.get("properties").get("a")).putArray("enum").add(3);
    schema.putArray("required").add("b");
    assertThat(SchemaValidator.validate(compiled, Json.parse("{\"a\":2}"))).isEmpty();
    assertThat(SchemaValidator.validate(compiled, Json.parse("{\"a\":3}"))).containsExactly("/a: must be one of [1,2]");
    assertThat(SchemaValidator.validateArguments(compiled, Json.parse("{}")))
        .containsExactly("missing required property \"a\"");
  }
}

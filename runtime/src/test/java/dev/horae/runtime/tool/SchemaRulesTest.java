package dev.horae.runtime.tool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.Json;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Every keyword of the schema subset (host contract §8.3) with the exact detail a model reads
 * back: one row per rule, valid and invalid, at the root and nested.
 */
class SchemaRulesTest {

  static Stream<Arguments> rows() {
    return Stream.of(
        // type, each kind named as the value's JSON kind
        Arguments.of("{\"type\":\"object\"}", "{}", List.of()),
        Arguments.of("{\"type\":\"object\"}", "[]", List.of("expected object, got array")),
        Arguments.of("{\"type\":\"array\"}", "\"x\"", List.of("expected array, got string")),
        Arguments.of("{\"type\":\"string\"}", "true", List.of("expected string, got boolean")),
        Arguments.of("{\"type\":\"boolean\"}", "null", List.of("expected boolean, got null")),
        Arguments.of("{\"type\":\"null\"}", "1", List.of("expected null, got number")),
        Arguments.of("{\"type\":\"number\"}", "{}", List.of("expected number, got object")),
        Arguments.of("{\"type\":\"number\"}", "1.5", List.of()),
        Arguments.of("{\"type\":\"integer\"}", "2", List.of()),
        Arguments.of("{\"type\":\"integer\"}", "2.5", List.of("expected integer, got number")),
        // integer is a value, not a spelling: a decimal with a zero fraction is one, a tiny fraction is not
        Arguments.of("{\"type\":\"integer\"}", "2.0", List.of()),
        Arguments.of("{\"type\":\"integer\"}", "1e2", List.of()),
        Arguments.of("{\"type\":\"integer\"}", "1.0000000000000000000001", List.of("expected integer, got number")),
        Arguments.of("{\"type\":\"whatever\"}", "2.5", List.of()),
        Arguments.of("{\"type\":[\"string\",\"null\"]}", "null", List.of()),
        Arguments.of("{\"type\":[\"string\",\"null\"]}", "3", List.of("expected [\"string\",\"null\"], got number")),
        // integer inside a list of types is still a value check
        Arguments.of("{\"type\":[\"null\",\"integer\"]}", "3", List.of()),
        Arguments.of("{\"type\":[\"null\",\"integer\"]}", "3.5", List.of("expected [\"null\",\"integer\"], got number")),
        Arguments.of("{\"type\":\"boolean\"}", "false", List.of()),
        // a type mismatch is the only detail: nothing below it is checked
        Arguments.of("{\"type\":\"string\",\"const\":\"a\"}", "3", List.of("expected string, got number")),
        // const and enum compare JSON values, numbers by value
        Arguments.of("{\"const\":\"a\"}", "\"a\"", List.of()),
        Arguments.of("{\"const\":\"a\"}", "\"b\"", List.of("must equal \"a\"")),
        Arguments.of("{\"const\":1}", "1.0", List.of()),
        Arguments.of("{\"const\":1}", "2", List.of("must equal 1")),
        Arguments.of("{\"const\":{\"a\":[true]}}", "{\"a\":[true]}", List.of()),
        Arguments.of("{\"const\":{\"a\":[true]}}", "{\"a\":[false]}", List.of("must equal {\"a\":[true]}")),
        Arguments.of("{\"enum\":[1,\"a\",null]}", "null", List.of()),
        Arguments.of("{\"enum\":[1,\"a\",null]}", "2", List.of("must be one of [1,\"a\",null]")),
        Arguments.of("{\"enum\":[\"a\",\"b\"]}", "\"b\"", List.of()),
        Arguments.of("{\"enum\":[\"a\",\"b\"]}", "\"c\"", List.of("must be one of [\"a\",\"b\"]")),
        Arguments.of("{\"enum\":\"a\"}", "\"c\"", List.of()),
        // required at the root (no path) and nested (with the path)
        Arguments.of("{\"type\":\"object\",\"required\":[\"job_id\"]}", "{}", List.of("missing required property \"job_id\"")),
        Arguments.of("{\"properties\":{\"a\":{\"required\":[\"b\"]}}}", "{\"a\":{}}", List.of("/a: missing required property \"b\"")),
        // properties checked with their path
        Arguments.of("{\"properties\":{\"n\":{\"type\":\"integer\"}}}", "{\"n\":\"x\"}", List.of("/n: expected integer, got string")),
        // additionalProperties false and as a schema
        Arguments.of("{\"properties\":{\"a\":{}},\"additionalProperties\":false}", "{\"a\":1,\"b\":2}", List.of("/b: unknown property")),
        Arguments.of("{\"additionalProperties\":{\"type\":\"string\"}}", "{\"b\":2}", List.of("/b: expected string, got number")),
        Arguments.of("{\"additionalProperties\":true}", "{\"b\":2}", List.of()),
        // items, each with its index
        Arguments.of("{\"items\":{\"type\":\"string\"}}", "[\"a\",1,\"c\",2]", List.of("/1: expected string, got number", "/3: expected string, got number")),
        Arguments.of("{\"items\":{\"type\":\"string\"}}", "\"not an array\"", List.of()),
        // oneOf: exactly one branch
        Arguments.of("{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}", "1", List.of()),
        Arguments.of("{\"oneOf\":[{\"type\":\"number\"},{\"type\":\"integer\"}]}", "1", List.of("must match exactly one schema in oneOf, matched 2")),
        Arguments.of("{\"oneOf\":[{\"type\":\"string\"}]}", "1", List.of("must match exactly one schema in oneOf, matched 0")),
        Arguments.of("{\"properties\":{\"v\":{\"oneOf\":[{\"type\":\"string\"}]}}}", "{\"v\":1}", List.of("/v: must match exactly one schema in oneOf, matched 0")),
        // a schema that is not an object constrains nothing
        Arguments.of("true", "{\"anything\":1}", List.of()));
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("rows")
  void eachKeywordGivesItsDetail(String schema, String value, List<String> details) {
    assertThat(SchemaValidator.validate(Json.parse(schema), Json.parse(value))).containsExactlyElementsOf(details);
  }

  @Test
  void argumentsHaveAnOpenRootButClosedNestedObjects() {
    String schema = "{\"properties\":{\"a\":{\"properties\":{},\"additionalProperties\":false}},\"additionalProperties\":false}";
    assertThat(SchemaValidator.validateArguments(Json.parse(schema), Json.parse("{\"extra\":1}"))).isEmpty();
    assertThat(SchemaValidator.validate(Json.parse(schema), Json.parse("{\"extra\":1}"))).containsExactly("/extra: unknown property");
    assertThat(SchemaValidator.validateArguments(Json.parse(schema), Json.parse("{\"a\":{\"x\":1}}")))
        .containsExactly("/a/x: unknown property");
    // a oneOf branch at the root keeps the open root
    assertThat(SchemaValidator.validateArguments(Json.parse("{\"oneOf\":[" + schema + "]}"), Json.parse("{\"extra\":1}"))).isEmpty();
  }

  @Test
  void everyViolationIsReportedNotOnlyTheFirst() {
    String schema = "{\"required\":[\"a\",\"b\"],\"properties\":{\"c\":{\"type\":\"string\"}}}";
    assertThat(SchemaValidator.validate(Json.parse(schema), Json.parse("{\"c\":1}")))
        .containsExactly("missing required property \"a\"", "missing required property \"b\"", "/c: expected string, got number");
  }
}

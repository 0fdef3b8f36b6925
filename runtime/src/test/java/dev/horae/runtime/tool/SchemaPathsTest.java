package dev.horae.runtime.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import org.junit.jupiter.api.Test;

/**
 * The JSON Pointer in a violation detail (host contract §8.2 step 2: the details a model reads
 * back) when the validator keeps the path as a stack of levels and renders it only for a detail:
 * names and array indexes in order at any depth, the right path after a {@code oneOf} branch was
 * tried deeper down, and nothing for a large valid value.
 */
class SchemaPathsTest {

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** {@code depth} levels alternating a member "m<i>" and an array item, then {@code leaf}. */
  private static JsonNode schemaOfDepth(int depth, JsonNode leaf) {
    return schemaOfDepth(depth, leaf, "m");
  }

  private static JsonNode schemaOfDepth(int depth, JsonNode leaf, String prefix) {
    JsonNode s = leaf;
    for (int i = depth - 1; i >= 0; i--) {
      ObjectNode level = F.objectNode();
      if (i % 2 == 0) {
        level.putObject("properties").set(prefix + i, s);
      } else {
        level.set("items", s);
      }
      s = level;
    }
    return s;
  }

  private static JsonNode valueOfDepth(int depth, JsonNode leaf) {
    return valueOfDepth(depth, leaf, "m");
  }

  private static JsonNode valueOfDepth(int depth, JsonNode leaf, String prefix) {
    JsonNode v = leaf;
    for (int i = depth - 1; i >= 0; i--) {
      if (i % 2 == 0) {
        ObjectNode o = F.objectNode();
        o.set(prefix + i, v);
        v = o;
      } else {
        ArrayNode a = F.arrayNode();
        a.add(F.textNode("ok"));
        a.add(v);
        v = a;
      }
    }
    return v;
  }

  private static String pathOfDepth(int depth) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      b.append('/').append(i % 2 == 0 ? "m" + i : "1");
    }
    return b.toString();
  }

  @Test
  void aDetailTwentyLevelsDownNamesEveryMemberAndIndexInOrder() {
    JsonNode leafSchema = Json.parse("{\"type\":\"string\"}");
    // the items schema also sees the "ok" strings at index 0 of each array: valid leaves only at the bottom
    JsonNode schema = schemaOfDepth(20, leafSchema);
    JsonNode value = valueOfDepth(20, F.numberNode(7));

    assertThat(SchemaValidator.validate(schema, value))
        .containsExactly(pathOfDepth(20) + ": expected string, got number");
  }

  @Test
  void aTriedOneOfBranchDeeperDownLeavesThePathOfTheLevelsAboveIntact() {
    // at depth 10 a oneOf whose first branch fails 12 levels further down and whose second
    // matches; a sibling member after it then fails and must carry the depth-10 path
    // (member names "n<i>" there, so a trial that wrote over the levels above would show)
    JsonNode deepFail = schemaOfDepth(12, Json.parse("{\"type\":\"boolean\"}"), "n");
    ObjectNode holder = F.objectNode();
    holder.putObject("properties").set("x", Json.parse("{\"oneOf\":[" + deepFail + ",{\"type\":\"object\"}]}"));
    ((ObjectNode) holder.get("properties")).set("y", Json.parse("{\"type\":\"string\"}"));
    JsonNode schema = schemaOfDepth(10, holder);
    ObjectNode leaf = F.objectNode();
    leaf.set("x", valueOfDepth(12, F.textNode("not a boolean"), "n"));
    leaf.put("y", 3);
    JsonNode value = valueOfDepth(10, leaf);

    assertThat(SchemaValidator.validate(schema, value))
        .containsExactly(pathOfDepth(10) + "/y: expected string, got number");
  }

  @Test
  void aBranchWithSeveralViolationsCountsOnceAsNotMatchingAndReportsNone() {
    JsonNode schema = Json.parse(
        "{\"properties\":{\"v\":{\"oneOf\":[{\"required\":[\"a\",\"b\"],\"properties\":{\"c\":{\"type\":\"string\"}}},"
            + "{\"type\":\"array\"}]}}}");
    JsonNode value = Json.parse("{\"v\":{\"c\":1}}");

    assertThat(SchemaValidator.validate(schema, value))
        .containsExactly("/v: must match exactly one schema in oneOf, matched 0");
  }

  @Test
  void aValidListOfOneHundredThousandRowsHasNoDetail() {
    JsonNode schema = Json.parse(
        "{\"type\":\"object\",\"required\":[\"records\"],\"properties\":{\"records\":{\"type\":\"array\",\"items\":"
            + "{\"type\":\"object\",\"required\":[\"id\",\"at\"],\"additionalProperties\":false,\"properties\":"
            + "{\"id\":{\"type\":\"string\"},\"at\":{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}}}}}}");
    ObjectNode value = F.objectNode();
    ArrayNode rows = value.putArray("records");
    for (int i = 0; i < 100_000; i++) {
      ObjectNode row = rows.addObject();
      row.put("id", "r" + i);
      if (i % 2 == 0) {
        row.put("at", i);
      } else {
        row.put("at", "2026-12-02T04:00:00Z");
      }
    }
    rows.addObject().put("id", "last").put("at", 1.5).put("extra", true);

    assertThat(SchemaValidator.validate(schema, value))
        .containsExactly(
            "/records/100000/at: must match exactly one schema in oneOf, matched 0",
            "/records/100000/extra: unknown property");
  }
}

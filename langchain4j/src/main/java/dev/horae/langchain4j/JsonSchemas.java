package dev.horae.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Tool argument schemas both ways: a Horae JSON Schema (host contract §8.3: {@code type},
 * {@code properties}, {@code required}, {@code additionalProperties}, {@code items}, {@code enum},
 * {@code const}, {@code oneOf}, plus {@code description}) as LangChain4j's {@link
 * JsonObjectSchema}, and a LangChain4j schema as a Horae one.
 *
 * <p>Horae to LangChain4j is faithful: a sub-schema LangChain4j has a type for (objects with their
 * properties, {@code required} and a boolean {@code additionalProperties}; arrays with
 * {@code items}; strings, string enums, integers, numbers, booleans and null, each with its
 * description) becomes that type; any other sub-schema ({@code const}, {@code oneOf}, a type list,
 * a non-string enum, a schema-valued {@code additionalProperties}, keywords such as
 * {@code minimum}) travels as a {@link JsonRawSchema} holding its exact JSON, which LangChain4j's
 * providers put on the wire unchanged. Only the root has no raw form: a root keyword LangChain4j
 * cannot carry fails with {@link LangChain4jMappingException#UNSUPPORTED_SCHEMA}.
 *
 * <p>LangChain4j to Horae inlines {@code $ref}s to the schema's definitions (a recursive one fails:
 * Horae's schema subset has no references) and keeps {@code anyOf} as written; Horae's validator
 * does not interpret {@code anyOf}, so such arguments are checked by the tool itself.
 */
public final class JsonSchemas {

  private static final Set<String> ROOT_KEYS = Set.of("type", "properties", "required", "additionalProperties", "description");
  private static final Set<String> OBJECT_KEYS = ROOT_KEYS;
  private static final Set<String> ARRAY_KEYS = Set.of("type", "items", "description");
  private static final Set<String> STRING_KEYS = Set.of("type", "enum", "description");
  private static final Set<String> SCALAR_KEYS = Set.of("type", "description");
  private static final Set<String> UNTYPED_ENUM_KEYS = Set.of("enum", "description");

  private JsonSchemas() {}

  /**
   * A tool's Horae argument schema as LangChain4j tool parameters.
   *
   * @param tool the tool name, for the error message
   * @param schema the Horae schema; its root is an object schema
   * @return the parameters
   * @throws LangChain4jMappingException {@code unsupported-schema} when the root is not an object
   *     schema LangChain4j can carry
   */
  public static JsonObjectSchema toLangChain4j(String tool, JsonNode schema) {
    if (!schema.isObject()) {
      throw unsupported("tool \"" + tool + "\": the argument schema is not a JSON object");
    }
    JsonNode type = schema.get("type");
    if (type != null && !(type.isTextual() && type.asText().equals("object"))) {
      throw unsupported("tool \"" + tool + "\": the argument schema's root type must be \"object\", got " + type);
    }
    for (Iterator<String> names = schema.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      if (!ROOT_KEYS.contains(key)) {
        throw unsupported("tool \"" + tool + "\": the root keyword \"" + key
            + "\" has no LangChain4j counterpart (the root takes type, properties, required, additionalProperties, description)");
      }
    }
    JsonNode extra = schema.get("additionalProperties");
    if (extra != null && !extra.isBoolean()) {
      throw unsupported("tool \"" + tool + "\": a root additionalProperties must be true or false, got " + extra);
    }
    return object(schema);
  }

  /**
   * One Horae sub-schema as a LangChain4j element (a raw element when no type fits exactly).
   *
   * @param schema the sub-schema
   * @return the element
   */
  public static JsonSchemaElement element(JsonNode schema) {
    if (!schema.isObject()) {
      // a boolean schema (true / false) has no LangChain4j type; the raw form keeps it exact
      return JsonRawSchema.from(Json.write(schema));
    }
    JsonNode type = schema.get("type");
    String description = text(schema.get("description"));
    if (type == null) {
      if (onlyKeys(schema, UNTYPED_ENUM_KEYS) && stringEnum(schema.get("enum"))) {
        return JsonEnumSchema.builder().description(description).enumValues(strings(schema.get("enum"))).build();
      }
      return raw(schema);
    }
    if (!type.isTextual()) {
      return raw(schema);
    }
    switch (type.asText()) {
      case "object" -> {
        JsonNode extra = schema.get("additionalProperties");
        if (onlyKeys(schema, OBJECT_KEYS) && (extra == null || extra.isBoolean()) && wellFormedObject(schema)) {
          return object(schema);
        }
      }
      case "array" -> {
        JsonNode items = schema.get("items");
        if (onlyKeys(schema, ARRAY_KEYS) && items != null && items.isObject()) {
          return JsonArraySchema.builder().description(description).items(element(items)).build();
        }
      }
      case "string" -> {
        JsonNode values = schema.get("enum");
        if (onlyKeys(schema, STRING_KEYS) && values == null) {
          return JsonStringSchema.builder().description(description).build();
        }
        if (onlyKeys(schema, STRING_KEYS) && stringEnum(values)) {
          return JsonEnumSchema.builder().description(description).enumValues(strings(values)).build();
        }
      }
      case "integer" -> {
        if (onlyKeys(schema, SCALAR_KEYS)) {
          return JsonIntegerSchema.builder().description(description).build();
        }
      }
      case "number" -> {
        if (onlyKeys(schema, SCALAR_KEYS)) {
          return JsonNumberSchema.builder().description(description).build();
        }
      }
      case "boolean" -> {
        if (onlyKeys(schema, SCALAR_KEYS)) {
          return JsonBooleanSchema.builder().description(description).build();
        }
      }
      case "null" -> {
        if (onlyKeys(schema, Set.of("type"))) {
          return new JsonNullSchema();
        }
      }
      default -> {
        // an unknown type name: the raw form passes it on as written
      }
    }
    return raw(schema);
  }

  /**
   * LangChain4j tool parameters as a Horae argument schema.
   *
   * @param parameters the parameters; null (a tool without arguments) is the empty object schema
   * @return the Horae schema
   * @throws LangChain4jMappingException {@code unsupported-schema} for a recursive or dangling
   *     {@code $ref}, or a raw schema that is not JSON
   */
  public static ObjectNode toHorae(@Nullable JsonObjectSchema parameters) {
    if (parameters == null) {
      ObjectNode empty = Json.mapper().createObjectNode();
      empty.put("type", "object");
      empty.putObject("properties");
      return empty;
    }
    Map<String, JsonSchemaElement> definitions = new HashMap<>();
    collectDefinitions(parameters, definitions);
    return (ObjectNode) toJson(parameters, definitions, new ArrayDeque<>());
  }

  // ---- Horae to LangChain4j --------------------------------------------------------------------

  private static JsonObjectSchema object(JsonNode schema) {
    JsonObjectSchema.Builder b = JsonObjectSchema.builder();
    String own = text(schema.get("description"));
    if (own != null) {
      b.description(own);
    }
    Map<String, JsonSchemaElement> properties = new LinkedHashMap<>();
    JsonNode props = schema.get("properties");
    if (props != null && props.isObject()) {
      props.properties().forEach(e -> properties.put(e.getKey(), element(e.getValue())));
    }
    b.addProperties(properties);
    JsonNode required = schema.get("required");
    if (required != null && required.isArray()) {
      b.required(strings(required));
    }
    JsonNode extra = schema.get("additionalProperties");
    if (extra != null && extra.isBoolean()) {
      b.additionalProperties(extra.asBoolean());
    }
    return b.build();
  }

  private static boolean wellFormedObject(JsonNode schema) {
    JsonNode props = schema.get("properties");
    JsonNode required = schema.get("required");
    return (props == null || props.isObject()) && (required == null || stringArray(required));
  }

  private static JsonRawSchema raw(JsonNode schema) {
    return JsonRawSchema.from(Json.write(schema));
  }

  private static boolean onlyKeys(JsonNode schema, Set<String> allowed) {
    for (Iterator<String> names = schema.fieldNames(); names.hasNext(); ) {
      if (!allowed.contains(names.next())) {
        return false;
      }
    }
    JsonNode description = schema.get("description");
    return description == null || description.isTextual();
  }

  private static boolean stringEnum(@Nullable JsonNode values) {
    return values != null && values.isArray() && !values.isEmpty() && stringArray(values);
  }

  private static boolean stringArray(JsonNode values) {
    if (!values.isArray()) {
      return false;
    }
    for (JsonNode v : values) {
      if (!v.isTextual()) {
        return false;
      }
    }
    return true;
  }

  private static List<String> strings(JsonNode values) {
    List<String> out = new ArrayList<>();
    values.forEach(v -> out.add(v.asText()));
    return out;
  }

  private static @Nullable String text(@Nullable JsonNode node) {
    return node != null && node.isTextual() ? node.asText() : null;
  }

  // ---- LangChain4j to Horae --------------------------------------------------------------------

  private static void collectDefinitions(JsonSchemaElement e, Map<String, JsonSchemaElement> into) {
    if (e instanceof JsonObjectSchema o) {
      if (o.definitions() != null) {
        o.definitions().forEach((k, v) -> {
          into.putIfAbsent(k, v);
          collectDefinitions(v, into);
        });
      }
      if (o.properties() != null) {
        o.properties().values().forEach(v -> collectDefinitions(v, into));
      }
    } else if (e instanceof JsonArraySchema a && a.items() != null) {
      collectDefinitions(a.items(), into);
    } else if (e instanceof JsonAnyOfSchema any && any.anyOf() != null) {
      any.anyOf().forEach(v -> collectDefinitions(v, into));
    }
  }

  private static JsonNode toJson(JsonSchemaElement e, Map<String, JsonSchemaElement> definitions, Deque<String> resolving) {
    ObjectNode out = Json.mapper().createObjectNode();
    if (e instanceof JsonObjectSchema o) {
      out.put("type", "object");
      describe(out, o.description());
      ObjectNode props = out.putObject("properties");
      if (o.properties() != null) {
        o.properties().forEach((k, v) -> props.set(k, toJson(v, definitions, resolving)));
      }
      if (o.required() != null && !o.required().isEmpty()) {
        ArrayNode req = out.putArray("required");
        o.required().forEach(req::add);
      }
      if (o.additionalProperties() != null) {
        out.put("additionalProperties", o.additionalProperties());
      }
    } else if (e instanceof JsonStringSchema s) {
      out.put("type", "string");
      describe(out, s.description());
    } else if (e instanceof JsonEnumSchema s) {
      out.put("type", "string");
      describe(out, s.description());
      ArrayNode values = out.putArray("enum");
      s.enumValues().forEach(values::add);
    } else if (e instanceof JsonIntegerSchema s) {
      out.put("type", "integer");
      describe(out, s.description());
    } else if (e instanceof JsonNumberSchema s) {
      out.put("type", "number");
      describe(out, s.description());
    } else if (e instanceof JsonBooleanSchema s) {
      out.put("type", "boolean");
      describe(out, s.description());
    } else if (e instanceof JsonNullSchema) {
      out.put("type", "null");
    } else if (e instanceof JsonArraySchema a) {
      out.put("type", "array");
      describe(out, a.description());
      if (a.items() != null) {
        out.set("items", toJson(a.items(), definitions, resolving));
      }
    } else if (e instanceof JsonAnyOfSchema any) {
      describe(out, any.description());
      ArrayNode branches = out.putArray("anyOf");
      any.anyOf().forEach(b -> branches.add(toJson(b, definitions, resolving)));
    } else if (e instanceof JsonReferenceSchema ref) {
      String name = ref.reference();
      JsonSchemaElement target = definitions.get(name);
      if (target == null) {
        throw unsupported("the reference \"" + name + "\" names no definition of the schema");
      }
      if (resolving.contains(name)) {
        throw unsupported("the reference \"" + name + "\" is recursive; Horae's schema subset has no references to inline it into");
      }
      resolving.push(name);
      try {
        return toJson(target, definitions, resolving);
      } finally {
        resolving.pop();
      }
    } else if (e instanceof JsonRawSchema raw) {
      try {
        return Json.parse(raw.schema());
      } catch (RuntimeException notJson) {
        throw unsupported("a raw schema is not JSON: " + raw.schema());
      }
    } else {
      throw unsupported("the schema element " + e.getClass().getName() + " has no Horae counterpart");
    }
    return out;
  }

  private static void describe(ObjectNode out, @Nullable String description) {
    if (description != null) {
      out.put("description", description);
    }
  }

  private static LangChain4jMappingException unsupported(String detail) {
    return new LangChain4jMappingException(LangChain4jMappingException.UNSUPPORTED_SCHEMA, detail);
  }
}

package dev.horae.runtime.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Validates JSON values against the schema subset of host contract §8.3: {@code type},
 * {@code properties}, {@code required}, {@code additionalProperties}, {@code items}, {@code enum},
 * {@code const} and {@code oneOf} (exactly one branch). Nothing else is interpreted.
 */
public final class SchemaValidator {

  private SchemaValidator() {}

  /**
   * Validates tool arguments. The root object is open: unknown top-level members pass even when
   * the root schema says {@code additionalProperties: false}.
   *
   * @param schema the input schema
   * @param value the arguments
   * @return the violation details, empty when valid
   */
  public static List<String> validateArguments(JsonNode schema, JsonNode value) {
    List<String> errors = new ArrayList<>();
    check(schema, value, "", true, errors);
    return errors;
  }

  /**
   * Validates a value (for example a tool's output) with no open-root exception.
   *
   * @param schema the schema
   * @param value the value
   * @return the violation details, empty when valid
   */
  public static List<String> validate(JsonNode schema, JsonNode value) {
    List<String> errors = new ArrayList<>();
    check(schema, value, "", false, errors);
    return errors;
  }

  private static void check(JsonNode schema, JsonNode value, String path, boolean openRoot, List<String> errors) {
    if (!schema.isObject()) {
      return;
    }
    // root-level details carry no path (jobs spec §3.3: `missing required property "job_id"`)
    String at = path.isEmpty() ? "" : path + ": ";
    JsonNode type = schema.get("type");
    if (type != null && !typeMatches(type, value)) {
      errors.add(at + "expected " + describe(type) + ", got " + kindOf(value));
      return;
    }
    JsonNode constant = schema.get("const");
    if (constant != null && !Json.sameValue(constant, value)) {
      errors.add(at + "must equal " + constant);
    }
    JsonNode enumeration = schema.get("enum");
    if (enumeration != null && enumeration.isArray()) {
      boolean any = false;
      for (JsonNode option : enumeration) {
        any |= Json.sameValue(option, value);
      }
      if (!any) {
        errors.add(at + "must be one of " + enumeration);
      }
    }
    if (value.isObject()) {
      checkObject(schema, value, path, openRoot, errors);
    }
    JsonNode items = schema.get("items");
    if (items != null && value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        check(items, value.get(i), path + "/" + i, false, errors);
      }
    }
    JsonNode oneOf = schema.get("oneOf");
    if (oneOf != null && oneOf.isArray()) {
      int matches = 0;
      for (JsonNode branch : oneOf) {
        List<String> branchErrors = new ArrayList<>();
        check(branch, value, path, openRoot, branchErrors);
        if (branchErrors.isEmpty()) {
          matches++;
        }
      }
      if (matches != 1) {
        errors.add(at + "must match exactly one schema in oneOf, matched " + matches);
      }
    }
  }

  private static void checkObject(JsonNode schema, JsonNode value, String path, boolean openRoot, List<String> errors) {
    JsonNode required = schema.get("required");
    if (required != null && required.isArray()) {
      for (JsonNode name : required) {
        if (!value.has(name.asText())) {
          errors.add((path.isEmpty() ? "" : path + ": ") + "missing required property \"" + name.asText() + "\"");
        }
      }
    }
    JsonNode properties = schema.path("properties");
    JsonNode additional = schema.get("additionalProperties");
    for (Map.Entry<String, JsonNode> member : value.properties()) {
      String childPath = path + "/" + member.getKey();
      JsonNode propertySchema = properties.get(member.getKey());
      if (propertySchema != null) {
        check(propertySchema, member.getValue(), childPath, false, errors);
      } else if (additional != null && !(openRoot && path.isEmpty())) {
        if (additional.isBoolean() && !additional.booleanValue()) {
          errors.add(childPath + ": unknown property");
        } else if (additional.isObject()) {
          check(additional, member.getValue(), childPath, false, errors);
        }
      }
    }
  }

  private static boolean typeMatches(JsonNode type, JsonNode value) {
    if (type.isArray()) {
      for (JsonNode t : type) {
        if (typeMatches(t, value)) {
          return true;
        }
      }
      return false;
    }
    return switch (type.asText()) {
      case "object" -> value.isObject();
      case "array" -> value.isArray();
      case "string" -> value.isTextual();
      case "boolean" -> value.isBoolean();
      case "null" -> value.isNull();
      case "number" -> value.isNumber();
      case "integer" -> value.isIntegralNumber() || (value.isNumber() && isWhole(value));
      default -> true;
    };
  }

  private static boolean isWhole(JsonNode number) {
    if ((number.isDouble() || number.isFloat()) && !Double.isFinite(number.doubleValue())) {
      // NaN and the infinities are no integers (and have no decimal value to ask)
      return false;
    }
    try {
      return number.decimalValue().stripTrailingZeros().scale() <= 0;
    } catch (ArithmeticException e) {
      return false;
    }
  }

  private static String describe(JsonNode type) {
    return type.isArray() ? type.toString() : type.asText();
  }

  private static String kindOf(JsonNode value) {
    if (value.isObject()) {
      return "object";
    }
    if (value.isArray()) {
      return "array";
    }
    if (value.isTextual()) {
      return "string";
    }
    if (value.isBoolean()) {
      return "boolean";
    }
    if (value.isNull()) {
      return "null";
    }
    return value.isNumber() ? "number" : "value";
  }
}

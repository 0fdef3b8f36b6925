package dev.horae.runtime.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

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
    new Walk(errors).check(schema, value, true);
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
    new Walk(errors).check(schema, value, false);
    return errors;
  }

  /**
   * One validation. A tool's output can hold a million rows (a {@code schedule_list} of every
   * active reminder), so a valid value must cost no allocation per node: the JSON Pointer of the
   * current node is a stack of segments rendered only when a detail is written, and a
   * {@code oneOf} branch is tried by a walk that records nothing and stops at its first violation.
   */
  private static final class Walk {

    /** Where details go; null while a {@code oneOf} branch is only being tried. */
    private final @Nullable List<String> errors;

    /** The member name of each level, or null where the level is an array index. */
    private @Nullable String[] names;
    private int[] indexes;
    private int depth;
    /** Whether the walk that only tries a branch has met a violation. */
    private boolean failed;

    Walk(List<String> errors) {
      this(errors, new String[8], new int[8], 0);
    }

    private Walk(@Nullable List<String> errors, @Nullable String[] names, int[] indexes, int depth) {
      this.errors = errors;
      this.names = names;
      this.indexes = indexes;
      this.depth = depth;
    }

    /** Writes one detail (or, when only trying a branch, notes the violation). */
    private void fail(String detail) {
      failed = true;
      if (errors == null) {
        return;
      }
      // root-level details carry no path (jobs spec §3.3: `missing required property "job_id"`)
      if (depth == 0) {
        errors.add(detail);
        return;
      }
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < depth; i++) {
        String name = names[i];
        if (name == null) {
          b.append('/').append(indexes[i]);
        } else {
          b.append('/').append(name);
        }
      }
      errors.add(b.append(": ").append(detail).toString());
    }

    private void push(@Nullable String name, int index) {
      if (depth == names.length) {
        names = Arrays.copyOf(names, depth * 2);
        indexes = Arrays.copyOf(indexes, depth * 2);
      }
      names[depth] = name;
      indexes[depth] = index;
      depth++;
    }

    /** True when a walk that only tries a branch can stop: a violation decides it. */
    private boolean done() {
      return errors == null && failed;
    }

    void check(JsonNode schema, JsonNode value, boolean openRoot) {
      if (!schema.isObject()) {
        return;
      }
      JsonNode type = schema.get("type");
      if (type != null && !typeMatches(type, value)) {
        fail("expected " + describe(type) + ", got " + kindOf(value));
        return;
      }
      JsonNode constant = schema.get("const");
      if (constant != null && !Json.sameValue(constant, value)) {
        fail("must equal " + constant);
      }
      JsonNode enumeration = schema.get("enum");
      if (enumeration != null && enumeration.isArray()) {
        boolean any = false;
        for (JsonNode option : enumeration) {
          any |= Json.sameValue(option, value);
        }
        if (!any) {
          fail("must be one of " + enumeration);
        }
      }
      if (done()) {
        return;
      }
      if (value.isObject()) {
        checkObject(schema, value, openRoot);
      }
      JsonNode items = schema.get("items");
      if (items != null && value.isArray()) {
        for (int i = 0; i < value.size() && !done(); i++) {
          // an index level is kept as an int and turned into text only for a detail
          push(null, i);
          check(items, value.get(i), false);
          depth--;
        }
      }
      JsonNode oneOf = schema.get("oneOf");
      if (oneOf != null && oneOf.isArray() && !done()) {
        int matches = 0;
        for (JsonNode branch : oneOf) {
          // the trial writes its levels above this walk's depth in the same arrays
          Walk trial = new Walk(null, names, indexes, depth);
          trial.check(branch, value, openRoot);
          names = trial.names;
          indexes = trial.indexes;
          if (!trial.failed) {
            matches++;
          }
        }
        if (matches != 1) {
          fail("must match exactly one schema in oneOf, matched " + matches);
        }
      }
    }

    private void checkObject(JsonNode schema, JsonNode value, boolean openRoot) {
      JsonNode required = schema.get("required");
      if (required != null && required.isArray()) {
        for (JsonNode name : required) {
          if (!value.has(name.asText())) {
            fail("missing required property \"" + name.asText() + "\"");
          }
        }
      }
      JsonNode properties = schema.path("properties");
      JsonNode additional = schema.get("additionalProperties");
      boolean atOpenRoot = openRoot && depth == 0;
      for (Iterator<Map.Entry<String, JsonNode>> it = value.properties().iterator(); it.hasNext() && !done(); ) {
        Map.Entry<String, JsonNode> member = it.next();
        JsonNode propertySchema = properties.get(member.getKey());
        if (propertySchema != null) {
          push(member.getKey(), 0);
          check(propertySchema, member.getValue(), false);
          depth--;
        } else if (additional != null && !atOpenRoot) {
          push(member.getKey(), 0);
          if (additional.isBoolean() && !additional.booleanValue()) {
            // "/name: unknown property" even at the root, as the path of the member itself
            fail("unknown property");
          } else if (additional.isObject()) {
            check(additional, member.getValue(), false);
          }
          depth--;
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

package dev.horae.runtime.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.spi.json.FrozenJson;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Validates JSON values against the schema subset of host contract §8.3: {@code type},
 * {@code properties}, {@code required}, {@code additionalProperties}, {@code items}, {@code enum},
 * {@code const} and {@code oneOf} (exactly one branch). Nothing else is interpreted.
 */
public final class SchemaValidator {

  private SchemaValidator() {}

  /**
   * Reads a schema once, for a tool's many calls: the walk then asks it nothing by member name.
   *
   * @param schema a schema of the subset (anything that is not an object accepts every value)
   * @return the compiled schema, which no later change to {@code schema} reaches
   */
  public static Schema compile(JsonNode schema) {
    return new Schema(schema);
  }

  /**
   * Validates tool arguments. The root object is open: unknown top-level members pass even when
   * the root schema says {@code additionalProperties: false}.
   *
   * @param schema the input schema
   * @param value the arguments
   * @return the violation details, empty when valid
   */
  public static List<String> validateArguments(JsonNode schema, JsonNode value) {
    return validateArguments(compile(schema), value);
  }

  /**
   * {@link #validateArguments(JsonNode, JsonNode)} with a compiled schema.
   *
   * @param schema the compiled input schema
   * @param value the arguments
   * @return the violation details, empty when valid
   */
  public static List<String> validateArguments(Schema schema, JsonNode value) {
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
    return validate(compile(schema), value);
  }

  /**
   * {@link #validate(JsonNode, JsonNode)} with a compiled schema.
   *
   * @param schema the compiled schema
   * @param value the value
   * @return the violation details, empty when valid
   */
  public static List<String> validate(Schema schema, JsonNode value) {
    List<String> errors = new ArrayList<>();
    new Walk(errors).check(schema, value, false);
    return errors;
  }

  /**
   * A schema read once. Every keyword the walk asks about is looked up here, at compile time; a
   * {@code schedule_list} of a million rows visits seven million values, and a member lookup per
   * keyword at each of them was most of the validation's cost (issue 19).
   */
  public static final class Schema {
    /** Whether the schema is an object; any other schema constrains nothing. */
    private final boolean object;
    private final @Nullable JsonNode type;
    private final @Nullable JsonNode constant;
    /** The {@code enum} array, if it is one. */
    private final @Nullable JsonNode enumeration;
    private final @Nullable Schema items;
    /** The {@code oneOf} branches, if it is an array. */
    private final Schema @Nullable [] oneOf;
    /** The {@code required} names (each entry's text), if it is an array. */
    private final String @Nullable [] required;
    private final Map<String, Schema> properties;
    private final @Nullable JsonNode additional;
    /** {@link #additional} compiled, when it is an object. */
    private final @Nullable Schema additionalSchema;
    /**
     * Whether the schema asks only for one type, not {@code integer} (which needs the number): a
     * lazy object's member is then checked by its kind, without building its value.
     */
    private final boolean typeOnly;
    /** The kinds {@link #type} accepts by kind alone. */
    private final Set<JsonNodeType> kinds;
    /** Whether {@link #type} names {@code integer}: a number passes when it is whole. */
    private final boolean integer;

    private Schema(JsonNode schema) {
      this.object = schema.isObject();
      this.type = frozen(schema.get("type"));
      this.kinds = EnumSet.noneOf(JsonNodeType.class);
      this.integer = type != null && readType(type, kinds);
      this.constant = interned(schema.get("const"));
      JsonNode enumNode = schema.get("enum");
      this.enumeration = enumNode != null && enumNode.isArray() ? interned(enumNode) : null;
      JsonNode itemsNode = schema.get("items");
      this.items = itemsNode == null ? null : new Schema(itemsNode);
      JsonNode oneOfNode = schema.get("oneOf");
      if (oneOfNode != null && oneOfNode.isArray()) {
        Schema[] branches = new Schema[oneOfNode.size()];
        for (int i = 0; i < branches.length; i++) {
          branches[i] = new Schema(oneOfNode.get(i));
        }
        this.oneOf = branches;
      } else {
        this.oneOf = null;
      }
      JsonNode requiredNode = schema.get("required");
      if (requiredNode != null && requiredNode.isArray()) {
        String[] names = new String[requiredNode.size()];
        for (int i = 0; i < names.length; i++) {
          // interned: a member name is then found by identity (names in code are literals)
          names[i] = requiredNode.get(i).asText().intern();
        }
        this.required = names;
      } else {
        this.required = null;
      }
      JsonNode propertiesNode = schema.path("properties");
      Map<String, Schema> props = new HashMap<>();
      if (propertiesNode.isObject()) {
        for (Map.Entry<String, JsonNode> p : propertiesNode.properties()) {
          props.put(p.getKey(), new Schema(p.getValue()));
        }
      }
      this.properties = props;
      JsonNode additionalNode = schema.get("additionalProperties");
      this.additional = frozen(additionalNode);
      this.additionalSchema = additionalNode != null && additionalNode.isObject() ? new Schema(additionalNode) : null;
      this.typeOnly = object && type != null && !integer
          && constant == null && enumeration == null && items == null && oneOf == null && required == null
          && properties.isEmpty() && additional == null;
    }

    private static @Nullable JsonNode frozen(@Nullable JsonNode node) {
      return node == null ? null : FrozenJson.freeze(node);
    }

    /**
     * A frozen copy whose texts (the node's, or an array's items') are interned, so that a value's
     * text is compared with a constant by identity first: a list of a million rows compares its
     * {@code kind}, {@code state} and {@code deliveryMode} with their schema's constants.
     */
    private static @Nullable JsonNode interned(@Nullable JsonNode node) {
      if (node == null) {
        return null;
      }
      if (node.isTextual()) {
        return TextNode.valueOf(node.textValue().intern());
      }
      if (node.isArray()) {
        List<JsonNode> items = new ArrayList<>(node.size());
        for (JsonNode item : node) {
          items.add(item.isTextual() ? TextNode.valueOf(item.textValue().intern()) : FrozenJson.freeze(item));
        }
        return FrozenJson.array(items);
      }
      return FrozenJson.freeze(node);
    }

    /**
     * Reads a type keyword (a name, or an array of them, any of which may match) into the kinds it
     * accepts by kind alone; answers whether it names {@code integer}, which is checked by value.
     */
    private static boolean readType(JsonNode type, Set<JsonNodeType> kinds) {
      if (type.isArray()) {
        boolean integer = false;
        for (JsonNode t : type) {
          integer |= readType(t, kinds);
        }
        return integer;
      }
      switch (type.asText()) {
        case "object" -> kinds.add(JsonNodeType.OBJECT);
        case "array" -> kinds.add(JsonNodeType.ARRAY);
        case "string" -> kinds.add(JsonNodeType.STRING);
        case "boolean" -> kinds.add(JsonNodeType.BOOLEAN);
        case "null" -> kinds.add(JsonNodeType.NULL);
        case "number" -> kinds.add(JsonNodeType.NUMBER);
        case "integer" -> {
          return true;
        }
        // a name outside the subset constrains nothing
        default -> kinds.addAll(EnumSet.allOf(JsonNodeType.class));
      }
      return false;
    }
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

    void check(Schema schema, JsonNode value, boolean openRoot) {
      if (!schema.object) {
        return;
      }
      if (!typeChecked(schema, value.getNodeType(), value)) {
        return;
      }
      JsonNode constant = schema.constant;
      if (constant != null && !Json.sameValue(constant, value)) {
        fail("must equal " + constant);
      }
      JsonNode enumeration = schema.enumeration;
      if (enumeration != null) {
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
      Schema items = schema.items;
      if (items != null && value.isArray()) {
        for (int i = 0; i < value.size() && !done(); i++) {
          // an index level is kept as an int and turned into text only for a detail
          push(null, i);
          check(items, value.get(i), false);
          depth--;
        }
      }
      Schema[] oneOf = schema.oneOf;
      if (oneOf != null && !done()) {
        int matches = 0;
        for (Schema branch : oneOf) {
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

    private void checkObject(Schema schema, JsonNode value, boolean openRoot) {
      String[] required = schema.required;
      if (required != null) {
        for (int i = 0; i < required.length && !done(); i++) {
          if (!value.has(required[i])) {
            fail("missing required property \"" + required[i] + "\"");
          }
        }
      }
      if (schema.properties.isEmpty() && schema.additional == null) {
        // no member has a rule (a list's item schema holds only its oneOf): nothing to walk
        return;
      }
      boolean atOpenRoot = openRoot && depth == 0;
      FrozenJson.Members lazy = FrozenJson.lazyMembers(value);
      if (lazy != null) {
        for (int i = 0, n = lazy.size(); i < n && !done(); i++) {
          checkMember(schema, lazy.name(i), lazy, i, null, atOpenRoot);
        }
        return;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = value.properties().iterator(); it.hasNext() && !done(); ) {
        Map.Entry<String, JsonNode> member = it.next();
        checkMember(schema, member.getKey(), null, 0, member.getValue(), atOpenRoot);
      }
    }

    /**
     * One member of an object: a built value, or member {@code index} of a lazy object, whose value
     * is built only when its schema asks more than its kind.
     */
    private void checkMember(Schema schema, String name, FrozenJson.@Nullable Members lazy, int index,
        @Nullable JsonNode built, boolean atOpenRoot) {
      Schema propertySchema = schema.properties.get(name);
      JsonNode additional = schema.additional;
      if (propertySchema == null && (additional == null || atOpenRoot)) {
        return;
      }
      push(name, 0);
      if (propertySchema != null) {
        if (built == null && lazy != null && propertySchema.typeOnly) {
          typeChecked(propertySchema, lazy.type(index), null);
        } else {
          check(propertySchema, built != null ? built : memberValue(lazy, index), false);
        }
      } else if (additional != null && additional.isBoolean() && !additional.booleanValue()) {
        // "/name: unknown property" even at the root, as the path of the member itself
        fail("unknown property");
      } else if (schema.additionalSchema != null) {
        check(schema.additionalSchema, built != null ? built : memberValue(lazy, index), false);
      }
      depth--;
    }

    private static JsonNode memberValue(FrozenJson.@Nullable Members lazy, int index) {
      return Objects.requireNonNull(lazy, "a member has a built value or a lazy one").value(index);
    }

    /**
     * The {@code type} keyword: true when it passes (or is absent). The value is needed only for
     * {@code integer}; a caller without it passes null for a schema that does not ask for one.
     */
    private boolean typeChecked(Schema schema, JsonNodeType kind, @Nullable JsonNode value) {
      JsonNode type = schema.type;
      if (type != null && !typeMatches(schema, kind, value)) {
        fail("expected " + describe(type) + ", got " + kindOf(kind));
        return false;
      }
      return true;
    }
  }

  private static boolean typeMatches(Schema schema, JsonNodeType kind, @Nullable JsonNode value) {
    if (schema.kinds.contains(kind)) {
      return true;
    }
    return schema.integer && kind == JsonNodeType.NUMBER && value != null && (value.isIntegralNumber() || isWhole(value));
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

  private static String kindOf(JsonNodeType kind) {
    return switch (kind) {
      case OBJECT -> "object";
      case ARRAY -> "array";
      case STRING -> "string";
      case BOOLEAN -> "boolean";
      case NULL -> "null";
      case NUMBER -> "number";
      default -> "value";
    };
  }
}

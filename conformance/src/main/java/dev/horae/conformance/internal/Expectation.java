package dev.horae.conformance.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.conformance.Outcome;
import dev.horae.spi.session.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One case's {@code expect} object: exactly one main form ({@code value}, {@code text}, {@code
 * null}, {@code error}) and the optional {@code contains} and {@code bytesAtMost} checks, which
 * may also stand alone.
 */
public final class Expectation {

  private static final Set<String> MAIN = Set.of("value", "text", "null", "error");
  private static final Set<String> EXTRA = Set.of("contains", "bytesAtMost");

  private final JsonNode expect;
  private final Optional<String> main;
  private final List<String> contains;
  private final OptionalLong bytesAtMost;

  private Expectation(JsonNode expect, Optional<String> main, List<String> contains, OptionalLong bytesAtMost) {
    this.expect = expect;
    this.main = main;
    this.contains = contains;
    this.bytesAtMost = bytesAtMost;
  }

  /**
   * Reads an {@code expect} object.
   *
   * @param expect the object
   * @return the expectation
   * @throws IllegalArgumentException when it is not one of the forms
   */
  public static Expectation parse(JsonNode expect) {
    if (!expect.isObject()) {
      throw new IllegalArgumentException("expect must be an object");
    }
    Optional<String> main = Optional.empty();
    for (Map.Entry<String, JsonNode> m : expect.properties()) {
      String key = m.getKey();
      if (MAIN.contains(key)) {
        if (main.isPresent()) {
          throw new IllegalArgumentException("expect has both " + main.get() + " and " + key);
        }
        main = Optional.of(key);
      } else if (!EXTRA.contains(key)) {
        throw new IllegalArgumentException("unknown expectation form " + key);
      }
    }
    List<String> contains = new ArrayList<>();
    JsonNode c = expect.get("contains");
    if (c != null) {
      if (!c.isArray()) {
        throw new IllegalArgumentException("contains must be an array of strings");
      }
      for (JsonNode s : c) {
        if (!s.isTextual()) {
          throw new IllegalArgumentException("contains must be an array of strings");
        }
        contains.add(s.textValue());
      }
    }
    OptionalLong bytes = OptionalLong.empty();
    JsonNode b = expect.get("bytesAtMost");
    if (b != null) {
      if (!b.canConvertToExactIntegral() || b.asLong() < 0) {
        throw new IllegalArgumentException("bytesAtMost must be a non-negative integer");
      }
      bytes = OptionalLong.of(b.asLong());
    }
    if (main.isEmpty() && c == null && b == null) {
      throw new IllegalArgumentException("expect names no form");
    }
    if (main.isPresent() && main.get().equals("text") && !expect.get("text").isTextual()) {
      throw new IllegalArgumentException("text must be a string");
    }
    if (main.isPresent() && main.get().equals("error") && !expect.get("error").isObject()) {
      throw new IllegalArgumentException("error must be an object");
    }
    if (main.isPresent() && main.get().equals("null") && !expect.get("null").asBoolean(false)) {
      throw new IllegalArgumentException("null must be true");
    }
    return new Expectation(expect, main, List.copyOf(contains), bytes);
  }

  /**
   * Whether {@code outcome} satisfies every part of the expectation.
   *
   * @param outcome what the function produced
   * @return true when it passes
   */
  public boolean holds(Outcome outcome) {
    if (main.isPresent() && !mainHolds(main.get(), outcome)) {
      return false;
    }
    if (contains.isEmpty() && bytesAtMost.isEmpty()) {
      return true;
    }
    Optional<String> target = target(outcome);
    if (target.isEmpty()) {
      return false;
    }
    for (String s : contains) {
      if (!target.get().contains(s)) {
        return false;
      }
    }
    return bytesAtMost.isEmpty()
        || target.get().getBytes(StandardCharsets.UTF_8).length <= bytesAtMost.getAsLong();
  }

  private boolean mainHolds(String form, Outcome outcome) {
    return switch (form) {
      case "value" -> outcome instanceof Outcome.Value v && Json.sameValue(expect.get("value"), v.json());
      case "text" -> outcome instanceof Outcome.Value v
          && v.json().isTextual()
          && v.json().textValue().equals(expect.get("text").textValue());
      case "null" -> outcome instanceof Outcome.None;
      default -> outcome instanceof Outcome.DomainError e && fieldsMatch(e.fields());
    };
  }

  private boolean fieldsMatch(ObjectNode actualFields) {
    for (Map.Entry<String, JsonNode> field : expect.get("error").properties()) {
      JsonNode actual = actualFields.get(field.getKey());
      if (actual == null || !Json.sameValue(field.getValue(), actual)) {
        return false;
      }
    }
    return true;
  }

  // contains and bytesAtMost look at a string result, or at the text member of an object result
  // (jobs.notice returns {text, summary})
  private static Optional<String> target(Outcome outcome) {
    if (outcome instanceof Outcome.Value v) {
      if (v.json().isTextual()) {
        return Optional.of(v.json().textValue());
      }
      JsonNode text = v.json().get("text");
      if (v.json().isObject() && text != null && text.isTextual()) {
        return Optional.of(text.textValue());
      }
    }
    return Optional.empty();
  }

  /**
   * The expectation as it appears in a {@code FAIL} line.
   *
   * @return the {@code expect} object as compact JSON
   */
  public String describe() {
    return Json.write(expect);
  }

  /**
   * An outcome in the notation of the expectation forms, for a {@code FAIL} line.
   *
   * @param outcome what the function produced
   * @return compact JSON such as {@code {"text":"..."}}, {@code {"error":{...}}} or {@code
   *     {"broken":"..."}}
   */
  public String describe(Outcome outcome) {
    return describeOutcome(outcome, main.map(m -> !m.equals("value")).orElse(true));
  }

  /**
   * An outcome in the notation of the expectation forms.
   *
   * @param outcome what the function produced
   * @param stringsAsText whether a string result is written {@code {"text":..}} rather than {@code
   *     {"value":..}}
   * @return compact JSON
   */
  public static String describeOutcome(Outcome outcome, boolean stringsAsText) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    if (outcome instanceof Outcome.Value v) {
      o.set(stringsAsText && v.json().isTextual() ? "text" : "value", v.json());
    } else if (outcome instanceof Outcome.None) {
      o.put("null", true);
    } else if (outcome instanceof Outcome.DomainError e) {
      o.set("error", e.fields());
    } else if (outcome instanceof Outcome.Broken b) {
      o.put("broken", b.reason());
    }
    return Json.write(o);
  }
}

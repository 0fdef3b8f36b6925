package dev.horae.conformance.internal.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.conformance.Outcome;
import dev.horae.conformance.internal.Expectation;
import dev.horae.spi.session.Json;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The expectation of one step: the vector forms ({@code value}, {@code text}, {@code null},
 * {@code error}, {@code contains}, {@code bytesAtMost}) plus {@code matches} (a partial pattern),
 * {@code includes} (each pattern matches some element of an array result), {@code excludes} (no
 * element matches) and {@code count} (the array result's length).
 */
final class StepExpectation {

  private static final Set<String> VECTOR_FORMS = Set.of("value", "text", "null", "error", "contains", "bytesAtMost");
  private static final Set<String> SCENARIO_FORMS = Set.of("matches", "includes", "excludes", "count");

  private final ObjectNode forms;
  private final Optional<Expectation> vector;

  private StepExpectation(ObjectNode forms, Optional<Expectation> vector) {
    this.forms = forms;
    this.vector = vector;
  }

  /**
   * Picks the form members out of {@code step}.
   *
   * @throws IllegalArgumentException when there is none or a vector form is malformed
   */
  static StepExpectation of(JsonNode step) {
    ObjectNode forms = JsonNodeFactory.instance.objectNode();
    ObjectNode vectorForms = JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> m : step.properties()) {
      if (VECTOR_FORMS.contains(m.getKey())) {
        vectorForms.set(m.getKey(), m.getValue());
        forms.set(m.getKey(), m.getValue());
      } else if (SCENARIO_FORMS.contains(m.getKey())) {
        forms.set(m.getKey(), m.getValue());
      }
    }
    if (forms.isEmpty()) {
      throw new IllegalArgumentException("the step names no expectation form");
    }
    JsonNode count = forms.get("count");
    if (count != null && !count.canConvertToExactIntegral()) {
      throw new IllegalArgumentException("count must be an integer");
    }
    for (String list : new String[] {"includes", "excludes"}) {
      JsonNode l = forms.get(list);
      if (l != null && !l.isArray()) {
        throw new IllegalArgumentException(list + " must be an array of patterns");
      }
    }
    return new StepExpectation(forms,
        vectorForms.isEmpty() ? Optional.empty() : Optional.of(Expectation.parse(vectorForms)));
  }

  boolean holds(Outcome outcome) {
    if (vector.isPresent() && !vector.get().holds(outcome)) {
      return false;
    }
    if (!forms.has("matches") && !forms.has("includes") && !forms.has("excludes") && !forms.has("count")) {
      return true;
    }
    if (!(outcome instanceof Outcome.Value v)) {
      return false;
    }
    JsonNode actual = v.json();
    if (forms.has("matches") && !Pattern.matches(forms.get("matches"), actual)) {
      return false;
    }
    if (forms.has("includes")) {
      for (JsonNode p : forms.get("includes")) {
        if (!Pattern.someElementMatches(p, actual)) {
          return false;
        }
      }
    }
    if (forms.has("excludes")) {
      if (!actual.isArray()) {
        return false;
      }
      for (JsonNode p : forms.get("excludes")) {
        if (Pattern.someElementMatches(p, actual)) {
          return false;
        }
      }
    }
    return !forms.has("count") || (actual.isArray() && actual.size() == forms.get("count").asLong());
  }

  String describe() {
    return Json.write(forms);
  }

  String describe(Outcome outcome) {
    boolean stringsAsText = forms.has("text") || forms.has("contains") || forms.has("bytesAtMost");
    return Expectation.describeOutcome(outcome, stringsAsText);
  }
}

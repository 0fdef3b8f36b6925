package dev.horae.conformance.internal.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;
import java.util.Map;

/**
 * The {@code matches} relation of scenario expectations: an object pattern matches an object that
 * has at least the pattern's members, each matching; an array pattern matches an array of the
 * same length element by element; anything else must be equal as in {@link Json#sameValue}.
 */
final class Pattern {

  private Pattern() {}

  static boolean matches(JsonNode pattern, JsonNode actual) {
    if (pattern.isObject()) {
      if (!actual.isObject()) {
        return false;
      }
      for (Map.Entry<String, JsonNode> m : pattern.properties()) {
        JsonNode a = actual.get(m.getKey());
        if (a == null || !matches(m.getValue(), a)) {
          return false;
        }
      }
      return true;
    }
    if (pattern.isArray()) {
      if (!actual.isArray() || actual.size() != pattern.size()) {
        return false;
      }
      for (int i = 0; i < pattern.size(); i++) {
        if (!matches(pattern.get(i), actual.get(i))) {
          return false;
        }
      }
      return true;
    }
    return Json.sameValue(pattern, actual);
  }

  /** Whether some element of the array {@code actual} matches {@code pattern}. */
  static boolean someElementMatches(JsonNode pattern, JsonNode actual) {
    if (!actual.isArray()) {
      return false;
    }
    for (JsonNode e : actual) {
      if (matches(pattern, e)) {
        return true;
      }
    }
    return false;
  }
}

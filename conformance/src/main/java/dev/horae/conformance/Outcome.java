package dev.horae.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Objects;

/**
 * What a catalogue function produced for one case: a JSON result (a string result is a JSON
 * string), no result, a domain error, or a broken call that is neither.
 */
public sealed interface Outcome permits Outcome.Value, Outcome.None, Outcome.DomainError, Outcome.Broken {

  /**
   * A result value.
   *
   * @param json the result as JSON; a string result is a text node
   */
  record Value(JsonNode json) implements Outcome {
    /** Checks presence. */
    public Value {
      Objects.requireNonNull(json, "json");
    }
  }

  /** The function returned no result ({@code Optional.empty()}). */
  record None() implements Outcome {}

  /**
   * The function failed with the library's domain error.
   *
   * @param fields the error's fields ({@code code}, {@code message} and any extra field)
   */
  record DomainError(ObjectNode fields) implements Outcome {
    /** Checks presence. */
    public DomainError {
      Objects.requireNonNull(fields, "fields");
    }
  }

  /**
   * The call did not run as a catalogue function: unknown {@code fn}, arguments it cannot take,
   * or an exception that is not the library's domain error.
   *
   * @param reason a one-line description for the report
   */
  record Broken(String reason) implements Outcome {
    /** Checks presence. */
    public Broken {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * A JSON result.
   *
   * @param json the result
   * @return the outcome
   */
  static Outcome value(JsonNode json) {
    return new Value(json);
  }

  /**
   * A string result.
   *
   * @param text the result
   * @return the outcome
   */
  static Outcome text(String text) {
    return new Value(TextNode.valueOf(text));
  }

  /**
   * No result.
   *
   * @return the outcome
   */
  static Outcome none() {
    return new None();
  }

  /**
   * A domain error.
   *
   * @param fields the error's fields
   * @return the outcome
   */
  static Outcome error(ObjectNode fields) {
    return new DomainError(fields);
  }
}

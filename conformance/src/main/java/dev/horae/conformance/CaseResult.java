package dev.horae.conformance;

import java.util.Objects;

/**
 * The verdict on one case.
 *
 * @param id the case id (or {@code <file>:<line>} when the case has no usable id)
 * @param passed whether the expectation held
 * @param expected the expectation as compact JSON (empty when passed)
 * @param actual what the function produced, in the same notation (empty when passed)
 */
public record CaseResult(String id, boolean passed, String expected, String actual) {

  /** Checks presence. */
  public CaseResult {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(actual, "actual");
  }

  /**
   * A passing case.
   *
   * @param id the case id
   * @return the result
   */
  public static CaseResult pass(String id) {
    return new CaseResult(id, true, "", "");
  }

  /**
   * A failing case.
   *
   * @param id the case id
   * @param expected the expectation
   * @param actual what happened
   * @return the result
   */
  public static CaseResult fail(String id, String expected, String actual) {
    return new CaseResult(id, false, expected, actual);
  }

  /**
   * The report line of a failing case.
   *
   * @return {@code FAIL <id>: <expected> <> <actual>}
   */
  public String failureLine() {
    return "FAIL " + id + ": " + expected + " <> " + actual;
  }
}

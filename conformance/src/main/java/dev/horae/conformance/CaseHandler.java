package dev.horae.conformance;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Runs whole cases of one special {@code fn} that carry their own expectations, such as host
 * {@code scenario} cases, instead of a single function call with one {@code expect}.
 */
public interface CaseHandler {

  /**
   * The {@code fn} value this handler takes.
   *
   * @return the name, for example {@code scenario}
   */
  String fn();

  /**
   * Runs one case. It must not throw: a problem with the case is a failing result.
   *
   * @param id the case id
   * @param caseJson the whole case object
   * @return the verdict
   */
  CaseResult run(String id, JsonNode caseJson);
}

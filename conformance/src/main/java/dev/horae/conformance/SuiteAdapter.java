package dev.horae.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;

/**
 * Maps one suite's catalogue functions onto an implementation's API. The runner owns cases,
 * expectations and the report; an adapter only calls functions.
 *
 * <p>An adapter returns {@link Outcome.DomainError} for the library's own domain errors only; it
 * lets every other exception escape (the runner reports it as a broken case) and throws {@link
 * UnusableArgsException} for arguments it cannot map.
 */
public interface SuiteAdapter {

  /**
   * The suite name as written in cases ({@code schedule}, {@code time-context}, {@code jobs},
   * {@code gate}).
   *
   * @return the suite name
   */
  String suite();

  /**
   * The catalogue function names this adapter implements.
   *
   * @return the {@code fn} names
   */
  Set<String> functions();

  /**
   * Calls one function.
   *
   * @param fn a name from {@link #functions()}
   * @param args the case's arguments, with {@code {"$number":...}} already decoded
   * @return the outcome
   * @throws UnusableArgsException when {@code args} cannot be mapped onto the function
   */
  Outcome call(String fn, JsonNode args);
}

package dev.horae.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.horae.conformance.internal.CaseFiles;
import dev.horae.conformance.internal.Expectation;
import dev.horae.conformance.internal.SpecialNumbers;
import dev.horae.conformance.internal.suite.GateSuite;
import dev.horae.conformance.internal.suite.JobsSuite;
import dev.horae.conformance.internal.suite.ScheduleSuite;
import dev.horae.conformance.internal.suite.TimeContextSuite;
import dev.horae.spi.session.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Runs conformance cases: reads case files, dispatches each case by its {@code fn} to a {@link
 * SuiteAdapter} (or a {@link CaseHandler}), checks the expectation, and totals the results. A case
 * that cannot run (malformed line, unknown {@code fn}, unusable {@code args}, duplicate id, an
 * unexpected exception) fails alone; the run goes on.
 */
public final class ConformanceRunner {

  private final Map<String, SuiteAdapter> adapters = new HashMap<>();
  private final Map<String, CaseHandler> handlers = new HashMap<>();

  /**
   * Creates a runner over the given adapters and handlers.
   *
   * @param adapters suite adapters; a function name may be claimed by one adapter only
   * @param handlers whole-case handlers
   * @throws IllegalArgumentException when two of them claim the same {@code fn}
   */
  public ConformanceRunner(List<SuiteAdapter> adapters, List<CaseHandler> handlers) {
    for (SuiteAdapter a : adapters) {
      for (String fn : a.functions()) {
        if (this.adapters.put(fn, a) != null) {
          throw new IllegalArgumentException("fn " + fn + " is claimed twice");
        }
      }
    }
    for (CaseHandler h : handlers) {
      if (this.adapters.containsKey(h.fn()) || this.handlers.put(h.fn(), h) != null) {
        throw new IllegalArgumentException("fn " + h.fn() + " is claimed twice");
      }
    }
  }

  /**
   * The four library suites of the catalogue ({@code schedule}, {@code time-context}, {@code
   * jobs}, {@code gate}) against the Horae implementation.
   *
   * @return the adapters
   */
  public static List<SuiteAdapter> librarySuites() {
    return List.of(new ScheduleSuite(), new TimeContextSuite(), new JobsSuite(), new GateSuite());
  }

  /**
   * A runner over the library suites and the given handlers.
   *
   * @param handlers whole-case handlers (for example the scenario runner)
   * @return the runner
   */
  public static ConformanceRunner standard(List<CaseHandler> handlers) {
    return new ConformanceRunner(librarySuites(), handlers);
  }

  /**
   * Runs every case of the given files and directories.
   *
   * @param paths files, or directories meaning every case file below them
   * @param failures receives each {@code FAIL} line as soon as its case has run
   * @return the totals
   * @throws IOException when a path does not exist or a file cannot be read
   */
  public Report run(List<Path> paths, Consumer<String> failures) throws IOException {
    int passed = 0;
    List<String> lines = new java.util.ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Path file : CaseFiles.expand(paths)) {
      for (CaseFiles.RawCase raw : CaseFiles.read(file)) {
        CaseResult r = runRaw(raw, seen);
        if (r.passed()) {
          passed++;
        } else {
          lines.add(r.failureLine());
          failures.accept(r.failureLine());
        }
      }
    }
    return new Report(passed, lines.size(), lines);
  }

  private CaseResult runRaw(CaseFiles.RawCase raw, Set<String> seen) {
    if (raw.json().isEmpty()) {
      return CaseResult.fail(raw.origin(), "a case", broken("unreadable case: " + raw.problem()));
    }
    JsonNode c = raw.json().get();
    JsonNode idNode = c.path("id");
    String id = idNode.isTextual() && !idNode.textValue().isEmpty() ? idNode.textValue() : raw.origin();
    if (!seen.add(id)) {
      return CaseResult.fail(id, "a unique id", broken("duplicate id"));
    }
    return runCase(id, c);
  }

  /**
   * Runs one case object.
   *
   * @param id the case id to report
   * @param c the case object
   * @return the verdict
   */
  public CaseResult runCase(String id, JsonNode c) {
    JsonNode fnNode = c.path("fn");
    String fn = fnNode.isTextual() ? fnNode.textValue() : "";
    CaseHandler handler = handlers.get(fn);
    if (handler != null) {
      return handler.run(id, c);
    }
    String expected = c.has("expect") ? Json.write(c.get("expect")) : "an expect object";
    Expectation expectation;
    try {
      expectation = Expectation.parse(c.path("expect"));
    } catch (IllegalArgumentException e) {
      return CaseResult.fail(id, expected, broken("unusable expect: " + e.getMessage()));
    }
    SuiteAdapter adapter = adapters.get(fn);
    if (adapter == null) {
      return CaseResult.fail(id, expected, broken("unknown fn " + Json.write(fnNode)));
    }
    JsonNode suite = c.path("suite");
    if (!suite.isTextual() || !suite.textValue().equals(adapter.suite())) {
      return CaseResult.fail(id, expected,
          broken("fn " + fn + " belongs to suite " + adapter.suite() + ", not " + Json.write(suite)));
    }
    Outcome outcome = call(adapter, fn, c.get("args"));
    return expectation.holds(outcome)
        ? CaseResult.pass(id)
        : CaseResult.fail(id, expectation.describe(), expectation.describe(outcome));
  }

  // any exception of a call is a failed case, never a crashed run
  private static Outcome call(SuiteAdapter adapter, String fn, JsonNode args) {
    try {
      JsonNode a = args == null || args.isNull() ? JsonNodeFactory.instance.objectNode() : args;
      if (!a.isObject()) {
        return new Outcome.Broken("unusable args: args must be an object");
      }
      return adapter.call(fn, SpecialNumbers.decode(a));
    } catch (UnusableArgsException e) {
      return new Outcome.Broken("unusable args: " + e.getMessage());
    } catch (RuntimeException | StackOverflowError e) {
      return new Outcome.Broken("unexpected " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private static String broken(String reason) {
    return Expectation.describeOutcome(new Outcome.Broken(reason), true);
  }
}

package dev.horae.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.conformance.scenario.ScenarioRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scenario runner's own behaviour: step reports, broken steps and the scenario forms. */
class ScenarioRunnerTest {

  @TempDir Path dir;

  private final List<String> failures = new ArrayList<>();

  private Report run(String... steps) throws IOException {
    return runCase("{\"id\":\"X\",\"suite\":\"host\",\"fn\":\"scenario\",\"args\":{\"host\":{},\"steps\":["
        + String.join(",", steps) + "]}}");
  }

  private Report runCase(String json) throws IOException {
    Path file = dir.resolve("case.jsonl");
    Files.writeString(file, json + "\n", StandardCharsets.UTF_8);
    return ConformanceRunner.standard(List.of(ScenarioRunner.onTestkit())).run(List.of(file), failures::add);
  }

  @Test
  void aFailingExpectationNamesTheStepWithExpectedAndActual() throws IOException {
    Report report = run("{\"do\":\"agent\",\"as\":\"a\"}", "{\"expect\":\"status\",\"agent\":\"a\",\"text\":\"running\"}");

    assertThat(report.summary()).isEqualTo("0 passed, 1 failed");
    assertThat(failures).containsExactly("FAIL X: step 2 expect status: {\"text\":\"running\"} <> {\"text\":\"idle\"}");
  }

  @Test
  void brokenStepsFailTheCaseWithAReason() throws IOException {
    run("{\"do\":\"frobnicate\"}");
    run("{\"do\":\"busy\",\"agent\":\"ghost\"}");
    run("{\"expect\":\"status\",\"agent\":\"ghost\"}");
    run("{\"nothing\":1}");
    runCase("{\"id\":\"X\",\"suite\":\"host\",\"fn\":\"scenario\",\"args\":{\"steps\":[]}}");
    runCase("{\"id\":\"X\",\"suite\":\"host\",\"fn\":\"scenario\",\"args\":{\"host\":{\"plugins\":[{\"name\":\"nope\"}]},"
        + "\"steps\":[{\"do\":\"settle\"}]}}");

    assertThat(failures).containsExactly(
        "FAIL X: step 1 frobnicate: a runnable step <> {\"broken\":\"unknown step \\\"frobnicate\\\"\"}",
        "FAIL X: step 1 busy: a runnable step <> {\"broken\":\"no agent named ghost\"}",
        "FAIL X: step 1 expect status: a runnable step <> {\"broken\":\"the step names no expectation form\"}",
        "FAIL X: step 1 ?: a runnable step <> {\"broken\":\"a step has a string \\\"do\\\" or a string \\\"expect\\\"\"}",
        "FAIL X: args.steps <> {\"broken\":\"a scenario needs a non-empty args.steps array\"}",
        "FAIL X: host setup <> {\"broken\":\"StepError: unknown plugin \\\"nope\\\" (known: [time-context, tool-schedule, tool-jobs, invariants])\"}");
  }

  @Test
  void anActionWithAnInlineExpectationTurnsItsExceptionIntoAnErrorValue() throws IOException {
    Report report = run(
        "{\"do\":\"install\",\"plugin\":\"time-context\",\"config\":{\"timeZone\":\"Nowhere/City\"},"
            + "\"expect\":{\"error\":{\"type\":\"CompositionException\",\"message\":\"time-context: invalid IANA timeZone \\\"Nowhere/City\\\"\"}}}",
        "{\"do\":\"install\",\"plugin\":\"time-context\",\"config\":{\"timeZone\":\"Nowhere/City\"}}");

    assertThat(report.summary()).isEqualTo("0 passed, 1 failed");
    assertThat(failures.get(0)).startsWith("FAIL X: step 2 install: a completed step <> {\"broken\":\"CompositionException: ");
  }

  @Test
  void matchesIncludesExcludesAndCount() throws IOException {
    String setup = "{\"do\":\"agent\",\"as\":\"a\"},"
        + "{\"do\":\"append\",\"agent\":\"a\",\"type\":\"note\",\"data\":{\"n\":1,\"tags\":[\"x\",\"y\"]}},"
        + "{\"do\":\"append\",\"agent\":\"a\",\"type\":\"note\",\"data\":{\"n\":2}}";
    run(setup, "{\"expect\":\"log\",\"agent\":\"a\",\"project\":\"data\",\"matches\":[{\"n\":1},{}],\"count\":2,"
        + "\"includes\":[{\"n\":2}],\"excludes\":[{\"n\":3}]}");
    run(setup, "{\"expect\":\"log\",\"agent\":\"a\",\"project\":\"data\",\"matches\":[{\"n\":1}]}");
    run(setup, "{\"expect\":\"log\",\"agent\":\"a\",\"project\":\"data\",\"matches\":[{\"n\":1,\"tags\":[\"x\"]},{}]}");
    run(setup, "{\"expect\":\"log\",\"agent\":\"a\",\"project\":\"data\",\"matches\":[{\"n\":1,\"missing\":null},{}]}");
    run(setup, "{\"expect\":\"log\",\"agent\":\"a\",\"project\":\"data\",\"includes\":[{\"n\":3}]}");
    run(setup, "{\"expect\":\"log\",\"agent\":\"a\",\"project\":\"data\",\"excludes\":[{\"n\":2}]}");
    run(setup, "{\"expect\":\"log\",\"agent\":\"a\",\"project\":\"types\",\"count\":3}");
    run(setup, "{\"expect\":\"status\",\"agent\":\"a\",\"count\":0}");

    // the first passes; each later one breaks exactly one rule
    assertThat(failures).hasSize(7);
    assertThat(failures).allSatisfy(l -> assertThat(l).startsWith("FAIL X: step 4 expect "));
  }

  @Test
  void pendingResultsAreVisibleAndSettleLater() throws IOException {
    Report report = run("{\"do\":\"agent\",\"as\":\"a\"}", "{\"do\":\"holdFlush\",\"as\":\"h\"}",
        "{\"do\":\"flush\",\"agent\":\"a\",\"as\":\"f\",\"expect\":{\"value\":{\"pending\":true}}}",
        "{\"do\":\"failHeldFlush\",\"hold\":\"h\",\"message\":\"torn\"}",
        "{\"expect\":\"flush\",\"flush\":\"f\",\"error\":{\"message\":\"torn\"}}",
        "{\"expect\":\"timers\",\"value\":0}", "{\"expect\":\"warnings\",\"value\":[]}",
        "{\"expect\":\"header\",\"agent\":\"a\",\"matches\":{\"version\":1}}");

    assertThat(failures).isEmpty();
    assertThat(report.passed()).isEqualTo(1);
  }
}

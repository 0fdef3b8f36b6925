package dev.horae.examples.tck;

import dev.horae.conformance.ConformanceRunner;
import dev.horae.conformance.Report;
import dev.horae.conformance.scenario.PluginCatalog;
import dev.horae.conformance.scenario.ScenarioRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The scenario-running snippet of {@code docs/conformance.md}, compiled. */
public final class ScenarioExample {

  private ScenarioExample() {}

  /**
   * Runs every scenario file under {@code ./scenarios} against {@link MyScenarioHosts}.
   *
   * @return the report
   * @throws IOException when a scenario file cannot be read
   */
  public static Report runScenarios() throws IOException {
    ConformanceRunner runner = ConformanceRunner.standard(List.of(
        new ScenarioRunner(new MyScenarioHosts(), PluginCatalog.standard())));
    Report report = runner.run(List.of(Path.of("scenarios")), System.out::println);
    System.out.println(report.summary());
    return report;
  }
}

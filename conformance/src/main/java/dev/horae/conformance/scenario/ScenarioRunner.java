package dev.horae.conformance.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.conformance.CaseHandler;
import dev.horae.conformance.CaseResult;
import dev.horae.conformance.internal.scenario.ScenarioRun;
import java.util.Objects;

/**
 * Runs {@code scenario} cases ({@code "fn": "scenario"}) on the hosts of a {@link ScenarioHosts}:
 * a fresh host per case, the steps in order, the first failing step reported as the case's
 * {@code FAIL} line.
 */
public final class ScenarioRunner implements CaseHandler {

  private final ScenarioHosts hosts;
  private final PluginCatalog plugins;

  /**
   * Creates a runner.
   *
   * @param hosts builds the host of each case
   * @param plugins the plugins scenarios may install
   */
  public ScenarioRunner(ScenarioHosts hosts, PluginCatalog plugins) {
    this.hosts = Objects.requireNonNull(hosts, "hosts");
    this.plugins = Objects.requireNonNull(plugins, "plugins");
  }

  /**
   * A runner on the in-memory reference host with the standard plugins.
   *
   * @return the runner
   */
  public static ScenarioRunner onTestkit() {
    return new ScenarioRunner(new TestkitScenarioHosts(), PluginCatalog.standard());
  }

  @Override
  public String fn() {
    return "scenario";
  }

  @Override
  public CaseResult run(String id, JsonNode caseJson) {
    return new ScenarioRun(id, caseJson, hosts, plugins).run();
  }
}

package dev.horae.examples.tck;

import dev.horae.conformance.scenario.HostSetup;
import dev.horae.conformance.scenario.ScenarioHost;
import dev.horae.conformance.scenario.ScenarioHosts;
import dev.horae.conformance.scenario.TestkitScenarioHosts;

/**
 * A host author's scenario hosts. A real author builds their own host here; this example builds
 * the reference host so that it runs as shipped.
 */
public final class MyScenarioHosts implements ScenarioHosts {

  private final ScenarioHosts reference = new TestkitScenarioHosts();

  /** Creates the factory (the command line's {@code --host} needs a public no-argument constructor). */
  public MyScenarioHosts() {}

  @Override
  public ScenarioHost create(HostSetup setup) {
    return reference.create(setup);
  }
}

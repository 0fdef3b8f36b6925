package dev.horae.conformance.scenario;

/**
 * Builds a fresh host for each scenario. A host author implements it (with a public no-argument
 * constructor to be named by {@code --host} on the command line).
 */
public interface ScenarioHosts {

  /**
   * Builds a host with no plugin installed and no session.
   *
   * @param setup the scenario's host setup
   * @return the host
   */
  ScenarioHost create(HostSetup setup);
}

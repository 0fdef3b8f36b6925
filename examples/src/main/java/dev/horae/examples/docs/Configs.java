package dev.horae.examples.docs;

import dev.horae.jobs.JobServiceConfig;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.jobs.shell.ShellJobConfig;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.plugin.CompositionException;
import dev.horae.spi.session.Json;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.util.ArrayList;
import java.util.List;

/**
 * The configuration calls of the docs, with the load-time errors a bad value produces: every
 * configuration is validated once, when it is loaded, and a bad one registers nothing.
 */
public final class Configs {

  private Configs() {}

  /**
   * Loads one bad configuration of each capability and collects the error texts.
   *
   * @return one exact message per configuration
   */
  public static List<String> loadErrors() {
    List<String> messages = new ArrayList<>();
    // snippet:config-errors
    try (HoraeRuntime horae = HoraeRuntime.builder().build()) {   // in memory: nothing to set up
      try {
        horae.install(TimeContextPlugin.withConfig(Json.parse("{\"refreshIntervalMs\":0.5}")));
      } catch (CompositionException e) {
        messages.add(e.getMessage());   // time-context: refreshIntervalMs must be a non-negative safe integer, got 0.5
      }
      try {
        horae.install(TimeContextPlugin.withConfig(Json.parse("{\"timeZone\":\"Mars/Base\"}")));
      } catch (CompositionException e) {
        messages.add(e.getMessage());   // time-context: invalid IANA timeZone "Mars/Base"
      }
    }
    try {
      JobsControllerConfig.fromJson(Json.parse("{\"waitTimeoutMs\":100,\"maxWaitTimeoutMs\":50}"));
    } catch (JobsException e) {
      messages.add(e.getMessage());   // tool-jobs: waitTimeoutMs (100) exceeds maxWaitTimeoutMs (50)
    }
    // end-snippet
    try {
      JobServiceConfig.fromJson(Json.parse("{\"maxConcurrentJobsPerOwner\":0}"));
    } catch (JobsException e) {
      messages.add(e.getMessage());
    }
    try {
      ShellJobConfig.fromJson(Json.parse("{\"retainTailBytes\":10}"));
    } catch (JobsException e) {
      messages.add(e.getMessage());
    }
    return messages;
  }

  /**
   * Prints the messages.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    loadErrors().forEach(System.out::println);
  }
}

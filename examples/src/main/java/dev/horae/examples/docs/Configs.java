package dev.horae.examples.docs;

import dev.horae.jobs.registry.JobServiceConfig;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.jobs.shell.ShellJobConfig;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.session.Json;
import dev.horae.timecontext.InvalidConfigException;
import dev.horae.timecontext.TimeContextConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The configuration calls of the docs, with the errors a bad value produces: every configuration
 * is validated when it is built, typed or read from JSON, so a bad one never reaches a host.
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
    try {
      TimeContextConfig.fromJson(Json.parse("{\"refreshIntervalMs\":0.5}"));   // from a configuration file
    } catch (InvalidConfigException e) {
      messages.add(e.getMessage());   // time-context: refreshIntervalMs must be a non-negative safe integer, got 0.5
    }
    try {
      TimeContextConfig.builder().timeZone("Mars/Base").build();                // typed, in Java
    } catch (InvalidConfigException e) {
      messages.add(e.getMessage());   // time-context: invalid IANA timeZone "Mars/Base"
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

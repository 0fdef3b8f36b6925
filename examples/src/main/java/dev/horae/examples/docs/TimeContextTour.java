package dev.horae.examples.docs;

import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The walk-through of {@code docs/time-context.md}: the three-line reading with client-zone
 * guidance, a later step's elapsed line, and a refresh interval that skips a reading.
 */
public final class TimeContextTour {

  private TimeContextTour() {}

  /**
   * Runs the tour on a manual clock.
   *
   * @return the model-visible transcript, in log order
   */
  public static List<String> run() {
    // snippet:time-context-tour
    TestHost host = TestHost.builder().start(Instant.parse("2026-07-15T01:01:01Z")).build();
    host.install(TimeContextPlugin.withConfig(Json.parse(
        "{\"timeZone\":\"Asia/Shanghai\",\"refreshIntervalMs\":60000,\"clientZoneGuidance\":true}")));
    TestAgent agent = host.createAgent(new CreateOptions(Optional.empty(), Optional.empty(), Optional.of("Asia/Shanghai")));
    agent.useModel(new ScriptedModel().thenText("Good morning.").thenText("Still here."));
    host.prompt(agent, "Good morning!", "rpc-1", Optional.of("Asia/Shanghai"));
    host.settle();                                  // turn 1: a reading (first in the session)
    host.advance(Duration.ofSeconds(30));
    host.prompt(agent, "Are you there?", "rpc-2", Optional.of("Asia/Shanghai"));
    host.settle();                                  // turn 2: no reading, 30 s < refreshIntervalMs
    // end-snippet
    return Transcript.of(agent.session());
  }

  /**
   * Prints the tour's transcript.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    run().forEach(System.out::println);
  }
}

package dev.horae.examples.docs;

import dev.horae.schedule.tools.SchedulePlugin;
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
 * The walk-through of {@code docs/schedule.md}: an agent on the reference host creates, lists and
 * deletes reminders, is asked to confirm a zone, and receives a due reminder as a follow-up turn.
 */
public final class ScheduleTour {

  private ScheduleTour() {}

  /**
   * Runs the tour on a manual clock.
   *
   * @return the model-visible transcript, in log order
   */
  public static List<String> run() {
    // snippet:schedule-tour
    TestHost host = TestHost.builder().start(Instant.parse("2026-08-05T12:00:00Z")).build();
    host.install(TimeContextPlugin.withConfig(Json.parse("{\"timeZone\":\"Asia/Shanghai\"}")));
    host.install(new SchedulePlugin());     // needs a SessionStore service: TestHost offers one
    TestAgent agent = host.createAgent(new CreateOptions(Optional.empty(), Optional.empty(), Optional.of("Asia/Shanghai")));
    agent.useModel(new ScriptedModel()
        .thenCall("schedule_create", Json.parse("{\"prompt\":\"check logs\",\"after_seconds\":30}"))
        .thenCall("schedule_create", Json.parse("{\"prompt\":\"join meeting\",\"at\":{\"date\":\"2026-08-06\",\"time\":\"09:00:00\"}}"))
        .thenCall("schedule_create", Json.parse("{\"prompt\":\"join meeting\",\"at\":\"2026-08-06T09:00:00+08:00\"}"))
        .thenCall("schedule_list", Json.parse("{}"))
        .thenCall("schedule_delete", Json.parse("{\"id\":\"schedule-9\"}"))
        .thenText("Both reminders are set."));
    host.prompt(agent, "Remind me in 30 s to check logs, and tomorrow at 9 to join the meeting.", "rpc-1", Optional.empty());
    host.settle();
    host.advance(Duration.ofSeconds(30));   // schedule-1 comes due: one follow-up turn
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

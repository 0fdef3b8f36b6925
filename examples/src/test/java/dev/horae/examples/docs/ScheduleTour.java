package dev.horae.examples.docs;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.session.Json;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.time.ManualTime;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The walk-through of {@code docs/schedule.md}: an agent on the production runtime creates, lists
 * and deletes reminders, is asked to confirm a zone, and receives a due reminder as a follow-up
 * turn. The testkit's manual clock and scripted model make the transcript the same on every run.
 */
public final class ScheduleTour {

  private ScheduleTour() {}

  /**
   * Runs the tour on a manual clock.
   *
   * @return the model-visible transcript, in log order
   * @throws InterruptedException when interrupted while a turn runs
   * @throws ExecutionException when a turn's idle wait fails
   * @throws TimeoutException when a turn does not end within its bound
   */
  public static List<String> run() throws InterruptedException, ExecutionException, TimeoutException {
    // snippet:schedule-tour
    ManualTime time = new ManualTime(Instant.parse("2026-08-05T12:00:00Z"));   // testkit: a clock the tour moves
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time).build()) {
      horae.install(TimeContextPlugin.create(TimeContextConfig.builder().timeZone("Asia/Shanghai").build()));
      horae.install(SchedulePlugin.create());   // needs a SessionStore service: the runtime offers its store
      RuntimeAgent agent = horae.openAgent("schedule-tour", "Asia/Shanghai");
      agent.useModel(new ScriptedModel()
          .thenCall("schedule_create", Json.parse("{\"prompt\":\"check logs\",\"after_seconds\":30}"))
          .thenCall("schedule_create", Json.parse("{\"prompt\":\"join meeting\",\"at\":{\"date\":\"2026-08-06\",\"time\":\"09:00:00\"}}"))
          .thenCall("schedule_create", Json.parse("{\"prompt\":\"join meeting\",\"at\":\"2026-08-06T09:00:00+08:00\"}"))
          .thenCall("schedule_list", Json.parse("{}"))
          .thenCall("schedule_delete", Json.parse("{\"id\":\"schedule-9\"}"))
          .thenText("Both reminders are set."));
      horae.prompt(agent, "Remind me in 30 s to check logs, and tomorrow at 9 to join the meeting.");
      agent.whenIdle().toCompletableFuture().get(30, TimeUnit.SECONDS);
      time.advance(Duration.ofSeconds(30));   // schedule-1 comes due: one follow-up turn
      TurnEnds.await(horae, agent, 2);
      return Transcript.of(agent.session());   // the texts the model saw, in log order
    }
    // end-snippet
  }
}

package dev.horae.examples.docs;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
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
 * The walk-through of {@code docs/time-context.md} on the production runtime: the three-line
 * reading with client-zone guidance, a later step's elapsed line, and a refresh interval that skips
 * a reading. The testkit's manual clock and scripted model make the transcript the same on every
 * run.
 */
public final class TimeContextTour {

  private TimeContextTour() {}

  /**
   * Runs the tour on a manual clock.
   *
   * @return the model-visible transcript, in log order
   * @throws InterruptedException when interrupted while a turn runs
   * @throws ExecutionException when a turn's idle wait fails
   * @throws TimeoutException when a turn does not end within its bound
   */
  public static List<String> run() throws InterruptedException, ExecutionException, TimeoutException {
    // snippet:time-context-tour
    ManualTime time = new ManualTime(Instant.parse("2026-07-15T01:01:01Z"));   // testkit: a clock the tour moves
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time).build()) {
      horae.install(TimeContextPlugin.create(TimeContextConfig.builder()
          .timeZone("Asia/Shanghai").refreshIntervalMs(60_000).clientZoneGuidance(true).build()));
      RuntimeAgent agent = horae.openAgent("time-context-tour", "Asia/Shanghai");
      agent.useModel(new ScriptedModel().thenText("Good morning.").thenText("Still here."));
      horae.prompt(agent, "Good morning!", "Asia/Shanghai");     // an RPC prompt with the client's zone
      agent.whenIdle().toCompletableFuture().get(30, TimeUnit.SECONDS);   // turn 1: a reading (first in the session)
      time.advance(Duration.ofSeconds(30));
      horae.prompt(agent, "Are you there?", "Asia/Shanghai");
      agent.whenIdle().toCompletableFuture().get(30, TimeUnit.SECONDS);   // turn 2: no reading, 30 s < refreshIntervalMs
      return Transcript.of(agent.session());   // the texts the model saw, in log order
    }
    // end-snippet
  }
}

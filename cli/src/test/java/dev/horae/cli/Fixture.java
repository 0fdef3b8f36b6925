package dev.horae.cli;

import dev.horae.testkit.log.LogWaits;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.time.ManualTime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Writes the store every CLI test reads: on a manual clock from 2026-12-01T09:00Z, session
 * {@code ops-1} gets a reminder due in 30 s (dispatched) and one due in an hour (pending), a build
 * job that settles (its notice wakes the agent), and a {@code deploy} call parked on a confirmation
 * in turn 6, left so by a runtime that then closes.
 */
final class Fixture {

  static final String SESSION = "ops-1";
  static final String PARKED_RUN = "ops-1/turn-6";
  /** The clock the CLI's own runtime runs on: after the fixture, before the hour's reminder. */
  static final InstantSource CLI_CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T09:05:00Z"));

  private Fixture() {}

  /** Writes the fixture through a runtime built from {@code builder} (its store), then closes it. */
  static void write(HoraeRuntime.Builder builder) throws Exception {
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    ScriptedModel model = new ScriptedModel()
        .thenCall("schedule_create", Json.parse("{\"prompt\":\"check the logs\",\"after_seconds\":30}"))
        .thenText("in 30 s")
        .thenCall("schedule_create", Json.parse("{\"prompt\":\"join the review\",\"after_seconds\":3600}"))
        .thenText("in an hour")
        .thenCall("start_build", Json.parse("{}"))
        .thenText("build started")
        .thenText("the build finished")
        .thenText("time to check the logs")
        .thenCall("deploy", Json.parse("{\"env\":\"prod\"}"));
    App.build = new CompletableFuture<>();
    try (HoraeRuntime horae = builder.clock(time).timers(time).model(model).build()) {
      App.wire(horae, true);
      RuntimeAgent agent = horae.openAgent(SESSION, "Europe/Amsterdam");
      horae.prompt(agent, "Remind me in 30 s to check the logs.");
      awaitTurns(horae, agent, 1);
      horae.prompt(agent, "Remind me in an hour to join the review.");
      awaitTurns(horae, agent, 2);
      horae.prompt(agent, "Start the build.");
      awaitTurns(horae, agent, 3);
      App.build.complete(JobOutcome.completed(Optional.of("exit code: 0")));
      awaitTurns(horae, agent, 4);
      time.advance(Duration.ofSeconds(30));
      // the owner may arm the reminder's timer only after this advance (its drive runs on its own
      // thread); such a timer is already due, and advancing by zero runs it: nudge until turn 5
      LogWaits.until(horae, agent, log -> {
        time.advance(Duration.ZERO);
        return log.stream().filter(e -> e.type().equals("turn/end")).count() == 5;
      });
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      horae.prompt(agent, "Deploy to prod.");
      awaitLog(horae, agent, log -> agent.parked());
      assertThat(horae.awaiting()).singleElement().satisfies(a -> assertThat(a.runId()).isEqualTo(PARKED_RUN));
    }
  }

  private static void awaitTurns(HoraeRuntime horae, RuntimeAgent agent, long turns) throws Exception {
    awaitLog(horae, agent, log -> log.stream().filter(e -> e.type().equals("turn/end")).count() == turns);
    agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  /** Waits, bounded, until {@code done} holds; wakes on every append ({@link LogWaits#until}). */
  static void awaitLog(HoraeRuntime horae, RuntimeAgent agent, Predicate<List<SessionEvent>> done) throws InterruptedException {
    LogWaits.until(horae, agent, done);
  }

  /** One CLI run's outcome. */
  record Run(int exit, String out, String err) {
    com.fasterxml.jackson.databind.JsonNode json() {
      return Json.parse(out);
    }
  }

  static Run cli(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = Horae.run(List.of(args), o, e, CLI_CLOCK);
    }
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}

package dev.horae.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.invariant.Companions;
import dev.horae.invariant.SessionLogCheck;
import dev.horae.jobs.JobsController;
import dev.horae.jobs.registry.LocalJobService;
import dev.horae.jobs.shell.BackgroundShellTool;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.Registration;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.tool.ToolDefinition;
import java.util.concurrent.atomic.AtomicInteger;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.FileSessionStore;
import dev.horae.testkit.time.ManualTime;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production runtime with every plugin on the file store, across a restart: time readings
 * before each step, a reminder created through the tool, a real {@code bash} job whose notice
 * wakes the idle agent, an email gated as a scheduled action and left committed by a process that
 * stopped before performing it; a new runtime on the same folder performs the email exactly once
 * and delivers the overdue reminder exactly once, and every stored log passes the invariant check. Time is a manual clock; every wait is on
 * the agent's idle stage or the log, bounded.
 */
@Timeout(60)
class RuntimeEndToEndTest {

  private static final String SESSION = "e2e";
  private static final String ZONE = "Europe/Amsterdam";

  /** Answers from the step's newest message, as a real model would from its request. */
  static final class RuleModel implements ModelPort {
    private int calls;

    @Override
    public synchronized CompletionStage<ModelResponse> complete(ModelRequest request) {
      Optional<ChatMessage.User> last = request.latestUserMessages().stream()
          .filter(m -> !m.source().plugin().equals(Optional.of("time-context")))
          .reduce((a, b) -> b);
      if (last.isEmpty()) {
        return done(ModelResponse.text("done"));
      }
      String text = last.get().text();
      if (text.contains("Remind me")) {
        return done(call("schedule_create", "{\"after_seconds\":60,\"prompt\":\"Stretch your legs\"}"));
      }
      if (text.contains("email")) {
        return done(call("send_email", "{\"to\":\"ada@example.com\",\"subject\":\"report\"}"));
      }
      if (text.contains("build")) {
        return done(call("bash_background", "{\"command\":\"echo built\",\"description\":\"build\"}"));
      }
      return done(ModelResponse.text("answered: " + text.lines().findFirst().orElse("")));
    }

    private ModelResponse call(String tool, String args) {
      calls++;
      return ModelResponse.calls(new ToolCall("call-" + calls, tool, Json.parse(args)));
    }

    private static CompletionStage<ModelResponse> done(ModelResponse r) {
      return CompletableFuture.completedFuture(r);
    }
  }

  /** Emails the {@code send_email} tool sent, across every runtime of a test. */
  private final AtomicInteger sent = new AtomicInteger();

  private HoraeRuntime open(Path dir, ManualTime time, boolean dispatch) {
    HoraeRuntime horae = HoraeRuntime.builder().dataDir(dir).clock(time).timers(time).model(new RuleModel())
        .dispatchScheduledActions(dispatch).build();
    horae.tools().register(ToolDefinition.builder("send_email")
        .description("Sends an email")
        .body((args, exec) -> {
          sent.incrementAndGet();
          return CompletableFuture.completedFuture(Json.parse("{\"sent\":true}"));
        })
        .build());
    // every email is a scheduled action: committed first, performed by the dispatcher
    var unusedGate = horae.gates().register((call, state) -> CompletableFuture.completedFuture(
        call.toolId().equals("send_email") ? GateOutcome.schedule("email-" + call.callId()) : GateOutcome.allow()));
    var unused = Companions.registerAll(horae);
    horae.install(TimeContextPlugin.create(TimeContextConfig.builder().timeZone(ZONE).build()));
    horae.install(SchedulePlugin.create());
    LocalJobService jobs = LocalJobService.create(horae);
    horae.provide(JobService.class, jobs);
    horae.closeOnShutdown(() -> jobs.closeAsync().toCompletableFuture().join());
    horae.install(JobsController.create());
    horae.install(BackgroundShellTool.create());             // bash_background
    return horae;
  }

  private HoraeRuntime open(Path dir, ManualTime time) {
    return open(dir, time, true);
  }

  /** Waits, bounded, until the agent's turn is parked on a committed ticket. */
  private static void awaitParked(HoraeRuntime horae, RuntimeAgent agent) throws Exception {
    for (int round = 0; round < 400 && !agent.parked(); round++) {
      CompletableFuture<Void> appended = new CompletableFuture<>();
      Registration r = horae.sessions().onEvent((session, event) -> appended.complete(null));
      try {
        if (!agent.parked()) {
          appended.get(100, TimeUnit.MILLISECONDS);
        }
      } catch (java.util.concurrent.TimeoutException notYet) {
        // look again
      } finally {
        r.close();
      }
    }
    assertThat(agent.parked()).as("parked").isTrue();
  }

  private static long count(RuntimeAgent agent, Predicate<SessionEvent> p) {
    return agent.session().events().stream().filter(p).count();
  }

  private static boolean isDispatch(SessionEvent e) {
    return e.type().equals("schedule/change") && e.data().path("operation").asText().equals("dispatch");
  }

  private static boolean isNotice(SessionEvent e) {
    return e.type().equals("user/message") && e.data().path("source").path("form").asText().equals("notice");
  }

  /**
   * Waits until the agent is idle with the condition true. Each round waits on the idle stage and
   * then for the next append to any session (a job settling, a reminder dispatched), after
   * {@code nudge} (which may move the manual clock); every wait is bounded.
   */
  private static void awaitIdle(HoraeRuntime horae, RuntimeAgent agent, Runnable nudge, Predicate<RuntimeAgent> done)
      throws Exception {
    for (int round = 0; round < 400; round++) {
      CompletableFuture<Void> appended = new CompletableFuture<>();
      Registration r = horae.sessions().onEvent((session, event) -> appended.complete(null));
      try {
        agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
        if (done.test(agent)) {
          return;
        }
        // the work may be armed on another thread (a flush completing): nudge until something lands
        for (int n = 0; !appended.isDone(); n++) {
          if (n == 200) {
            throw new AssertionError("nothing more happened in " + agent.id() + "'s session: " + agent.session().events().stream().skip(Math.max(0, agent.session().events().size() - 12)).map(e -> e.type() + " " + e.data()).toList());
          }
          nudge.run();
          try {
            appended.get(100, TimeUnit.MILLISECONDS);
          } catch (java.util.concurrent.TimeoutException notYet) {
            // nudge again
          }
        }
      } finally {
        r.close();
      }
    }
    throw new AssertionError("the condition never held for " + agent.id());
  }

  private static boolean endsWithTurnEnd(RuntimeAgent a) {
    List<SessionEvent> log = a.session().events();
    return log.get(log.size() - 1).type().equals("turn/end");
  }

  @Test
  void everyCapabilityOnOneAgentAndTheReminderAndTheScheduledActionDoneOnceAfterARestart(@TempDir Path dir) throws Exception {
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    // the first process stops between committing the email and performing it
    try (HoraeRuntime first = open(dir, time, false)) {
      RuntimeAgent agent = first.openAgent(SESSION, ZONE);
      first.prompt(agent, "Remind me in a minute to stretch.", ZONE);
      awaitIdle(first, agent, () -> { }, a -> count(a, e -> e.type().equals("schedule/change")) == 1);
      first.prompt(agent, "Start the build in the background.", ZONE);
      awaitIdle(first, agent, () -> { }, a -> count(a, RuntimeEndToEndTest::isNotice) == 1 && endsWithTurnEnd(a));
      assertThat(count(agent, e -> e.type().equals("user/message")
          && e.data().path("source").path("plugin").asText().equals("time-context"))).isGreaterThanOrEqualTo(1);
      assertThat(count(agent, RuntimeEndToEndTest::isDispatch)).isZero();
      first.prompt(agent, "Send the report by email to Ada.", ZONE);
      awaitParked(first, agent);
      assertThat(first.awaiting()).singleElement().satisfies(c -> assertThat(c.toolId()).isEqualTo("send_email"));
      assertThat(sent).hasValue(0);
    }
    time.advance(Duration.ofMinutes(2));
    try (HoraeRuntime second = open(dir, time)) {
      RuntimeAgent agent = second.openAgent(SESSION);
      // the owner arms its timer once the resumed log is flushed; each nudge moves time past it
      awaitIdle(second, agent, () -> time.advance(Duration.ofSeconds(1)),
          a -> count(a, RuntimeEndToEndTest::isDispatch) == 1 && endsWithTurnEnd(a));
      assertThat(agent.session().events())
          .filteredOn(e -> e.type().equals("user/message") && e.data().path("source").path("plugin").asText().equals("tool-schedule"))
          .singleElement().satisfies(e -> assertThat(e.data().toString()).contains("Stretch your legs"));
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals("assistant/message"))
          .last().satisfies(e -> assertThat(e.data().toString()).contains("answered: [SCHEDULE REMINDER]"));
      // the committed email was found on reopen and performed once, before the reminder's turn
      assertThat(sent).hasValue(1);
      assertThat(second.awaiting()).isEmpty();
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals("tool/result")
          && e.data().path("tool").asText().equals("send_email")).singleElement()
          .satisfies(e -> assertThat(e.data().path("isError").asBoolean()).isFalse());
    }
    try (HoraeRuntime third = open(dir, time)) {
      RuntimeAgent agent = third.openAgent(SESSION);
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(count(agent, RuntimeEndToEndTest::isDispatch)).isEqualTo(1);
      assertThat(sent).hasValue(1);
    }
    try (FileSessionStore store = FileSessionStore.open(dir)) {
      for (String id : store.ids()) {
        StoredSession s = store.load(id).orElseThrow();
        assertThat(SessionLogCheck.check(s.header(), s.events())).as("invariant findings of " + id).isEmpty();
      }
    }
  }
}

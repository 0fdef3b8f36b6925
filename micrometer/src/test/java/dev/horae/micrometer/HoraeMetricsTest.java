package dev.horae.micrometer;

import dev.horae.testkit.log.LogWaits;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.jobs.JobsController;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.jobs.registry.LocalJobService;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.jobs.JobHooks;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.TokenUsage;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.store.FileSessionStore;
import dev.horae.store.MemorySessionStore;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.time.ManualTime;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance scenario of the metrics (issue 18): on a manual clock, a reminder due at 09:01:00
 * that is dispatched at 09:01:40 because the agent's turn was parked on a confirmation until then,
 * a job that settles, a gate that parks a call and an approval; then every meter's value, exactly.
 * A second scenario spends a wake budget and counts the notice it held back.
 */
class HoraeMetricsTest {

  private static final String SESSION = "ops-1";

  private final ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
  private final MeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, new MockClock());

  private static ModelResponse withUsage(ModelResponse r, long in, long out) {
    return r.withUsage(new TokenUsage(in, out));
  }


  private static long count(java.util.List<SessionEvent> log, String type) {
    return log.stream().filter(e -> e.type().equals(type)).count();
  }

  private double counter(String name, String... tags) {
    return registry.get(name).tags(tags).counter().count();
  }

  private Timer timer(String name, String... tags) {
    return registry.get(name).tags(tags).timer();
  }

  private double gauge(String name, String... tags) {
    return registry.get(name).tags(tags).gauge().value();
  }

  @Test
  void aLateReminderASettledJobAndAnApprovedGateShowExactlyInTheMeters(@TempDir Path dir) throws Exception {
    ScriptedModel model = new ScriptedModel()
        .then(withUsage(ModelResponse.calls(new ToolCall("call-1", "schedule_create",
            Json.parse("{\"prompt\":\"check logs\",\"after_seconds\":60}"))), 100, 10))
        .then(withUsage(ModelResponse.text("reminder set"), 120, 5))
        .thenCall("start_build", Json.parse("{}"))
        .thenText("build started")
        .thenCall("deploy", Json.parse("{\"env\":\"prod\"}"))
        .thenText("deployed")
        .thenText("the reminder: check logs")
        .thenText("the build finished");
    CompletableFuture<JobOutcome> build = new CompletableFuture<>();
    FileSessionStore file = FileSessionStore.open(dir);
    try (HoraeRuntime horae = HoraeRuntime.builder().store(MeteredSessionStore.wrap(file, registry))
        .clock(time).timers(time).model(model).build()) {
      horae.closeOnShutdown(file);
      horae.install(SchedulePlugin.create());
      LocalJobService jobs = LocalJobService.create(horae);
      horae.provide(JobService.class, jobs);
      horae.closeOnShutdown(() -> jobs.closeAsync().toCompletableFuture().join());
      horae.install(JobsController.create());
      horae.tools().register(ToolDefinition.builder("start_build").description("Starts the nightly build.")
          .body((args, exec) -> {
            var id = jobs.start(JobStart.builder("build", "nightly build", () -> JobHooks.finalOutput(reason -> { }, build))
                .owner(Optional.of(exec.agent())).build());
            return CompletableFuture.completedFuture(Json.parse("{\"job\":\"" + id.value() + "\"}"));
          }).build());
      horae.tools().register(ToolDefinition.builder("deploy").description("Deploys.")
          .body((args, exec) -> CompletableFuture.completedFuture(Json.parse("{\"deployed\":true}"))).build());
      var unusedGate = horae.gates().register((call, state) -> CompletableFuture.completedFuture(
          call.toolId().equals("deploy") ? GateOutcome.requireConfirmation("confirm-" + call.callId()) : GateOutcome.allow()));
      HoraeMetrics metrics = HoraeMetrics.of(horae);
      metrics.bindTo(registry);
      horae.closeOnShutdown(metrics);

      RuntimeAgent agent = horae.openAgent(SESSION, "Europe/Amsterdam");
      horae.prompt(agent, "Remind me in a minute to check logs.");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(gauge(HoraeMetrics.REMINDERS_PENDING)).isEqualTo(1.0);

      horae.prompt(agent, "Start the build.");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(counter(HoraeMetrics.JOBS_STARTED, "kind", "build")).isEqualTo(1.0);

      time.advance(Duration.ofSeconds(10));                        // 09:00:10
      horae.prompt(agent, "Deploy to prod.");
      LogWaits.until(horae, agent, log -> count(log, "gate/commit") == 1 && agent.parked());
      assertThat(gauge(HoraeMetrics.RUNS_AWAITING, "reason", "toolPermission")).isEqualTo(1.0);
      assertThat(gauge(HoraeMetrics.RUNS_AWAITING, "reason", "scheduledAction")).isZero();
      assertThat(counter(HoraeMetrics.GATE_OUTCOMES, "kind", "ask")).isEqualTo(1.0);

      // the reminder comes due at 09:01:00 while the parked turn holds the agent
      time.advance(Duration.ofSeconds(90));                        // 09:01:40
      assertThat(counter(HoraeMetrics.REMINDERS_DISPATCHED)).isZero();
      var outcome = horae.approve(horae.awaiting().get(0).runId()).toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(outcome.toString()).contains("NaturalEnd");
      LogWaits.until(horae, agent, log -> count(log, "turn/end") == 4);
      // plain completion listeners run after the notice was routed (jobs §2.11 step 7): this one
      // runs after the binder's, so once it ran the settlement is counted
      CountDownLatch settled = new CountDownLatch(1);
      var unusedDone = jobs.onJobDone(Optional.empty(), dev.horae.spi.jobs.JobDoneListener.sync((snap, owner) -> settled.countDown()));
      build.complete(JobOutcome.completed(Optional.of("exit code: 0")));
      assertThat(settled.await(20, TimeUnit.SECONDS)).isTrue();
      LogWaits.until(horae, agent, log -> count(log, "turn/end") == 5);
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);

      assertThat(gauge(HoraeMetrics.REMINDERS_PENDING)).isZero();
      assertThat(counter(HoraeMetrics.REMINDERS_DISPATCHED)).isEqualTo(1.0);
      Timer lateness = timer(HoraeMetrics.REMINDERS_LATENESS);
      assertThat(lateness.count()).isEqualTo(1);
      assertThat(lateness.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(40_000.0);

      assertThat(counter(HoraeMetrics.JOBS_STARTED, "kind", "build")).isEqualTo(1.0);
      assertThat(counter(HoraeMetrics.JOBS_SETTLED, "kind", "build", "status", "completed")).isEqualTo(1.0);

      assertThat(counter(HoraeMetrics.GATE_OUTCOMES, "kind", "ask")).isEqualTo(1.0);
      assertThat(counter(HoraeMetrics.GATE_OUTCOMES, "kind", "approved")).isEqualTo(1.0);
      assertThat(registry.find(HoraeMetrics.GATE_OUTCOMES).tags("kind", "denied").counter()).isNull();
      assertThat(gauge(HoraeMetrics.RUNS_AWAITING, "reason", "toolPermission")).isZero();

      assertThat(counter(HoraeMetrics.WAKES, "source", "tool-schedule", "lane", "followup")).isEqualTo(1.0);
      assertThat(counter(HoraeMetrics.WAKES, "source", "tool-jobs", "lane", "followup")).isEqualTo(1.0);

      Timer turns = timer(HoraeMetrics.TURNS, "reason", "completed");
      assertThat(turns.count()).isEqualTo(5);
      assertThat(turns.totalTime(TimeUnit.SECONDS)).as("only the parked turn took time: 09:00:10 to 09:01:40").isEqualTo(90.0);
      assertThat(turns.max(TimeUnit.SECONDS)).isEqualTo(90.0);
      assertThat(timer(HoraeMetrics.MODEL_CALLS).count()).isEqualTo(8);
      assertThat(counter(HoraeMetrics.MODEL_TOKENS, "type", "input")).isEqualTo(220.0);
      assertThat(counter(HoraeMetrics.MODEL_TOKENS, "type", "output")).isEqualTo(15.0);

      Timer flushes = timer(HoraeMetrics.STORE_FLUSH, "outcome", "success");
      assertThat(flushes.count()).isPositive();
      assertThat(timer(HoraeMetrics.STORE_FLUSH, "outcome", "failure").count()).isZero();
      assertThat(counter(HoraeMetrics.STORE_FSYNCS)).as("at least one fsync per flush that wrote").isGreaterThanOrEqualTo(1.0);
      assertThat(counter(HoraeMetrics.LEASES_LOST)).isZero();
    }
  }

  @Test
  void aNoticeHeldBackByASpentWakeBudgetCountsOnceWhenClaimed() throws Exception {
    ScriptedModel model = new ScriptedModel()
        .thenCall("start_jobs", Json.parse("{}"))
        .thenText("three jobs started, one already done")
        .thenText("job a finished")
        .thenText("job b finished too");
    CompletableFuture<JobOutcome> a = new CompletableFuture<>();
    CompletableFuture<JobOutcome> b = new CompletableFuture<>();
    CompletableFuture<JobOutcome> c = new CompletableFuture<>();
    try (HoraeRuntime horae = HoraeRuntime.builder().store(new MemorySessionStore())
        .clock(time).timers(time).model(model).build()) {
      LocalJobService jobs = LocalJobService.create(horae);
      horae.provide(JobService.class, jobs);
      horae.closeOnShutdown(() -> jobs.closeAsync().toCompletableFuture().join());
      horae.install(JobsController.create(JobsControllerConfig.builder().maxConsecutiveWakes(1).build()));
      horae.tools().register(ToolDefinition.builder("start_jobs").description("Starts three jobs.")
          .body((args, exec) -> {
            for (var done : java.util.List.of(a, b, c)) {
              var unused = jobs.start(JobStart.builder("build", "part", () -> JobHooks.finalOutput(reason -> { }, done))
                  .owner(Optional.of(exec.agent())).build());
            }
            // job c ends while the agent is busy in this call: injected, which no budget decides
            try {
              settle(jobs, c);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return CompletableFuture.failedFuture(e);
            }
            return CompletableFuture.completedFuture(Json.parse("{}"));
          }).build());
      HoraeMetrics metrics = HoraeMetrics.of(horae);
      metrics.bindTo(registry);
      horae.closeOnShutdown(metrics);

      RuntimeAgent agent = horae.openAgent(SESSION, "UTC");
      horae.prompt(agent, "Start two jobs.");
      LogWaits.until(horae, agent, log -> count(log, "turn/end") == 1);
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);

      // job a wakes the idle agent and spends its one wake; claiming a notice never refills
      settle(jobs, a);
      LogWaits.until(horae, agent, log -> count(log, "turn/end") == 2);
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      // job b finds the agent idle with the budget spent: injected, waiting for the next turn
      settle(jobs, b);
      assertThat(registry.find(HoraeMetrics.WAKES_BUDGET_EXHAUSTED).counter()).isNull();

      horae.prompt(agent, "Anything else?");
      LogWaits.until(horae, agent, log -> count(log, "turn/end") == 3);
      assertThat(counter(HoraeMetrics.WAKES_BUDGET_EXHAUSTED, "source", "tool-jobs")).isEqualTo(1.0);
      assertThat(registry.find(HoraeMetrics.WAKES_BUDGET_EXHAUSTED).counters()).hasSize(1);
      assertThat(registry.find(HoraeMetrics.WAKES).tags("source", "tool-jobs").counters().stream()
          .mapToDouble(Counter::count).sum()).as("all three notices were claimed").isEqualTo(3.0);
    }
  }

  /** Completes a job and returns once its notice was routed (plain listeners run after it). */
  private static void settle(LocalJobService jobs, CompletableFuture<JobOutcome> done) throws InterruptedException {
    CountDownLatch routed = new CountDownLatch(1);
    var registration = jobs.onJobDone(Optional.empty(),
        dev.horae.spi.jobs.JobDoneListener.sync((snap, owner) -> routed.countDown()));
    done.complete(JobOutcome.completed(Optional.empty()));
    assertThat(routed.await(20, TimeUnit.SECONDS)).isTrue();
    registration.close();
  }

  @Test
  void historyBeforeBindingFillsTheGaugesButNoCounter(@TempDir Path dir) throws Exception {
    ScriptedModel model = new ScriptedModel()
        .thenCall("schedule_create", Json.parse("{\"prompt\":\"later\",\"after_seconds\":3600}"))
        .thenText("set");
    try (HoraeRuntime first = HoraeRuntime.builder().dataDir(dir).clock(time).timers(time).model(model).build()) {
      first.install(SchedulePlugin.create());
      RuntimeAgent agent = first.openAgent(SESSION, "UTC");
      first.prompt(agent, "Remind me in an hour.");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }
    try (HoraeRuntime second = HoraeRuntime.builder().dataDir(dir).clock(time).timers(time).build()) {
      second.install(SchedulePlugin.create());
      HoraeMetrics metrics = HoraeMetrics.of(second);
      metrics.bindTo(registry);
      var unused = second.openAgent(SESSION);
      assertThat(gauge(HoraeMetrics.REMINDERS_PENDING)).as("the resumed log's reminder").isEqualTo(1.0);
      assertThat(timer(HoraeMetrics.MODEL_CALLS).count()).as("turns of the first process are not counted again").isZero();
      assertThat(registry.find(HoraeMetrics.TURNS).timers()).isEmpty();
      metrics.close();
    }
  }

  @Test
  void bindingTwiceIsRefused() {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time).build()) {
      HoraeMetrics metrics = HoraeMetrics.of(horae);
      metrics.bindTo(registry);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> metrics.bindTo(registry))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("these Horae metrics are already bound to a registry");
    }
  }

  @Test
  void aLeaseTakenOverByAnotherNodeCountsOnceAsLost() throws Exception {
    MemorySessionStore store = new MemorySessionStore();
    ManualTime otherNode = new ManualTime(Instant.parse("2026-12-01T09:00:31Z"));
    try (HoraeRuntime node = HoraeRuntime.builder().leases(store.leases("node-a", Duration.ofSeconds(30), time))
        .clock(time).timers(time).build()) {
      HoraeMetrics.of(node).bindTo(registry);
      var unused = node.openAgent(SESSION, "UTC");
      CountDownLatch lost = new CountDownLatch(1);
      var unusedLost = node.leaseKeeper().orElseThrow().onLost((lease, why) -> lost.countDown());
      // node b's clock is past node a's expiry: it takes the session over
      var taken = store.leases("node-b", Duration.ofSeconds(30), otherNode).acquire(SESSION);
      assertThat(taken.sessionId()).isEqualTo(SESSION);
      time.advance(Duration.ofSeconds(10));                        // node a's renewal finds it lost
      assertThat(lost.await(20, TimeUnit.SECONDS)).isTrue();
      assertThat(counter(HoraeMetrics.LEASES_LOST)).isEqualTo(1.0);
    }
  }
  @Test
  void aDueSessionClaimedByTheWorkerAndItsLeaseRenewalCountExactly() throws Exception {
    // a session is due at the "at" of its test/due event
    dev.horae.store.DueIndexer dueAtEvent = header -> {
      java.util.OptionalLong[] due = {java.util.OptionalLong.empty()};
      return events -> {
        for (SessionEvent e : events) {
          if (e.type().equals("test/due")) {
            due[0] = java.util.OptionalLong.of(e.data().get("at").asLong());
          }
        }
        return due[0];
      };
    };
    MemorySessionStore store = new MemorySessionStore(dueAtEvent);
    long now = time.millis();
    store.persist(dev.horae.spi.session.SessionHeader.root("due-1", now, Optional.empty()),
        java.util.List.of(SessionEvent.of(0, "test/due", now, Json.mapper().createObjectNode().put("at", now))))
        .toCompletableFuture().join();
    try (HoraeRuntime node = HoraeRuntime.builder().leases(store.leases("node-a", Duration.ofSeconds(30), time))
        .dueSessions(dev.horae.runtime.DueSessions.Settings.DEFAULTS).clock(time).timers(time).build()) {
      HoraeMetrics.of(node).bindTo(registry);
      java.util.concurrent.BlockingQueue<dev.horae.runtime.DueSessions.Pass> passes =
          new java.util.concurrent.LinkedBlockingQueue<>();
      var unusedPasses = node.startDueSessions().onPass(passes::add);
      CountDownLatch renewed = new CountDownLatch(1);
      var unusedRenewal = node.leaseKeeper().orElseThrow().onRenewal((lease, ok) -> renewed.countDown());
      time.advance(Duration.ZERO);
      dev.horae.runtime.DueSessions.Pass first = passes.poll(30, TimeUnit.SECONDS);
      assertThat(first).isNotNull();
      assertThat(first.opened()).containsExactly("due-1");
      assertThat(counter(HoraeMetrics.DISPATCHER_CLAIMS, "dispatcher", "due-sessions")).isEqualTo(1.0);
      assertThat(counter(HoraeMetrics.LEASES_RENEWALS, "outcome", "renewed")).isZero();
      time.advance(Duration.ofSeconds(10));                        // a third of the lease: renewed
      assertThat(renewed.await(20, TimeUnit.SECONDS)).isTrue();
      assertThat(counter(HoraeMetrics.LEASES_RENEWALS, "outcome", "renewed")).isEqualTo(1.0);
      assertThat(counter(HoraeMetrics.LEASES_RENEWALS, "outcome", "failed")).isZero();
      assertThat(counter(HoraeMetrics.LEASES_LOST)).isZero();
      assertThat(counter(HoraeMetrics.DISPATCHER_CLAIMS, "dispatcher", "due-sessions"))
          .as("held already: no later pass claims it again").isEqualTo(1.0);
    }
  }
}

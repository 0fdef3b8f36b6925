package dev.horae.cli;

import dev.horae.jobs.JobsController;
import dev.horae.jobs.registry.LocalJobService;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.jobs.JobHooks;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test application: Schedule, the jobs controller, a {@code start_build} tool that starts a
 * job, and a {@code deploy} tool that a gate holds for confirmation. The writer of the fixture
 * store and the operator setups wire it the same way, so their agents see the same tool catalog.
 */
final class App {

  /** How often {@code deploy} really ran, in this JVM. */
  static final AtomicInteger DEPLOYS = new AtomicInteger();

  /** The job {@code start_build} starts; the test settles it. */
  static volatile CompletableFuture<JobOutcome> build = new CompletableFuture<>();

  private App() {}

  static void wire(HoraeRuntime horae, boolean withDeploy) {
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
    if (withDeploy) {
      horae.tools().register(ToolDefinition.builder("deploy").description("Deploys to an environment.")
          .body((args, exec) -> {
            DEPLOYS.incrementAndGet();
            return CompletableFuture.completedFuture(Json.parse("{\"deployed\":" + Json.write(args.path("env")) + "}"));
          }).build());
    }
    var unusedGate = horae.gates().register((call, state) -> CompletableFuture.completedFuture(
        call.toolId().equals("deploy") ? GateOutcome.requireConfirmation("confirm-" + call.callId()) : GateOutcome.allow()));
  }
}

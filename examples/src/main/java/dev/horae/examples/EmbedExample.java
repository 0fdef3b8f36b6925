package dev.horae.examples;

import dev.horae.jobs.JobsController;
import dev.horae.jobs.registry.LocalJobService;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.model.ModelPort;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.nio.file.Path;

/**
 * The README's embedding example, compiled by the build: build the production runtime, install
 * the plugins once, before agents are opened, then talk to an agent.
 */
public final class EmbedExample {

  private EmbedExample() {}

  /**
   * Embeds Horae in the production runtime and submits one prompt.
   *
   * @param model the model that answers the agent's steps
   */
  public static void embed(ModelPort model) {
    // snippet:embed
    try (HoraeRuntime horae = HoraeRuntime.builder().dataDir(Path.of("horae-data")).model(model).build()) {
      horae.install(TimeContextPlugin.create());                // a zoned time reading before each step
      horae.install(SchedulePlugin.create());                   // schedule_create / _list / _delete
      LocalJobService jobs = LocalJobService.create(horae);     // a host-bound service, not a plugin
      horae.provide(JobService.class, jobs);                    // the job registry seam
      horae.closeOnShutdown(() -> jobs.closeAsync().toCompletableFuture().join());
      horae.install(JobsController.create());                   // job_output / _list / _kill

      RuntimeAgent agent = horae.openAgent("my-session", "Europe/Amsterdam");
      horae.prompt(agent, "Remind me in 10 minutes to check the deploy.", "Europe/Amsterdam");
    }
    // end-snippet
  }
}

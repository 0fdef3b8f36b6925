package dev.horae.examples;

import dev.horae.examples.host.LiveHost;
import dev.horae.jobs.JobServiceConfig;
import dev.horae.jobs.JobsController;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.jobs.LocalJobService;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.jobs.JobService;
import dev.horae.testkit.agent.Model;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.nio.file.Path;

/**
 * The README's embedding example, compiled by the build: install the plugins on a host once,
 * before agents are created, then talk to an agent.
 */
public final class EmbedExample {

  private EmbedExample() {}

  /**
   * Embeds Horae in the live host and submits one prompt.
   *
   * @param model the model that answers the agent's steps
   */
  public static void embed(Model model) {
    // snippet:embed
    try (LiveHost host = LiveHost.open(Path.of("horae-data"))) {
      TimeContextPlugin.withDefaults().install(host);         // a zoned time reading before each step
      new SchedulePlugin().install(host);                     // schedule_create / _list / _delete
      LocalJobService jobs = LocalJobService.create(JobServiceConfig.defaults(), host);
      host.provide(JobService.class, jobs);                   // the job registry seam
      JobsController.plugin(JobsControllerConfig.defaults()).install(host);

      TestAgent agent = host.openAgent("my-session", "Europe/Amsterdam", model);
      host.prompt(agent, "Remind me in 10 minutes to check the deploy.", "Europe/Amsterdam");
    }
    // end-snippet
  }
}

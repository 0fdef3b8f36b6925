package dev.horae.examples.docs;

import dev.horae.jobs.JobsController;
import dev.horae.jobs.registry.LocalJobService;
import dev.horae.jobs.shell.BackgroundShellTool;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.session.Json;
import dev.horae.testkit.agent.ScriptedModel;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The walk-through of {@code docs/jobs.md} on the production runtime: an agent starts a real
 * {@code bash} job, goes idle, is woken by the completion notice, reads the output, lists its jobs
 * and tries to kill the finished one. The testkit's scripted model stands in for a real one.
 */
public final class JobsTour {

  private JobsTour() {}

  /**
   * Runs the tour; the shell job is a real process, on the system clock.
   *
   * @return the model-visible transcript, in log order
   * @throws InterruptedException when interrupted while the job runs
   * @throws ExecutionException when a turn's idle wait fails
   * @throws TimeoutException when a turn does not end within its bound
   */
  public static List<String> run() throws InterruptedException, ExecutionException, TimeoutException {
    // snippet:jobs-tour
    try (HoraeRuntime horae = HoraeRuntime.builder().build()) {
      LocalJobService jobs = LocalJobService.create(horae);
      horae.provide(JobService.class, jobs);                       // the job registry seam
      horae.closeOnShutdown(jobs);
      horae.install(JobsController.create());
      horae.install(BackgroundShellTool.create());                 // bash_background

      RuntimeAgent agent = horae.openAgent("jobs-tour");
      agent.useModel(new ScriptedModel()
          .thenCall("bash_background", Json.parse("{\"command\":\"sleep 1; echo 'build ok'\",\"description\":\"build\"}"))
          .thenText("The build runs in the background.")
          .thenCall("job_output", Json.parse("{\"job_id\":\"bash-1\"}"))     // the turn the notice opened
          .thenCall("job_list", Json.parse("{}"))
          .thenCall("job_kill", Json.parse("{\"job_id\":\"bash-1\"}"))
          .thenCall("job_output", Json.parse("{\"job_id\":\"bash-7\"}"))
          .thenCall("job_output", Json.parse("{}"))
          .thenText("The build passed."));
      horae.prompt(agent, "Run the build in the background.");
      agent.whenIdle().toCompletableFuture().get(30, TimeUnit.SECONDS);   // turn 1 ends well before the job does
      TurnEnds.await(horae, agent, 2);                                     // the notice wakes the idle agent: turn 2
      return Transcript.of(agent.session());   // the texts the model saw, in log order
    }
    // end-snippet
  }
}

package dev.horae.examples.docs;

import dev.horae.jobs.JobServiceConfig;
import dev.horae.jobs.JobsController;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.jobs.LocalJobService;
import dev.horae.jobs.shell.BackgroundShellTool;
import dev.horae.jobs.shell.ShellJobConfig;
import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.session.Json;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.agent.TestAgent;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The walk-through of {@code docs/jobs.md}: an agent starts a real {@code bash} job, goes idle, is
 * woken by the completion notice, reads the output, lists its jobs and tries to kill the finished
 * one.
 */
public final class JobsTour {

  private JobsTour() {}

  /**
   * Runs the tour; the shell job is a real process.
   *
   * @return the model-visible transcript, in log order
   * @throws InterruptedException when interrupted while the job runs
   */
  public static List<String> run() throws InterruptedException {
    // snippet:jobs-tour
    TestHost host = TestHost.builder().build();
    LocalJobService jobs = LocalJobService.create(JobServiceConfig.defaults(), host);
    host.provide(JobService.class, jobs);                       // the job registry seam
    host.install(JobsController.plugin(JobsControllerConfig.defaults()));
    host.tools().register(BackgroundShellTool.definition(host, ShellJobConfig.defaults()));
    CountDownLatch done = new CountDownLatch(1);
    jobs.onJobDone(Optional.empty(), JobDoneListener.sync((job, owner) -> done.countDown()));

    TestAgent agent = host.createAgent();
    agent.useModel(new ScriptedModel()
        .thenCall("bash_background", Json.parse("{\"command\":\"sleep 1; echo 'build ok'\",\"description\":\"build\"}"))
        .thenText("The build runs in the background.")
        .thenCall("job_output", Json.parse("{\"job_id\":\"bash-1\"}"))     // the turn the notice opened
        .thenCall("job_list", Json.parse("{}"))
        .thenCall("job_kill", Json.parse("{\"job_id\":\"bash-1\"}"))
        .thenCall("job_output", Json.parse("{\"job_id\":\"bash-7\"}"))
        .thenCall("job_output", Json.parse("{}"))
        .thenText("The build passed."));
    host.prompt(agent, "Run the build in the background.");
    host.settle();                                               // turn 1 ends well before the job does
    if (!done.await(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the job did not finish");
    }
    awaitWake(host);                                             // the notice wakes the idle agent
    host.settle();
    // end-snippet
    jobs.close();
    return Transcript.of(agent.session());
  }

  /**
   * The controller delivers on the settling thread, possibly just after our own listener ran; the
   * wake is complete once the follow-up queued the agent's driver.
   */
  private static void awaitWake(TestHost host) throws InterruptedException {
    if (!host.drivers().awaitTask(java.time.Duration.ofSeconds(10))) {
      throw new IllegalStateException("the job's notice did not wake the agent");
    }
  }

  /**
   * Prints the tour's transcript.
   *
   * @param args ignored
   * @throws InterruptedException when interrupted
   */
  public static void main(String[] args) throws InterruptedException {
    run().forEach(System.out::println);
  }
}

package dev.horae.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.jobs.fakes.ManualExecutor;
import dev.horae.jobs.fakes.TestJob;
import dev.horae.jobs.registry.LocalJobService;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.session.Json;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A model that names another session's job, or sends ids and arguments far larger or deeper than
 * any real one. The fence answers every tool before it touches the job (no output consumed, no
 * wait, no kill), and error texts stay bounded whatever the id's size.
 */
class HostileJobsTest {

  final TestHost host = TestHost.builder().start(Instant.ofEpochMilli(1_755_650_000_000L)).build();
  final LocalJobService jobs = LocalJobService.builder(host.wallClock(), host.timers())
      .agents(host.agents())
      .warnings(host.warnings())
      .settlementExecutor(new ManualExecutor())
      .build();
  final AtomicInteger calls = new AtomicInteger();

  {
    host.provide(JobService.class, jobs);
    host.install(JobsController.create(JobsControllerConfig.defaults()));
  }

  CompletableFuture<ToolResult> callAsync(Agent agent, String tool, JsonNode args) {
    return host.tools()
        .call(new ToolInvocation(agent, new ToolCall("call-" + calls.incrementAndGet(), tool, args)), AbortSignal.never())
        .toCompletableFuture();
  }

  ToolResult call(Agent agent, String tool, String args) {
    CompletableFuture<ToolResult> f = callAsync(agent, tool, Json.parse(args));
    assertThat(f).as("%s answers at once", tool).isDone();
    return f.join();
  }

  @Test
  void anotherSessionsJobIdIsFencedByEveryToolAndTouchesNothing() {
    TestAgent owner = host.createAgent();
    TestAgent intruder = host.createAgent();
    TestJob job = new TestJob();
    JobId id = jobs.start(JobStart.builder("bash", "secret work", job::stream).owner(owner).build());
    job.write("secret output\n");
    String fenced = "Error: job " + id.value() + " belongs to another session";
    assertThat(call(intruder, "job_output", "{\"job_id\":\"bash-1\"}").text()).isEqualTo(fenced);
    // a wait is refused before it starts, so it cannot hold the intruder's turn either
    assertThat(call(intruder, "job_output", "{\"job_id\":\"bash-1\",\"wait\":true,\"timeout_ms\":600000}").text())
        .isEqualTo(fenced);
    assertThat(call(intruder, "job_kill", "{\"job_id\":\"bash-1\",\"reason\":\"mine now\"}").text())
        .isEqualTo(fenced);
    assertThat(call(intruder, "job_list", "{}").text()).isEqualTo(JobTexts.NO_JOBS);
    assertThat(job.cancels()).isEmpty();
    assertThat(jobs.get(id, Optional.of(owner)).status()).isEqualTo(JobStatus.RUNNING);
    // the owner still gets everything the job wrote
    assertThat(call(owner, "job_output", "{\"job_id\":\"bash-1\"}").text())
        .isEqualTo("secret output\n[status: running]");
  }

  @Test
  void hugeJobIdsGetBoundedErrors() {
    TestAgent agent = host.createAgent();
    String cut = "x".repeat(64) + "\u2026";
    for (String huge : List.of("x".repeat(1_000_000), "x".repeat(1_000_000) + "-1")) {
      ObjectNode args = Json.mapper().createObjectNode();
      args.put("job_id", huge);
      assertThat(callAsync(agent, "job_output", args).join().text()).isEqualTo("Error: unknown job " + cut);
      assertThat(callAsync(agent, "job_kill", args).join().text()).isEqualTo("Error: unknown job " + cut);
    }
    // the cut never splits a surrogate pair
    ObjectNode pair = Json.mapper().createObjectNode();
    pair.put("job_id", "a".repeat(63) + "\ud83d\udd70".repeat(10));
    assertThat(callAsync(agent, "job_output", pair).join().text())
        .isEqualTo("Error: unknown job " + "a".repeat(63) + "\u2026");
    ObjectNode exact = Json.mapper().createObjectNode();
    exact.put("job_id", "y".repeat(64));
    assertThat(callAsync(agent, "job_output", exact).join().text()).isEqualTo("Error: unknown job " + "y".repeat(64));
  }

  @Test
  void deeplyNestedArgumentsFailTheSchemaCheck() {
    TestAgent agent = host.createAgent();
    ObjectNode args = Json.mapper().createObjectNode();
    ObjectNode at = args.putObject("job_id");
    for (int i = 0; i < 100_000; i++) {
      at = at.putObject("a");
    }
    ToolResult r = callAsync(agent, "job_output", args).join();
    assertThat(r.isError()).isTrue();
    assertThat(r.text()).isEqualTo("Error: invalid arguments: /job_id: expected string, got object");
  }
}

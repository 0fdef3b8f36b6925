package dev.horae.jobs.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.jobs.JobsController;
import dev.horae.jobs.registry.LocalJobService;
import dev.horae.jobs.fakes.ManualExecutor;
import dev.horae.spi.AbortController;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs({OS.LINUX, OS.MAC})
class BackgroundShellToolTest {

  final TestHost host = TestHost.builder().build();
  final ShellJobConfig config = ShellJobConfig.builder().destroyOnJvmExit(false).build();

  {
    host.tools().register(BackgroundShellTool.definition(host, config));
  }

  ToolResult call(TestAgent agent, String args, AbortSignal signal) {
    return host.tools()
        .call(new ToolInvocation(agent, new ToolCall("c1", "bash_background", Json.parse(args))), signal)
        .toCompletableFuture()
        .join();
  }

  @Test
  void withoutAJobServiceTheToolReportsItIsUnavailable() {
    TestAgent agent = host.createAgent();
    assertThat(call(agent, "{\"command\":\"echo hi\"}", AbortSignal.never()).text())
        .isEqualTo(
            "Error: background jobs unavailable: load the jobs service and the tool-jobs controller");
  }

  @Test
  void startsAnOwnedJobWhoseCompletionNotifiesTheCaller() {
    ManualExecutor settlements = new ManualExecutor();
    LocalJobService jobs =
        LocalJobService.builder(host.wallClock(), host.timers())
            .agents(host.agents())
            .settlementExecutor(settlements)
            .build();
    host.provide(JobService.class, jobs);
    TestAgent agent = host.createAgent();
    assertThat(call(agent, "{\"command\":\"echo bg-ok\"}", AbortSignal.never()).text())
        .isEqualTo("Error: background jobs unavailable: no job controller serves this agent (load"
            + " the tool-jobs controller in its composition)");
    host.install(JobsController.create());
    assertThat(call(agent, "{\"command\":\"\"}", AbortSignal.never()).text())
        .isEqualTo("Error: invalid command: expected a non-empty string, got \"\"");
    ToolResult started = call(agent, "{\"command\":\"echo bg-ok\"}", AbortSignal.never());
    assertThat(started.text()).isEqualTo("started background job bash-1");
    assertThat(started.value().orElseThrow().toString())
        .isEqualTo("{\"kind\":\"background\",\"jobId\":\"bash-1\"}");
    Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> settlements.pending() > 0);
    settlements.runAll();
    assertThat(agent.followups())
        .extracting(UserMessage::text)
        .containsExactly(
            "background job bash-1 (bash: echo bg-ok) finished [status: completed, exit code: 0]."
                + " Read its output with job_output.");
    AbortController aborted = new AbortController();
    aborted.abort();
    assertThat(call(agent, "{\"command\":\"echo late\"}", aborted).isError()).isTrue();
    assertThat(jobs.list(java.util.Optional.of(agent))).hasSize(1);
    assertThat(
            host.tools()
                .find(agent, "bash_background")
                .orElseThrow()
                .presentCall()
                .apply(Json.parse("{\"command\":\"" + "x".repeat(100) + "\"}"))
                .orElseThrow()
                .title())
        .isEqualTo("Run in background: " + "x".repeat(80));
  }
}

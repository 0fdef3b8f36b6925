package dev.horae.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.jobs.fakes.PolicyHost;
import dev.horae.jobs.fakes.TestJob;
import dev.horae.jobs.registry.LocalJobService;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Jobs spec §5.1 on a host with policy hooks: the cap is captured by a prepended hook, so it runs
 * before every policy hook — even one registered before the controller loaded — and every
 * one-text result a policy ends the call with (denial, block, replacement) is bounded.
 */
// a separate thread, so a join that never completes fails the test instead of hanging the run
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OutputCapPolicyTest {

  private static final long CAP = 64;
  private static final String LONG = "p".repeat(200);
  /** What single-text bounding makes of {@code "... " + LONG} under a 64-byte cap (§5.3). */
  private static final String BOUNDED = "p".repeat(45) + "\n[result truncated]";

  private final TestHost host = TestHost.builder().start(Instant.ofEpochMilli(1_755_650_000_000L)).build();
  private final PolicyHost policyHost = new PolicyHost(host);
  private final LocalJobService jobs =
      LocalJobService.builder(host.wallClock(), host.timers()).agents(host.agents()).build();
  private final AtomicInteger calls = new AtomicInteger();
  /** What the policy registered before the controller ends the next call with; empty lets it go. */
  private final AtomicReference<Optional<ToolResult>> decision = new AtomicReference<>(Optional.empty());

  OutputCapPolicyTest() {
    host.provide(JobService.class, jobs);
    // registered before the controller loads: in registration order it would run first
    policyHost.policy(call -> decision.get());
    JobsController.create().install(policyHost.host());
  }

  private ToolResult call(Agent agent, String tool, String args) {
    return policyHost.tools()
        .call(new ToolInvocation(agent, new ToolCall("call-" + calls.incrementAndGet(), tool, Json.parse(args))), AbortSignal.never())
        .toCompletableFuture()
        .join();
  }

  private void startCapped(TestAgent owner) {
    jobs.start(JobStart.builder("bash", "chatty", new TestJob()::stream).owner(owner).outputLimitBytes(CAP).build());
  }

  @Test
  void aDenialFromAPolicyRegisteredBeforeTheControllerIsBounded() {
    TestAgent agent = host.createAgent();
    startCapped(agent);
    decision.set(Optional.of(ToolResult.error("Error: denied by policy: " + LONG, Optional.of("DENIED"))));

    ToolResult denied = call(agent, "job_output", "{\"job_id\":\"bash-1\"}");
    assertThat(denied.isError()).isTrue();
    assertThat(denied.code()).contains("DENIED");
    assertThat(denied.text()).isEqualTo(BOUNDED);
    assertThat(denied.text().getBytes(StandardCharsets.UTF_8)).hasSize((int) CAP);
  }

  @Test
  void denialsBlocksAndReplacementsAreBoundedOnEveryCappedTool() {
    TestAgent agent = host.createAgent();
    startCapped(agent);
    String job = "{\"id\":\"bash-1\",\"kind\":\"bash\",\"label\":\"chatty\",\"status\":\"running\"}";
    List<ContentBlock> replaced = List.of(new ContentBlock("replaced by policy: " + LONG));
    Map<String, ToolResult> outcomes =
        Map.of(
            "denial", ToolResult.error("Error: denied: " + LONG, Optional.of("DENIED")),
            "block", ToolResult.error("Error: blocked: " + LONG, Optional.of("BLOCKED")),
            // replacements keep a value of the tool's own shape but not its default rendering
            "read replacement",
                ToolResult.success(Json.parse("{\"text\":\"\",\"job\":" + job + "}"), replaced),
            "kill replacement",
                ToolResult.success(
                    Json.parse("{\"outcome\":\"cancellation-requested\",\"job\":" + job + "}"), replaced),
            "replacement of another shape",
                ToolResult.success(Json.parse("{\"replaced\":true}"), replaced));
    for (String tool : List.of("job_output", "job_kill")) {
      for (Map.Entry<String, ToolResult> outcome : outcomes.entrySet()) {
        decision.set(Optional.of(outcome.getValue()));
        ToolResult result = call(agent, tool, "{\"job_id\":\"bash-1\"}");
        assertThat(result.text()).as(tool + " " + outcome.getKey()).isEqualTo(BOUNDED);
        assertThat(result.isError()).as(tool + " " + outcome.getKey()).isEqualTo(outcome.getValue().isError());
      }
    }
  }

  @Test
  void structuredPolicyOutputAndUncappedJobsKeepTheirContent() {
    TestAgent agent = host.createAgent();
    startCapped(agent);
    jobs.start(JobStart.builder("bash", "quiet", new TestJob()::stream).owner(agent).build());
    List<ContentBlock> blocks = List.of(new ContentBlock(LONG), new ContentBlock(LONG));
    decision.set(Optional.of(new ToolResult(true, blocks, Optional.empty(), Optional.empty())));
    assertThat(call(agent, "job_output", "{\"job_id\":\"bash-1\"}").content()).isEqualTo(blocks);

    decision.set(Optional.of(ToolResult.error("Error: denied: " + LONG, Optional.of("DENIED"))));
    assertThat(call(agent, "job_kill", "{\"job_id\":\"bash-2\"}").text()).isEqualTo("Error: denied: " + LONG);
    // with the policy gone, the tool itself answers, and its one-text result is bounded too
    decision.set(Optional.empty());
    ToolResult own = call(agent, "job_output", "{\"job_id\":\"bash-1\",\"wait\":true,\"timeout_ms\":-1}");
    assertThat(own.isError()).isTrue();
    assertThat(own.text().getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo((int) CAP);
  }
}

package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.AwaitReason;
import dev.horae.gate.EndCause;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.spi.model.ModelResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduledActionTest {

  @Test
  void scheduleCommitsTicketThenPerformRunsTheCallOnceAndEndsNaturally() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));

    RunState parked = f.execute("run-1");

    assertThat(parked).isEqualTo(RunState.awaiting());
    assertThat(f.toolRuns).hasValue(0);
    ResumeTicket ticket = f.store.view().resumeTicket("run-1").orElseThrow();
    assertThat(ticket.reason()).isEqualTo(AwaitReason.SCHEDULED_ACTION);
    assertThat(ticket.correlationId()).isEqualTo("sched-1");
    assertThat(ticket.threadId()).isEqualTo(f.thread());
    assertThat(ticket.callId()).contains("call-1");
    assertThat(ticket.pendingTool().orElseThrow().toolId()).isEqualTo("echo");
    assertThat(f.liveEvents).anySatisfy(e -> assertThat(e.path("reason").asText()).isEqualTo("scheduled_action"));

    ResumeOutcome performed = f.perform("run-1");

    assertThat(performed).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
    assertThat(f.toolRuns).hasValue(1);
    assertThat(f.operationIds).containsExactly("tool-batch:run-1:1:call-1");
    assertThat(f.store.view().resumeTicket("run-1")).isEmpty();
    // §9.3: running → running (batch) → awaiting → running (pre-commit) → running (published) → ended
    assertThat(f.runFacts("run-1")).containsExactly(
        "running", "running", "awaiting", "running", "running", "ended(naturalEnd)");

    ResumeOutcome again = f.perform("run-1");
    assertThat(again).isEqualTo(new ResumeOutcome.Rejected("notAwaiting", "run is not awaiting",
        GateRuntimeException.Category.EXECUTION));
    assertThat(((ResumeOutcome.Rejected) again).display()).isEqualTo("runtime execution failed: run is not awaiting");
    assertThat(f.toolRuns).hasValue(1);
  }

  @Test
  void awaitingCommitCarriesBatchTicketAndScheduleAuditInAssemblyOrder() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    f.execute("run-1");

    JsonNode commit = f.session.events().stream().filter(e -> e.type().equals("gate/commit"))
        .map(e -> e.data().path("commit")).filter(c -> c.path("run").path("type").asText().equals("awaiting"))
        .findFirst().orElseThrow();
    List<String> types = new java.util.ArrayList<>();
    commit.path("events").forEach(e -> types.add(e.path("type").asText()));
    assertThat(types)
        .containsExactly("runStateChanged", "stateChanged", "runAwaiting", "permissionDecided");
    assertThat(commit.path("events").get(3).path("decision").asText()).isEqualTo("schedule");
    JsonNode batch = commit.path("state").get(0);
    assertThat(batch.path("key").asText()).isEqualTo(ToolBatch.STATE_KEY);
    assertThat(batch.path("value").path("id").asText()).isEqualTo("tool-batch:run-1:1");
    assertThat(batch.path("value").path("calls").get(0).path("phase").path("wait").path("kind").asText())
        .isEqualTo("scheduledAction");
    assertThat(commit.path("run").path("ticket").path("target").path("reason").asText()).isEqualTo("scheduledAction");
  }

  @Test
  void preCommitIsAuditedApproved() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    f.execute("run-1");
    f.perform("run-1");

    List<String> decisions = f.session.events().stream().filter(e -> e.type().equals("gate/commit"))
        .flatMap(e -> e.data().path("commit").path("events").findValuesAsText("decision").stream()).toList();
    assertThat(decisions).containsExactly("schedule", "approved");
  }

  @Test
  void aFailingRunDoesNotBlockTheOthersInADispatcherPass() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    f.execute("run-a");
    f.execute("run-b");
    AgentRuntime failing = AgentRuntime.builder(Fixture::script, (call, ctx) -> {
      throw new IllegalStateException("executor down");
    }).build();
    failing.registerSnapshot(f.runtime.snapshot(Fixture.SNAPSHOT).orElseThrow());
    // the executor failure is a tool error result, not a Run failure: both Runs still end
    DispatchReport report = ScheduledActionDispatcher.create(failing, f.ctx(), f.host.clock())
        .drain().toCompletableFuture().join();
    assertThat(report.performed()).containsOnlyKeys("run-a", "run-b");

    f.execute("run-c");
    AgentRuntime noInference = AgentRuntime.builder(r -> {
      throw new IllegalStateException("model port down");
    }, f::echo).gates(f.gates).build();
    noInference.registerSnapshot(f.runtime.snapshot(Fixture.SNAPSHOT).orElseThrow());
    DispatchReport second = ScheduledActionDispatcher.create(noInference, f.ctx(), f.host.clock())
        .drain().toCompletableFuture().join();
    assertThat(second.performed().get("run-c")).isEqualTo(new ResumeOutcome.Advanced(
        RunState.ended(EndCause.error(dev.horae.gate.Failure.of("inference_error", "model port down")))));
    assertThat(second.failed()).isEmpty();

    // a gate that throws while the performed Run continues is an unexpected failure of that Run
    Fixture g = new Fixture();
    java.util.concurrent.atomic.AtomicInteger seen = new java.util.concurrent.atomic.AtomicInteger();
    g.gate((call, state) -> {
      if (seen.incrementAndGet() > 1) {
        throw new IllegalStateException("gate down");
      }
      return java.util.concurrent.CompletableFuture.completedFuture(dev.horae.spi.gate.GateOutcome.schedule("s"));
    });
    AgentRuntime twoCalls = AgentRuntime.builder(r -> java.util.concurrent.CompletableFuture.completedFuture(
            r.step() <= 2
                ? ModelResponse.calls(new dev.horae.spi.gate.ToolCall("call-" + r.step(), "echo",
                    dev.horae.spi.session.Json.mapper().createObjectNode()))
                : ModelResponse.text("done")), g::echo)
        .gates(g.gates).build();
    twoCalls.registerSnapshot(g.runtime.snapshot(Fixture.SNAPSHOT).orElseThrow());
    twoCalls.execute(new RunActivation("run-g", g.thread(), Fixture.SNAPSHOT, "go"), g.ctx()).toCompletableFuture().join();
    DispatchReport third = ScheduledActionDispatcher.create(twoCalls, g.ctx(), g.host.clock())
        .drain().toCompletableFuture().join();
    assertThat(third.performed()).isEmpty();
    assertThat(third.failed()).containsOnlyKeys("run-g");
    assertThat(third.failed().get("run-g")).isInstanceOf(GateRuntimeException.Execution.class);
    assertThat(g.toolRuns).hasValue(1);
  }

  @Test
  void dispatcherPerformsChainedScheduledActionsInOnePass() {
    Fixture f = new Fixture();
    // every call is scheduled, and the model calls echo at steps 1 and 2 with distinct call ids
    java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
    f.gate((call, state) -> java.util.concurrent.CompletableFuture.completedFuture(
        dev.horae.spi.gate.GateOutcome.schedule("sched-" + n.incrementAndGet())));
    AgentRuntime twoStep = AgentRuntime.builder(r -> java.util.concurrent.CompletableFuture.completedFuture(
            r.step() <= 2
                ? ModelResponse.calls(new dev.horae.spi.gate.ToolCall("call-" + r.step(), "echo",
                    dev.horae.spi.session.Json.mapper().createObjectNode()))
                : ModelResponse.text("done")), f::echo)
        .gates(f.gates).build();
    twoStep.registerSnapshot(f.runtime.snapshot(Fixture.SNAPSHOT).orElseThrow());
    twoStep.execute(new RunActivation("run-c", f.thread(), Fixture.SNAPSHOT, "go"), f.ctx()).toCompletableFuture().join();

    var outcomes = ScheduledActionDispatcher.create(twoStep, f.ctx(), f.host.clock())
        .drain().toCompletableFuture().join().performed();

    assertThat(outcomes).containsEntry("run-c", new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
    assertThat(f.toolRuns).hasValue(2);
    assertThat(f.operationIds).containsExactly("tool-batch:run-c:1:call-1", "tool-batch:run-c:2:call-2");
  }
}

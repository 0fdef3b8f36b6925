package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.EndCause;
import dev.horae.gate.RunState;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Recovery of a Run whose driver was lost mid-call (gate specification §7.5). */
class RecoveryTest {

  private final AtomicInteger runs = new AtomicInteger();
  private final List<String> attempts = new ArrayList<>();

  private AgentRuntime runtime(ToolRecoveryPolicy policy, boolean hang) {
    AgentRuntime r = AgentRuntime.builder(Fixture::script, new ToolExecutor() {
      @Override
      public java.util.concurrent.CompletionStage<ToolOutput> execute(
          dev.horae.spi.gate.ToolCall call, ToolContext ctx) {
        runs.incrementAndGet();
        attempts.add(ctx.operationId() + "#" + ctx.attempt());
        // a hanging body stands for a process that died while the tool ran
        return hang ? new CompletableFuture<>()
            : CompletableFuture.completedFuture(ToolOutput.success(call.callId(), Json.parse("\"ok\"")));
      }

      @Override
      public boolean canHonour(String toolId, ToolRecoveryPolicy p) {
        return true;
      }
    }).build();
    r.registerSnapshot(AgentSnapshot.of("snap", Set.of(), List.of(new ToolDescriptor("echo", policy, false)), 8));
    return r;
  }

  private static List<String> toolMessages(CommitStore store, String thread) {
    List<String> out = new ArrayList<>();
    for (JsonNode m : store.view().committedMessages(thread)) {
      if (m.path("role").asText().equals("tool")) {
        out.add(m.path("content").asText());
      }
    }
    return out;
  }

  @Test
  void neverReplayEndsTheInterruptedCallIndeterminateAndTheRunContinues() {
    LogHost host = LogHost.create();
    Session s = host.sessions().create(CreateOptions.DEFAULT);
    SessionCommitStore store = SessionCommitStore.over(host.sessions()::get, host.sessions()::flush);
    CompletableFuture<RunState> lost = runtime(ToolRecoveryPolicy.neverReplay(), true)
        .execute(new RunActivation("run-1", s.id(), "snap", "go"), RunContext.of(store)).toCompletableFuture();
    assertThat(lost).isNotDone();
    assertThat(runs).hasValue(1);

    LogHost restarted = host.restart();
    SessionCommitStore fresh = SessionCommitStore.over(restarted.sessions()::get, restarted.sessions()::flush);
    fresh.track(restarted.sessions().get(s.id()).orElseThrow());
    RunState s2 = runtime(ToolRecoveryPolicy.neverReplay(), false).recover("run-1", RunContext.of(fresh))
        .toCompletableFuture().join();

    assertThat(s2).isEqualTo(RunState.ended(EndCause.naturalEnd()));
    assertThat(runs).hasValue(1);
    assertThat(toolMessages(fresh, s.id())).containsExactly(
        "tool outcome unknown: execution was interrupted and the recovery policy forbids replay");
  }

  @Test
  void replaySafeRunsAgainWithTheNextAttemptAndTheSameOperationId() {
    Fixture f = new Fixture();
    CompletableFuture<RunState> lost = runtime(new ToolRecoveryPolicy.ReplaySafe(3), true)
        .execute(new RunActivation("run-1", f.thread(), "snap", "go"), f.ctx()).toCompletableFuture();
    assertThat(lost).isNotDone();

    RunState done = runtime(new ToolRecoveryPolicy.ReplaySafe(3), false).recover("run-1", f.ctx())
        .toCompletableFuture().join();

    assertThat(done).isEqualTo(RunState.ended(EndCause.naturalEnd()));
    assertThat(attempts).containsExactly("tool-batch:run-1:1:call-1#1", "tool-batch:run-1:1:call-1#2");
    assertThat(toolMessages(f.store, f.thread())).containsExactly("ok");
  }

  @Test
  void exhaustedAttemptsEndIndeterminate() {
    Fixture f = new Fixture();
    runtime(new ToolRecoveryPolicy.ReplaySafe(1), true)
        .execute(new RunActivation("run-1", f.thread(), "snap", "go"), f.ctx());
    RunState done = runtime(new ToolRecoveryPolicy.ReplaySafe(1), false).recover("run-1", f.ctx())
        .toCompletableFuture().join();
    assertThat(done).isEqualTo(RunState.ended(EndCause.naturalEnd()));
    assertThat(runs).hasValue(1);
    assertThat(toolMessages(f.store, f.thread())).containsExactly("tool outcome unknown: recovery attempts exhausted");
  }

  @Test
  void anAwaitingRunIsNotRecoveredButWaitsForItsWake() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    f.execute("run-1");
    assertThat(f.runtime.recover("run-1", f.ctx()).toCompletableFuture().join()).isEqualTo(RunState.awaiting());
    assertThat(f.toolRuns).hasValue(0);
  }
}

package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.gate.EndCause;
import dev.horae.gate.RunState;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Parallel waves of concurrent tool calls (gate specification §8.2). */
class WaveTest {

  private final List<String> started = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, CompletableFuture<ToolOutput>> pending = new ConcurrentHashMap<>();

  private AgentRuntime runtime(Fixture f) {
    AgentRuntime r = AgentRuntime.builder(req -> CompletableFuture.completedFuture(req.step() == 1
            ? ModelResponse.calls(new ToolCall("call-a", "a", Json.parse("{}")), new ToolCall("call-b", "b", Json.parse("{}")))
            : ModelResponse.text("done")),
        (call, ctx) -> {
          started.add(call.callId());
          CompletableFuture<ToolOutput> out = new CompletableFuture<>();
          pending.put(call.callId(), out);
          return out;
        }).gates(f.gates).build();
    r.registerSnapshot(AgentSnapshot.of("wave", Set.of(),
        List.of(ToolDescriptor.of("a").concurrently(), ToolDescriptor.of("b").concurrently()), 4));
    return r;
  }

  private void finish(String callId) {
    java.util.Objects.requireNonNull(pending.get(callId)).complete(ToolOutput.success(callId, Json.parse("\"ok\"")));
  }

  @Test
  void allowedCallsOfAWaveRunTogether() {
    Fixture f = new Fixture();
    CompletableFuture<RunState> run = runtime(f)
        .execute(new RunActivation("run-w", f.thread(), "wave", "go"), f.ctx()).toCompletableFuture();
    // both executors were entered before either finished
    assertThat(started).containsExactly("call-a", "call-b");
    assertThat(run).isNotDone();
    finish("call-b");
    finish("call-a");
    assertThat(run.join()).isEqualTo(RunState.ended(EndCause.naturalEnd()));
  }

  @Test
  void aWaitInTheWaveParksBeforeAnyExecutorStarts() {
    Fixture f = new Fixture();
    f.gate((call, state) -> CompletableFuture.completedFuture(
        call.callId().equals("call-b") ? GateOutcome.schedule("sched-b") : GateOutcome.allow()));
    AgentRuntime r = runtime(f);
    RunState parked = r.execute(new RunActivation("run-w", f.thread(), "wave", "go"), f.ctx()).toCompletableFuture().join();
    assertThat(parked).isEqualTo(RunState.awaiting());
    assertThat(started).isEmpty();
    assertThat(f.store.view().resumeTicket("run-w").orElseThrow().callId()).contains("call-b");

    CompletableFuture<ResumeOutcome> performed = r.performScheduledAction("run-w", f.ctx(), 0).toCompletableFuture();
    assertThat(started).containsExactly("call-b");
    finish("call-b");
    // call-a stayed requested and is re-gated (allowed) after the resume
    assertThat(started).containsExactly("call-b", "call-a");
    finish("call-a");
    assertThat(performed.join()).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
  }
}

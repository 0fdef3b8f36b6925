package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.EndCause;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Context messages on resume (§6.4 step 3) and terminal observers (§5.6 step 5). */
class ResumeContextTest {

  private static ResumeCommand withContext(ResumeTicket t, List<JsonNode> messages) {
    return new ResumeCommand(t.correlationId(), t.runId(), t.threadId(), t.snapshotId(),
        t.catalogFingerprint(), ResumeResult.allow(), 0, Optional.empty(), messages);
  }

  @Test
  void contextLandsWithTheFirstCommitAReplayIsDroppedAndAConflictRejected() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched"));
    // the model calls echo at steps 1 and 2, so the Run parks twice
    AgentRuntime twoStep = AgentRuntime.builder(r -> java.util.concurrent.CompletableFuture.completedFuture(
            r.step() <= 2
                ? ModelResponse.calls(new dev.horae.spi.gate.ToolCall("call-" + r.step(), "echo", Json.parse("{}")))
                : ModelResponse.text("done")), f::echo)
        .gates(f.gates).build();
    twoStep.registerSnapshot(f.runtime.snapshot(Fixture.SNAPSHOT).orElseThrow());
    twoStep.execute(new RunActivation("run-1", f.thread(), Fixture.SNAPSHOT, "go"), f.ctx()).toCompletableFuture().join();
    JsonNode note = Json.parse("{\"id\":\"m-1\",\"role\":\"user\",\"content\":\"context\"}");

    ResumeTicket first = f.store.view().resumeTicket("run-1").orElseThrow();
    assertThat(twoStep.resume(withContext(first, List.of(note)), f.ctx()).toCompletableFuture().join())
        .isEqualTo(new ResumeOutcome.Advanced(RunState.awaiting()));
    assertThat(f.store.view().committedMessages(f.thread())).filteredOn(m -> m.path("id").asText().equals("m-1")).hasSize(1);

    ResumeTicket second = f.store.view().resumeTicket("run-1").orElseThrow();
    JsonNode changed = Json.parse("{\"id\":\"m-1\",\"role\":\"user\",\"content\":\"other\"}");
    ResumeOutcome conflict = twoStep.resume(withContext(second, List.of(changed)), f.ctx()).toCompletableFuture().join();
    assertThat(conflict).isEqualTo(new ResumeOutcome.Rejected("contextConflict",
        "resume context message m-1 conflicts with a committed message", dev.horae.gate.runtime.GateRuntimeException.Category.EXECUTION));
    assertThat(f.toolRuns).hasValue(1);

    assertThat(twoStep.resume(withContext(second, List.of(note)), f.ctx()).toCompletableFuture().join())
        .isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
    assertThat(f.store.view().committedMessages(f.thread())).filteredOn(m -> m.path("id").asText().equals("m-1")).hasSize(1);
    assertThat(f.toolRuns).hasValue(2);
  }

  @Test
  void terminalObserversRunOnlyAfterACommittedEnd() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    List<String> terminal = new ArrayList<>();
    AgentRuntime observed = AgentRuntime.builder(Fixture::script, f::echo).gates(f.gates)
        .listener(new RunListener() {
          @Override
          public void onTerminal(String runId, RunState state) {
            terminal.add(runId + " " + state);
          }
        }).build();
    observed.registerSnapshot(f.runtime.snapshot(Fixture.SNAPSHOT).orElseThrow());
    observed.execute(new RunActivation("run-1", f.thread(), Fixture.SNAPSHOT, "go"), f.ctx()).toCompletableFuture().join();
    assertThat(terminal).isEmpty();
    observed.performScheduledAction("run-1", f.ctx(), 0).toCompletableFuture().join();
    assertThat(terminal).containsExactly("run-1 " + RunState.ended(EndCause.naturalEnd()));

    observed.execute(new RunActivation("run-2", f.thread(), Fixture.SNAPSHOT, "go"), RunContext.uncommitted())
        .toCompletableFuture().join();
    assertThat(terminal).hasSize(1);
  }
}

package dev.horae.spi.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.Registration;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class GateChainTest {

  private static final ToolCall CALL = new ToolCall("c1", "bash", Json.parse("{\"cmd\":\"ls\"}"));
  private static final StateView STATE = new StateView() {
    @Override
    public String runId() {
      return "r";
    }

    @Override
    public String threadId() {
      return "t";
    }

    @Override
    public int step() {
      return 1;
    }

    @Override
    public Optional<com.fasterxml.jackson.databind.JsonNode> state(String key) {
      return Optional.empty();
    }
  };

  @Test
  void theFirstNonAllowWinsAndLaterGatesDoNotRun() {
    List<String> ran = new ArrayList<>();
    ToolGates gates = ToolGates.create();
    gates.register(ToolGate.named("a", (c, s) -> {
      ran.add("a");
      return CompletableFuture.completedFuture(GateOutcome.allow());
    }));
    gates.register(ToolGate.named("b", (c, s) -> {
      ran.add("b");
      return CompletableFuture.completedFuture(GateOutcome.schedule("corr-1", "email.send"));
    }));
    Registration c = gates.register(ToolGate.named("c", (call, s) -> {
      ran.add("c");
      return CompletableFuture.completedFuture(GateOutcome.block("late"));
    }));

    GateOutcome outcome = GateChain.evaluate(gates.gates(), CALL, STATE).toCompletableFuture().join();

    assertThat(ran).containsExactly("a", "b");
    assertThat(outcome.auditLabel()).isEqualTo("schedule");
    c.close();
    assertThat(gates.gates()).hasSize(2);
  }

  @Test
  void anEmptyChainAllowsAndAThrowingGateFailsInsteadOfAllowing() {
    assertThat(GateChain.evaluate(List.of(), CALL, STATE).toCompletableFuture().join().isAllow()).isTrue();
    ToolGate boom = ToolGate.named("boom", (c, s) -> {
      throw new IllegalStateException("boom");
    });
    assertThat(GateChain.evaluate(List.of(boom), CALL, STATE).toCompletableFuture()).isCompletedExceptionally();
  }

  @Test
  void auditLabelsNameEachOutcome() {
    assertThat(List.of(
            GateOutcome.allow(), GateOutcome.block("r"), GateOutcome.setResult(ToolOutput.success("c1", Json.parse("1"))),
            GateOutcome.requireConfirmation("x"), GateOutcome.schedule("y"))
        .stream().map(GateOutcome::auditLabel))
        .containsExactly("allow", "deny", "set_result", "ask", "schedule");
  }
}

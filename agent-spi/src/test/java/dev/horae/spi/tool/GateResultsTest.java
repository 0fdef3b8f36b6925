package dev.horae.spi.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.session.Json;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ToolResult#ofGate}: the one rendering of a gate outcome that stands in for a call's
 * result (gate specification §2), shared by the runtime's turn engine and the framework adapters.
 */
@Timeout(10)
class GateResultsTest {

  @Test
  void aBlockReadsBlockedWithItsReasonAndTheBlockedCode() {
    ToolResult r = ToolResult.ofGate(GateOutcome.block("not on weekends"));
    assertThat(r.isError()).isTrue();
    assertThat(r.text()).isEqualTo("Error: blocked: not on weekends");
    assertThat(r.code()).contains(ToolResult.BLOCKED);
    assertThat(ToolResult.blocked("x")).isEqualTo(ToolResult.error("Error: blocked: x", Optional.of("BLOCKED")));
  }

  @Test
  void aSetResultIsTheGatesOutputWithItsEcmaScriptText() {
    ToolResult ok = ToolResult.ofGate(GateOutcome.setResult(ToolOutput.success("c1", Json.parse("{\"n\":1.5e21,\"s\":\"a\"}"))));
    assertThat(ok.isError()).isFalse();
    assertThat(ok.text()).isEqualTo("{\"n\":1.5e+21,\"s\":\"a\"}");
    assertThat(ok.value()).contains(Json.parse("{\"n\":1.5e21,\"s\":\"a\"}"));

    ToolResult failed = ToolResult.ofGate(GateOutcome.setResult(ToolOutput.error("c1", "quota spent")));
    assertThat(failed.isError()).isTrue();
    assertThat(failed.text()).isEqualTo("Error: quota spent");
    assertThat(failed.code()).isEmpty();
  }

  @Test
  void anOutcomeThatDoesNotReplaceTheCallIsRefused() {
    assertThatThrownBy(() -> ToolResult.ofGate(GateOutcome.allow()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not stand in");
    assertThatThrownBy(() -> ToolResult.ofGate(GateOutcome.requireConfirmation("k")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}

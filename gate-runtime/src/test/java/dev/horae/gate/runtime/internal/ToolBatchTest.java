package dev.horae.gate.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.gate.AwaitTarget;
import dev.horae.gate.PendingTool;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.ToolAwaitReason;
import dev.horae.gate.runtime.ToolRecoveryPolicy;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.session.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tool batch rules (gate specification §7.2–§7.4). */
class ToolBatchTest {

  private static DurableToolCall call(String id, ToolRecoveryPolicy p) {
    return new DurableToolCall(new ToolCall(id, "echo", Json.parse("{\"text\":\"ping\"}")), p,
        new ToolCallPhase.Requested());
  }

  private static ToolBatch batch() {
    return ToolBatch.open("run-7", 3, List.of(call("call-1", ToolRecoveryPolicy.neverReplay()),
        call("call-2", new ToolRecoveryPolicy.ReplaySafe(2))));
  }

  private static void fails(Runnable r, String code, String message) {
    assertThatThrownBy(r::run).isInstanceOf(BatchException.class)
        .hasMessage(message).satisfies(e -> assertThat(((BatchException) e).code()).isEqualTo(code));
  }

  @Test
  void operationIdIsStable() {
    assertThat(batch().operationId("call-1")).isEqualTo("tool-batch:run-7:3:call-1");
    assertThat(batch().id()).isEqualTo("tool-batch:run-7:3");
  }

  @Test
  void aBatchNeedsUniqueCalls() {
    String msg = "a tool batch needs at least one call with unique call ids";
    fails(() -> ToolBatch.open("r", 1, List.of()), "invalidBatch", msg);
    fails(() -> ToolBatch.open("r", 1, List.of(call("a", ToolRecoveryPolicy.neverReplay()),
        call("a", ToolRecoveryPolicy.neverReplay()))), "invalidBatch", msg);
  }

  @Test
  void atMostOneAwaitingCall() {
    ToolBatch b = batch().markAwaiting("call-1", ToolWaitKind.SCHEDULED_ACTION, "s");
    fails(() -> b.markAwaiting("call-2", ToolWaitKind.TOOL_PERMISSION, "p"),
        "multipleAwaitingCalls", "a tool batch may hold only one awaiting call");
    fails(() -> batch().markAwaiting("call-1", ToolWaitKind.SCHEDULED_ACTION, ""),
        "emptyWaitCorrelation", "a tool wait needs a non-empty correlation id");
  }

  @Test
  void transitionsAreGuarded() {
    ToolBatch done = batch().complete("call-1", ToolOutput.success("call-1", Json.parse("1")));
    fails(() -> done.markAwaiting("call-1", ToolWaitKind.TOOL_PERMISSION, "c"),
        "illegalTransition", "tool call call-1 cannot move from completed to awaiting");
    ToolBatch waiting = batch().markAwaiting("call-1", ToolWaitKind.SCHEDULED_ACTION, "s");
    fails(() -> waiting.resumeExecuting("call-1", ToolWaitKind.TOOL_PERMISSION, "s"),
        "waitMismatch", "tool wait kind or correlation does not match");
    fails(() -> waiting.resumeExecuting("call-1", ToolWaitKind.SCHEDULED_ACTION, "x"),
        "waitMismatch", "tool wait kind or correlation does not match");
    assertThat(waiting.resumeExecuting("call-1", ToolWaitKind.SCHEDULED_ACTION, "s").call("call-1").orElseThrow().phase())
        .isEqualTo(new ToolCallPhase.Executing(1));
  }

  @Test
  void attemptsAreBoundedByThePinnedPolicy() {
    ToolBatch b = batch().markExecuting("call-2").markExecuting("call-2");
    fails(() -> b.markExecuting("call-2"), "attemptsExhausted", "tool call call-2 exhausted its 2 attempts");
    ToolBatch once = batch().markExecuting("call-1");
    fails(() -> once.markExecuting("call-1"), "attemptsExhausted", "tool call call-1 exhausted its 1 attempts");
  }

  @Test
  void finalizeNeedsEverySettledAndFreezesTheBatch() {
    fails(() -> batch().finalizeBatch(), "incomplete", "a tool batch cannot finalize while calls are unsettled");
    ToolBatch done = batch().complete("call-1", ToolOutput.success("call-1", Json.parse("1")))
        .markIndeterminate("call-2", "gone").finalizeBatch();
    assertThat(done.finalized()).isTrue();
    fails(() -> done.markExecuting("call-1"), "finalized", "the tool batch is finalized");
  }

  @Test
  void sealIsIdempotent() {
    ToolBatch sealed = batch().complete("call-1", ToolOutput.success("call-1", Json.parse("1"))).sealOnRunEnd("first");
    assertThat(sealed.call("call-2").orElseThrow().phase()).isEqualTo(new ToolCallPhase.Indeterminate("first"));
    assertThat(sealed.sealOnRunEnd("second")).isEqualTo(sealed);
  }

  @Test
  void aPersistedBatchWithTwoAwaitingCallsFailsToDecode() {
    var json = CommitCodec.encodeBatch(batch().markAwaiting("call-1", ToolWaitKind.TOOL_PERMISSION, "a"));
    ((com.fasterxml.jackson.databind.node.ObjectNode) json.path("calls").get(1))
        .set("phase", CommitCodec.encodePhase(new ToolCallPhase.Awaiting(ToolWaitKind.DELEGATION, "b")));
    assertThatThrownBy(() -> CommitCodec.decodeBatch(json)).hasMessage("a tool batch may hold only one awaiting call");
    ToolBatch b = batch().markAwaiting("call-1", ToolWaitKind.SCHEDULED_ACTION, "s");
    assertThat(CommitCodec.decodeBatch(CommitCodec.encodeBatch(b))).isEqualTo(b);
  }

  @Test
  void aPersistedPolicyBelowOneAttemptFailsToDecodeAsAShapeError() {
    // found by the fuzz module: the policy's own IllegalArgumentException escaped the codec
    for (String attempts : List.of("0", "-3", "1e-7")) {
      var json = CommitCodec.encodeBatch(batch());
      ((com.fasterxml.jackson.databind.node.ObjectNode) json.path("calls").get(1).path("recoveryPolicy"))
          .set("maxAttempts", Json.parse(attempts));
      assertThatThrownBy(() -> CommitCodec.decodeBatch(json))
          .as(attempts)
          .isInstanceOf(dev.horae.gate.GateJsonException.class)
          .hasMessage("maxAttempts must be at least 1");
    }
  }

  @Test
  void ticketCrossCheckReportsTheFirstDrift() {
    ToolBatch b = batch().markAwaiting("call-1", ToolWaitKind.SCHEDULED_ACTION, "s");
    PendingTool tool = new PendingTool("echo", Json.parse("{\"text\":\"ping\"}"));
    ResumeTicket ok = ResumeTicket.of("s", "run-7", "th", "snap", "fp",
        AwaitTarget.toolCall(ToolAwaitReason.SCHEDULED_ACTION, "call-1", tool));
    assertThat(b.validateAwaitingTicket("th", ok)).isEmpty();
    assertThat(b.validateAwaitingTicket("other", ok)).contains("threadMismatch");
    assertThat(b.validateAwaitingTicket("th", ResumeTicket.of("s", "run-8", "th", "snap", "fp", ok.target())))
        .contains("runMismatch");
    assertThat(b.validateAwaitingTicket("th", ResumeTicket.of("s", "run-7", "th", "snap", "fp",
        AwaitTarget.pause(dev.horae.gate.PauseReason.MANUAL)))).contains("notToolCall");
    assertThat(batch().validateAwaitingTicket("th", ok)).contains("missingAwaitingCall");
    assertThat(b.validateAwaitingTicket("th", ResumeTicket.of("s", "run-7", "th", "snap", "fp",
        AwaitTarget.toolCall(ToolAwaitReason.SCHEDULED_ACTION, "call-2", tool)))).contains("callMismatch");
    assertThat(b.validateAwaitingTicket("th", ResumeTicket.of("s", "run-7", "th", "snap", "fp",
        AwaitTarget.toolCall(ToolAwaitReason.PERMISSION, "call-1", tool)))).contains("kindMismatch");
    assertThat(b.validateAwaitingTicket("th", ResumeTicket.of("x", "run-7", "th", "snap", "fp", ok.target())))
        .contains("correlationMismatch");
    assertThat(b.validateAwaitingTicket("th", ResumeTicket.of("s", "run-7", "th", "snap", "fp",
        AwaitTarget.toolCall(ToolAwaitReason.SCHEDULED_ACTION, "call-1",
            new PendingTool("echo", Json.parse("{\"text\":\"pong\"}")))))).contains("toolMismatch");
    assertThat(b.sealOnRunEnd("x").validateAwaitingTicket("th", ok)).contains("finalized");
  }
}

package dev.horae.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.session.Json;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Behaviour of the pure gate model beyond the public vectors. */
class GateModelTest {

  private static final PendingTool TOOL = new PendingTool("echo", Json.parse("{\"text\":\"ping\"}"));

  private static JsonNode ticketJson(String extra) {
    return Json.parse("{\"correlationId\":\"c\",\"runId\":\"r\",\"threadId\":\"th\",\"snapshotId\":\"s\","
        + "\"catalogFingerprint\":\"f\"" + extra + "}");
  }

  @Test
  void flatteningFollowsTheClosedTarget() {
    assertThat(AwaitTarget.toolCall(ToolAwaitReason.CLIENT_EXECUTION, "c", TOOL).reason()).isEqualTo(AwaitReason.EXTERNAL_EVENT);
    assertThat(AwaitTarget.remoteInput(RemoteInputReason.EXTERNAL_EVENT, "c").reason()).isEqualTo(AwaitReason.EXTERNAL_EVENT);
    assertThat(AwaitTarget.remoteInput(RemoteInputReason.USER_INPUT, "c").pendingTool()).isEmpty();
    assertThat(AwaitTarget.pause(PauseReason.BUDGET_REACHED).callId()).isEmpty();
    ResumeTicket t = ResumeTicket.of("c", "r", "th", "s", "f",
        AwaitTarget.toolCall(ToolAwaitReason.SCHEDULED_ACTION, "call-1", TOOL));
    assertThat(t.reason()).isEqualTo(AwaitReason.SCHEDULED_ACTION);
    assertThat(t.callId()).contains("call-1");
    assertThat(t.pendingTool()).contains(TOOL);
    assertThat(t.toolCall().orElseThrow().toolId()).isEqualTo("echo");
    assertThat(t.boundTo("other").threadId()).isEqualTo("other");
  }

  @Test
  void onlyPermissionClientAndRemoteInputWaitsSurfaceToClients() {
    ResumeTicket permission = ResumeTicket.of("c", "r", "th", "s", "f", AwaitTarget.toolCall(ToolAwaitReason.PERMISSION, "call-1", TOOL));
    assertThat(RequiredAction.of(permission)).contains(new RequiredAction("call-1", "echo", TOOL.arguments(), false));
    ResumeTicket client = ResumeTicket.of("c", "r", "th", "s", "f", AwaitTarget.toolCall(ToolAwaitReason.CLIENT_EXECUTION, "call-1", TOOL));
    assertThat(RequiredAction.of(client).orElseThrow().clientExecuted()).isTrue();
    ResumeTicket remote = ResumeTicket.of("c", "r", "th", "s", "f", AwaitTarget.remoteInput(RemoteInputReason.USER_INPUT, "ask"));
    assertThat(RequiredAction.of(remote)).contains(
        new RequiredAction("ask", "agent_input", Json.parse("{\"reason\":\"user_input\"}"), true));
    for (AwaitTarget hidden : List.of(AwaitTarget.toolCall(ToolAwaitReason.SCHEDULED_ACTION, "c", TOOL),
        AwaitTarget.toolCall(ToolAwaitReason.DELEGATION, "c", TOOL), AwaitTarget.pause(PauseReason.MANUAL))) {
      assertThat(RequiredAction.of(ResumeTicket.of("c", "r", "th", "s", "f", hidden))).isEmpty();
    }
  }

  @Test
  void streamTokensArePairwiseDistinct() {
    Set<String> tokens = new HashSet<>();
    for (AwaitReason r : EnumSet.allOf(AwaitReason.class)) {
      tokens.add(r.streamToken());
      assertThat(AwaitReason.fromWireName(r.wireName())).contains(r);
    }
    assertThat(tokens).hasSize(AwaitReason.values().length);
  }

  @Test
  void ticketIdentityFieldsMustBeNonEmpty() {
    assertThatThrownBy(() -> GateJson.decodeTicket(Json.parse("{\"correlationId\":\"\"}")))
        .isInstanceOf(GateJsonException.class)
        .hasMessage("resume ticket field \"correlationId\" must be a non-empty string");
    assertThatThrownBy(() -> ResumeTicket.of("c", "", "th", "s", "f", AwaitTarget.pause(PauseReason.MANUAL)))
        .hasMessage("resume ticket field \"runId\" must be a non-empty string");
  }

  @Test
  void legacyFormHasNoBudgetPauseAndRejectsForbiddenFacts() {
    String invalid = "resume ticket must contain one valid closed await target";
    assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(",\"reason\":\"budgetReached\""))).hasMessage(invalid);
    assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(",\"reason\":\"userInput\""))).hasMessage(invalid);
    assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(
        ",\"reason\":\"userInput\",\"callId\":\"c\",\"pendingTool\":{\"toolId\":\"t\",\"arguments\":{}}"))).hasMessage(invalid);
    assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(""))).hasMessage(invalid);
    assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(",\"target\":{\"type\":\"pause\",\"reason\":\"manual\",\"callId\":\"x\"}")))
        .hasMessage(invalid);
    ResumeTicket client = GateJson.decodeTicket(ticketJson(
        ",\"reason\":\"externalEvent\",\"callId\":\"c\",\"pendingTool\":{\"toolId\":\"t\",\"arguments\":{}}"));
    assertThat(client.target()).isInstanceOf(AwaitTarget.ToolCallTarget.class);
    assertThat(((AwaitTarget.ToolCallTarget) client.target()).kind()).isEqualTo(ToolAwaitReason.CLIENT_EXECUTION);
  }

  @Test
  void unsignedMillisRefuseExponentsBeyondSixtyFourBitsWithoutExpandingThem() {
    // found by the fuzz module: 1e999999999 was expanded into a BigInteger (minutes of CPU, then
    // an ArithmeticException), and 1E+2147483647 overflowed at once
    for (String huge : List.of("1e999999999", "1E+2147483647", "-1e999999999", "2e19", "1.8446744073709551616e19")) {
      assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(
              ",\"target\":{\"type\":\"pause\",\"reason\":\"manual\"},\"deadlineMs\":" + huge)))
          .as(huge)
          .isInstanceOf(GateJsonException.class)
          .hasMessage("\"deadlineMs\" must be an unsigned 64-bit integer");
    }
    assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(
            ",\"target\":{\"type\":\"pause\",\"reason\":\"manual\"},\"deadlineMs\":1e-999999999")))
        .isInstanceOf(GateJsonException.class)
        .hasMessage("\"deadlineMs\" must be an unsigned integer");
    ResumeTicket t = GateJson.decodeTicket(ticketJson(
        ",\"target\":{\"type\":\"pause\",\"reason\":\"manual\"},\"deadlineMs\":1.8446744073709551615e19"));
    assertThat(t.deadlineMs()).hasValue(-1L);
    ObjectNode command = (ObjectNode) Json.parse("{\"correlationId\":\"c\",\"runId\":\"r\",\"threadId\":\"th\","
        + "\"snapshotId\":\"s\",\"catalogFingerprint\":\"f\",\"result\":{\"type\":\"input\",\"text\":\"x\"}}");
    command.set("nowMs", JsonNodeFactory.instance.numberNode(Double.NaN));
    assertThatThrownBy(() -> GateJson.decodeResumeCommand(command))
        .isInstanceOf(GateJsonException.class)
        .hasMessage("\"nowMs\" must be an unsigned integer");
    command.set("nowMs", JsonNodeFactory.instance.numberNode(1e300));
    assertThatThrownBy(() -> GateJson.decodeResumeCommand(command))
        .isInstanceOf(GateJsonException.class)
        .hasMessage("\"nowMs\" must be an unsigned 64-bit integer");
  }

  @Test
  void optionalTicketFactsRoundTripIncludingUnsignedDeadlineAndInitiatorAlias() {
    ResumeTicket t = GateJson.decodeTicket(ticketJson(",\"target\":{\"type\":\"pause\",\"reason\":\"manual\"},"
        + "\"deadlineMs\":18446744073709551615,\"initiator\":{\"agent\":\"a\"},\"dataSubjectId\":\"user-9\",\"unknown\":1"));
    assertThat(t.deadlineMs()).hasValue(-1L);
    assertThat(t.delegationOrigin()).contains(Json.parse("{\"agent\":\"a\"}"));
    JsonNode out = GateJson.encodeTicket(t);
    assertThat(out.get("deadlineMs").asText()).isEqualTo("18446744073709551615");
    assertThat(out.has("initiator")).isFalse();
    assertThat(out.get("delegationOrigin")).isEqualTo(Json.parse("{\"agent\":\"a\"}"));
    assertThat(GateJson.decodeTicket(out)).isEqualTo(t);
  }

  @Test
  void outcomesRoundTripAndFactoriesRejectEmptyCorrelation() {
    for (GateOutcome o : List.of(GateOutcome.allow(), GateOutcome.block("no"),
        GateOutcome.setResult(ToolOutput.success("c1", Json.parse("\"done\""))),
        GateOutcome.requireConfirmation("t"), GateOutcome.schedule("s"), GateOutcome.schedule("s", "k"))) {
      assertThat(GateJson.decodeOutcome(GateJson.encodeOutcome(o))).isEqualTo(o);
    }
    assertThat(GateOutcome.setResult(ToolOutput.success("c1", Json.parse("1"))).auditLabel()).isEqualTo("set_result");
    assertThatThrownBy(() -> GateOutcome.schedule("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GateOutcome.requireConfirmation("")).isInstanceOf(IllegalArgumentException.class);
    assertThat(ToolPermissionVerdict.requireConfirmation("c").toGateOutcome()).isEqualTo(GateOutcome.requireConfirmation("c"));
  }

  @Test
  void runStatesDecodeTheLegacyWaitingAndReservedFailureCodes() {
    assertThat(GateJson.decodeRunState(Json.parse("{\"type\":\"waiting\"}"))).isEqualTo(RunState.awaiting());
    assertThat(GateJson.encodeRunState(RunState.awaiting()).toString()).isEqualTo("{\"type\":\"awaiting\"}");
    RunState cap = GateJson.decodeRunState(Json.parse(
        "{\"type\":\"ended\",\"cause\":\"error\",\"failure\":{\"code\":\"capability_bound\",\"message\":\"whatever\"}}"));
    assertThat(cap).isEqualTo(RunState.ended(EndCause.error(Failure.capabilityBound())));
    assertThat(GateJson.encodeRunState(cap).toString()).isEqualTo(
        "{\"type\":\"ended\",\"cause\":\"error\",\"failure\":{\"code\":\"capability_bound\",\"message\":\"a plugin contributed beyond its declared capability bound\"}}");
    assertThat(Failure.of("state_conflict", "x").message()).isEqualTo("staged state commands conflict on an exclusive state key");
    RunState stopped = RunState.ended(EndCause.stopped("budget exhausted"));
    assertThat(GateJson.decodeRunState(GateJson.encodeRunState(stopped))).isEqualTo(stopped);
    assertThat(stopped.permits(RunState.running())).isFalse();
  }

  @Test
  void permissionDecisionsRejectMisplacedKeys() {
    assertThatThrownBy(() -> GateJson.decodeResumeResult(Json.parse("{\"type\":\"permission\",\"decision\":\"deny\",\"note\":\"n\"}")))
        .hasMessage("permission decision \"deny\" does not take \"note\"");
    assertThatThrownBy(() -> GateJson.decodeResumeResult(Json.parse("{\"type\":\"permission\",\"decision\":\"allow\",\"reason\":\"r\"}")))
        .hasMessage("permission decision \"allow\" does not take \"reason\"");
    ResumeCommand c = ResumeCommand.fromTicket(ResumeTicket.of("c", "r", "th", "s", "f", AwaitTarget.pause(PauseReason.MANUAL)),
        new ResumeResult.Permission(new PermissionDecision.Deny(java.util.Optional.of("operator policy"))), 7);
    assertThat(GateJson.decodeResumeCommand(GateJson.encodeResumeCommand(c))).isEqualTo(c);
  }

  private static Plugin plugin(String id, List<String> requires, CapabilityBound bound, Contributions c) {
    return Plugin.of(new PluginManifest(id, requires, bound), c);
  }

  private static EnvMergeException mergeFails(List<Plugin> plugins) {
    try {
      ResolvedExecutionEnv.merge(plugins);
    } catch (EnvMergeException e) {
      return e;
    }
    throw new AssertionError("merge succeeded");
  }

  @Test
  void mergeErrorsCarryTheirExactTextsAndFields() {
    CapabilityBound open = CapabilityBound.denyAll().withTools(IdBound.any()).withActionKinds(IdBound.any());
    EnvMergeException dup = mergeFails(List.of(plugin("a", List.of(), open, Contributions.none()),
        plugin("a", List.of(), open, Contributions.none())));
    assertThat(dup.getMessage()).isEqualTo("plugin \"a\" is listed more than once");

    EnvMergeException bound = mergeFails(List.of(plugin("p", List.of(), CapabilityBound.denyAll(),
        Contributions.of(List.of(), List.of(), List.of("g"))), plugin("q", List.of("ghost"), open, Contributions.none())));
    assertThat(bound.fields()).containsEntry("axis", "toolGate").containsEntry("plugin", "p").containsEntry("id", "g");
    assertThat(bound.getMessage()).isEqualTo("plugin \"p\" contributes tool gate \"g\" outside its declared capability bound");

    EnvMergeException missing = mergeFails(List.of(plugin("q", List.of("ghost"), open, Contributions.none())));
    assertThat(missing.getMessage()).isEqualTo("plugin \"q\" requires \"ghost\", which is not active");

    EnvMergeException cycle = mergeFails(List.of(plugin("x", List.of(), open, Contributions.none()),
        plugin("a", List.of("b"), open, Contributions.none()), plugin("b", List.of("a"), open, Contributions.none())));
    assertThat(cycle.fields()).containsEntry("plugins", List.of("a", "b"));
    assertThat(cycle.getMessage()).isEqualTo("plugin dependencies form a cycle among \"a\", \"b\"");

    EnvMergeException tool = mergeFails(List.of(plugin("a", List.of(), open, Contributions.of(List.of("t"), List.of(), List.of())),
        plugin("b", List.of(), open, Contributions.of(List.of("t"), List.of(), List.of()))));
    assertThat(tool.code()).isEqualTo("duplicateTool");
    assertThat(tool.getMessage()).isEqualTo("tool \"t\" is contributed by both \"a\" and \"b\"");

    ResolvedExecutionEnv env = ResolvedExecutionEnv.merge(
        List.of(plugin("a", List.of(), open, Contributions.of(List.of(), List.of("k"), List.of())),
            plugin("z", List.of(), open, Contributions.of(List.of(), List.of("other"), List.of()))), Set.of("a"));
    assertThat(env.permitsActionKind("k")).isTrue();
    assertThat(env.permitsActionKind("other")).isFalse();
    assertThat(IdBound.denyAll().isDenyAll()).isTrue();
    assertThat(IdBound.exact(List.of("a")).isDenyAll()).isFalse();
  }
}

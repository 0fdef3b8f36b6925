package dev.horae.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.session.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The wire rules of the pure gate model that {@link GateModelTest} and the vectors leave open:
 * every shape of the gate specification's JSON tables (§0, §1.1, §2.1, §3.4, §4.1, §6.1, §10.1,
 * §10.3) written exactly and read strictly, and the non-empty and reserved-value rules of the
 * value types.
 */
class GateWireRulesTest {

  private static final String INVALID_TARGET = "resume ticket must contain one valid closed await target";
  private static final PendingTool TOOL = new PendingTool("echo", Json.parse("{\"text\":\"ping\"}"));

  private static JsonNode ticketJson(String extra) {
    return Json.parse("{\"correlationId\":\"c\",\"runId\":\"r\",\"threadId\":\"th\",\"snapshotId\":\"s\","
        + "\"catalogFingerprint\":\"f\"" + extra + "}");
  }

  private static String write(JsonNode json) {
    return Json.write(json);
  }

  // ---- §2.1 targets, §3.4 ticket decoding ----------------------------------------------------

  @Test
  void aTargetNeedsANonEmptyCallIdAndExposesIt() {
    assertThatThrownBy(() -> AwaitTarget.toolCall(ToolAwaitReason.PERMISSION, "", TOOL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("await target call id must be non-empty");
    assertThatThrownBy(() -> AwaitTarget.remoteInput(RemoteInputReason.USER_INPUT, ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("await target call id must be non-empty");
    assertThat(AwaitTarget.remoteInput(RemoteInputReason.USER_INPUT, "remote-task").callId()).contains("remote-task");
    assertThatThrownBy(() -> new PendingTool("", Json.parse("{}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pending tool id must be non-empty");
  }

  @Test
  void targetsAreWrittenInTheShapesOfTheTable() {
    assertThat(write(GateJson.encodeTarget(AwaitTarget.toolCall(ToolAwaitReason.SCHEDULED_ACTION, "call-1", TOOL))))
        .isEqualTo("{\"type\":\"toolCall\",\"reason\":\"scheduledAction\",\"callId\":\"call-1\","
            + "\"tool\":{\"toolId\":\"echo\",\"arguments\":{\"text\":\"ping\"}}}");
    assertThat(write(GateJson.encodeTarget(AwaitTarget.remoteInput(RemoteInputReason.USER_INPUT, "remote-task"))))
        .isEqualTo("{\"type\":\"remoteInput\",\"reason\":\"userInput\",\"callId\":\"remote-task\"}");
    assertThat(write(GateJson.encodeTarget(AwaitTarget.pause(PauseReason.MANUAL))))
        .isEqualTo("{\"type\":\"pause\",\"reason\":\"manual\"}");
  }

  @Test
  void aTargetWithAForbiddenOrMalformedFactIsNoTarget() {
    List<String> invalid = List.of(
        "{\"type\":\"remoteInput\",\"reason\":\"userInput\",\"callId\":\"x\",\"tool\":{\"toolId\":\"echo\",\"arguments\":{}}}",
        "{\"type\":\"pause\",\"reason\":\"manual\",\"callId\":\"x\"}",
        "{\"type\":\"pause\",\"reason\":\"manual\",\"tool\":{\"toolId\":\"echo\",\"arguments\":{}}}",
        "{\"type\":\"toolCall\",\"reason\":\"permission\",\"callId\":\"x\",\"tool\":\"echo\"}",
        "{\"type\":\"toolCall\",\"reason\":\"permission\",\"callId\":\"x\",\"tool\":{\"toolId\":\"echo\"}}",
        "{\"type\":\"toolCall\",\"reason\":\"permission\",\"callId\":\"\",\"tool\":{\"toolId\":\"echo\",\"arguments\":{}}}",
        "{\"type\":\"toolCall\",\"reason\":\"permission\",\"callId\":7,\"tool\":{\"toolId\":\"echo\",\"arguments\":{}}}",
        "{\"type\":\"pause\",\"reason\":\"\"}",
        "{\"type\":\"pause\"}",
        "{\"reason\":\"manual\"}",
        "{\"type\":\"toolCall\",\"reason\":\"permission\",\"tool\":{\"toolId\":\"echo\",\"arguments\":{}}}",
        "{\"type\":\"remoteInput\",\"reason\":\"userInput\"}",
        "{\"type\":\"elsewhere\",\"reason\":\"manual\"}",
        "[\"pause\"]");
    for (String json : invalid) {
      assertThatThrownBy(() -> GateJson.decodeTarget(Json.parse(json)))
          .as(json)
          .isInstanceOf(GateJsonException.class)
          .hasMessage(INVALID_TARGET);
    }
    // null counts as absent, so a pause with "callId":null is still a pause
    assertThat(GateJson.decodeTarget(Json.parse("{\"type\":\"pause\",\"reason\":\"manual\",\"callId\":null}")))
        .isEqualTo(AwaitTarget.pause(PauseReason.MANUAL));
  }

  @Test
  void aTicketIsAnObjectWithNonEmptyStringIdentity() {
    assertThatThrownBy(() -> GateJson.decodeTicket(Json.parse("[1]")))
        .isInstanceOf(GateJsonException.class)
        .hasMessage("resume ticket must be a JSON object");
    assertThatThrownBy(() -> GateJson.decodeTicket(Json.parse("{\"correlationId\":\"c\",\"runId\":5}")))
        .hasMessage("resume ticket field \"runId\" must be a non-empty string");
    assertThatThrownBy(() -> GateJson.decodeTicket(((ObjectNode) ticketJson("")).put("catalogFingerprint", "")))
        .hasMessage("resume ticket field \"catalogFingerprint\" must be a non-empty string");
  }

  @Test
  void bothRepresentationsAtOnceAreRefused() {
    String target = ",\"target\":{\"type\":\"pause\",\"reason\":\"manual\"}";
    for (String flat : List.of(",\"reason\":\"manualPause\"", ",\"callId\":\"x\"", ",\"pendingTool\":{\"toolId\":\"echo\",\"arguments\":{}}")) {
      assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(target + flat))).as(flat).hasMessage(INVALID_TARGET);
    }
    assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(",\"callId\":\"x\""))).hasMessage(INVALID_TARGET);
  }

  @Test
  void theLegacyTripleMapsToExactlyOneClosedTarget() {
    String call = ",\"callId\":\"call-1\"";
    String tool = ",\"pendingTool\":{\"toolId\":\"echo\",\"arguments\":{\"text\":\"ping\"}}";
    assertThat(GateJson.decodeTicket(ticketJson(",\"reason\":\"toolPermission\"" + call + tool)).target())
        .isEqualTo(AwaitTarget.toolCall(ToolAwaitReason.PERMISSION, "call-1", TOOL));
    assertThat(GateJson.decodeTicket(ticketJson(",\"reason\":\"externalEvent\"" + call + tool)).target())
        .isEqualTo(AwaitTarget.toolCall(ToolAwaitReason.CLIENT_EXECUTION, "call-1", TOOL));
    assertThat(GateJson.decodeTicket(ticketJson(",\"reason\":\"scheduledAction\"" + call + tool)).target())
        .isEqualTo(AwaitTarget.toolCall(ToolAwaitReason.SCHEDULED_ACTION, "call-1", TOOL));
    assertThat(GateJson.decodeTicket(ticketJson(",\"reason\":\"delegation\"" + call + tool)).target())
        .isEqualTo(AwaitTarget.toolCall(ToolAwaitReason.DELEGATION, "call-1", TOOL));
    assertThat(GateJson.decodeTicket(ticketJson(",\"reason\":\"userInput\"" + call)).target())
        .isEqualTo(AwaitTarget.remoteInput(RemoteInputReason.USER_INPUT, "call-1"));
    assertThat(GateJson.decodeTicket(ticketJson(",\"reason\":\"externalEvent\"" + call)).target())
        .isEqualTo(AwaitTarget.remoteInput(RemoteInputReason.EXTERNAL_EVENT, "call-1"));
    assertThat(GateJson.decodeTicket(ticketJson(",\"reason\":\"manualPause\"")).target())
        .isEqualTo(AwaitTarget.pause(PauseReason.MANUAL));
    assertThat(GateJson.decodeTicket(ticketJson(",\"reason\":\"rateLimit\"")).target())
        .isEqualTo(AwaitTarget.pause(PauseReason.RATE_LIMIT));
    for (String wrong : List.of(
        ",\"reason\":\"manualPause\"" + call, ",\"reason\":\"rateLimit\"" + tool, ",\"reason\":\"userInput\"" + call + tool,
        ",\"reason\":\"toolPermission\"" + call, ",\"reason\":\"delegation\"" + tool, ",\"reason\":\"nonsense\"" + call)) {
      assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(wrong))).as(wrong).hasMessage(INVALID_TARGET);
    }
  }

  @Test
  void optionalTicketFactsAreCheckedAndTheCanonicalAliasWins() {
    String pause = ",\"target\":{\"type\":\"pause\",\"reason\":\"manual\"}";
    assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(pause + ",\"delegationOrigin\":\"agent-a\"")))
        .hasMessage("resume ticket delegation origin must be a JSON object");
    assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(pause + ",\"dataSubjectId\":\"\"")))
        .hasMessage("resume ticket field \"dataSubjectId\" must be a non-empty string");
    assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(pause + ",\"dataSubjectId\":42")))
        .hasMessage("resume ticket field \"dataSubjectId\" must be a non-empty string");
    ResumeTicket both = GateJson.decodeTicket(ticketJson(pause
        + ",\"delegationOrigin\":{\"agent\":\"canonical\"},\"initiator\":{\"agent\":\"alias\"},\"dataSubjectId\":\"user-1\""));
    assertThat(both.delegationOrigin()).contains(Json.parse("{\"agent\":\"canonical\"}"));
    assertThat(both.dataSubjectId()).contains("user-1");
    ResumeTicket bare = GateJson.decodeTicket(ticketJson(pause + ",\"deadlineMs\":null,\"dataSubjectId\":null"));
    assertThat(bare.deadlineMs()).isEmpty();
    assertThat(bare.dataSubjectId()).isEmpty();
    assertThat(write(GateJson.encodeTicket(bare))).isEqualTo(
        "{\"correlationId\":\"c\",\"runId\":\"r\",\"threadId\":\"th\",\"snapshotId\":\"s\",\"catalogFingerprint\":\"f\","
            + "\"target\":{\"type\":\"pause\",\"reason\":\"manual\"}}");
    assertThatThrownBy(() -> bare.withDelegationOrigin(Json.parse("[]")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("delegation origin must be a JSON object");
  }

  @Test
  void deadlinesAreUnsigned64BitIntegers() {
    String pause = ",\"target\":{\"type\":\"pause\",\"reason\":\"manual\"}";
    assertThat(GateJson.decodeTicket(ticketJson(pause + ",\"deadlineMs\":1700000000000.0")).deadlineMs())
        .hasValue(1_700_000_000_000L);
    assertThat(GateJson.decodeTicket(ticketJson(pause + ",\"deadlineMs\":0")).deadlineMs()).hasValue(0L);
    assertThat(GateJson.decodeTicket(ticketJson(pause + ",\"deadlineMs\":5.0")).deadlineMs()).hasValue(5L);
    for (String bad : List.of("-1", "18446744073709551616", "1.5", "\"5\"", "true")) {
      assertThatThrownBy(() -> GateJson.decodeTicket(ticketJson(pause + ",\"deadlineMs\":" + bad)))
          .as(bad)
          .isInstanceOf(GateJsonException.class)
          .hasMessageStartingWith("\"deadlineMs\" must be an unsigned");
    }
    ResumeTicket max = GateJson.decodeTicket(ticketJson(pause + ",\"deadlineMs\":18446744073709551615"));
    assertThat(write(GateJson.encodeTicket(max.withDeadline(9)))).contains("\"deadlineMs\":9");
  }

  @Test
  void ticketsAreEqualOnlyWhenEveryFieldIs() {
    ResumeTicket base = ResumeTicket.of("c", "r", "th", "s", "f", AwaitTarget.pause(PauseReason.MANUAL));
    ResumeTicket same = ResumeTicket.of("c", "r", "th", "s", "f", AwaitTarget.pause(PauseReason.MANUAL));
    assertThat(base).isEqualTo(same).hasSameHashCodeAs(same);
    Set<ResumeTicket> distinct = new HashSet<>(List.of(base, same));
    assertThat(distinct).hasSize(1);
    assertThat(base).isNotEqualTo(base.withDataSubject("user-1"));
    assertThat(base).isNotEqualTo(base.withDelegationOrigin(Json.parse("{}")));
    assertThat(base).isNotEqualTo(base.withDeadline(5));
    assertThat(base).isNotEqualTo(base.boundTo("other"));
    assertThat(base).isNotEqualTo("ticket");
  }

  // ---- §0, §1.1 outputs and outcomes ---------------------------------------------------------

  @Test
  void toolOutputsCarryIsErrorOnlyForErrorsAndTheFailedCallForm() {
    assertThat(write(GateJson.encodeToolOutput(ToolOutput.success("call-1", Json.parse("\"echoed ping\"")))))
        .isEqualTo("{\"callId\":\"call-1\",\"content\":\"echoed ping\"}");
    assertThat(write(GateJson.encodeToolOutput(new ToolOutput("call-1", Json.parse("\"boom\""), true))))
        .isEqualTo("{\"callId\":\"call-1\",\"content\":\"boom\",\"isError\":true}");
    ToolOutput failed = GateJson.decodeToolOutput(Json.parse("{\"callId\":\"call-1\",\"error\":\"tool crashed\"}"));
    assertThat(failed).isEqualTo(ToolOutput.error("call-1", "tool crashed"));
    assertThat(failed.isError()).isTrue();
    assertThat(GateJson.decodeToolOutput(Json.parse("{\"callId\":\"call-1\",\"content\":[1],\"isError\":true}")))
        .isEqualTo(new ToolOutput("call-1", Json.parse("[1]"), true));
    assertThatThrownBy(() -> GateJson.decodeToolOutput(Json.parse("{\"callId\":\"\",\"content\":1}")))
        .isInstanceOf(GateJsonException.class)
        .hasMessage("tool output call id must be non-empty");
    assertThatThrownBy(() -> GateJson.decodeToolOutput(Json.parse("{\"callId\":3,\"content\":1}")))
        .hasMessage("tool output member \"callId\" must be a string");
    assertThatThrownBy(() -> GateJson.decodeToolOutput(Json.parse("{\"callId\":\"c\",\"error\":{}}")))
        .hasMessage("tool output member \"error\" must be a string");
    assertThatThrownBy(() -> GateJson.decodeToolOutput(Json.parse("\"c\"")))
        .hasMessage("tool output must be a JSON object");
  }

  @Test
  void outcomeFactoriesRefusalsBecomeDecodeErrors() {
    assertThatThrownBy(() -> GateJson.decodeOutcome(Json.parse("{\"type\":\"requireConfirmation\",\"correlationId\":\"\"}")))
        .isInstanceOf(GateJsonException.class);
    assertThatThrownBy(() -> GateJson.decodeOutcome(Json.parse("{\"type\":\"schedule\",\"correlationId\":\"s\",\"actionKind\":1}")))
        .hasMessage("schedule outcome member \"actionKind\" must be a string");
    assertThat(GateJson.decodeOutcome(Json.parse("{\"type\":\"schedule\",\"correlationId\":\"s\",\"actionKind\":\"k\"}")))
        .isEqualTo(GateOutcome.schedule("s", "k"));
    assertThatThrownBy(() -> GateJson.decodeVerdict(Json.parse("{\"type\":\"requireConfirmation\",\"correlationId\":\"\"}")))
        .isInstanceOf(GateJsonException.class);
    assertThatThrownBy(() -> ToolPermissionVerdict.requireConfirmation(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("correlation id must be non-empty");
    assertThat(GateJson.decodeVerdict(Json.parse("{\"type\":\"deny\",\"reason\":\"no\"}")).toGateOutcome())
        .isEqualTo(GateOutcome.block("no"));
  }

  // ---- §4.1 run states ---------------------------------------------------------------------

  @Test
  void runStatesAndCausesAreWrittenInTheShapesOfTheTable() {
    assertThat(write(GateJson.encodeRunState(RunState.running()))).isEqualTo("{\"type\":\"running\"}");
    assertThat(write(GateJson.encodeRunState(RunState.awaiting()))).isEqualTo("{\"type\":\"awaiting\"}");
    assertThat(write(GateJson.encodeRunState(RunState.ended(EndCause.maxSteps()))))
        .isEqualTo("{\"type\":\"ended\",\"cause\":\"maxSteps\"}");
    assertThat(write(GateJson.encodeRunState(RunState.ended(EndCause.indeterminate()))))
        .isEqualTo("{\"type\":\"ended\",\"cause\":\"indeterminate\"}");
    assertThat(write(GateJson.encodeRunState(RunState.ended(EndCause.error(Failure.stateConflict())))))
        .isEqualTo("{\"type\":\"ended\",\"cause\":\"error\",\"failure\":{\"code\":\"state_conflict\","
            + "\"message\":\"staged state commands conflict on an exclusive state key\"}}");
    assertThat(write(GateJson.encodeRunState(RunState.ended(EndCause.error(Failure.of("rate_limited", "429"))))))
        .isEqualTo("{\"type\":\"ended\",\"cause\":\"error\",\"failure\":{\"code\":\"rate_limited\",\"message\":\"429\"}}");
    for (String cause : List.of("naturalEnd", "maxSteps", "cancelled", "indeterminate")) {
      assertThat(GateJson.decodeRunState(Json.parse("{\"type\":\"ended\",\"cause\":\"" + cause + "\"}")))
          .isEqualTo(RunState.ended(GateJson.readCause(Json.parse("{\"cause\":\"" + cause + "\"}"))));
      assertThat(GateJson.readCause(Json.parse("{\"cause\":\"" + cause + "\"}")).wireName()).isEqualTo(cause);
    }
  }

  @Test
  void aFailureCodeIsNonEmptyAndTheReservedCodesAreNotInferenceFailures() {
    assertThatThrownBy(() -> GateJson.decodeRunState(Json.parse(
        "{\"type\":\"ended\",\"cause\":\"error\",\"failure\":{\"code\":\"\",\"message\":\"x\"}}")))
        .isInstanceOf(GateJsonException.class)
        .hasMessage("failure code must be non-empty");
    for (String code : List.of("", "capability_bound", "state_conflict")) {
      assertThatThrownBy(() -> new Failure.Inference(code, "m"))
          .as(code)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("inference failure code must be non-empty and not reserved");
    }
    assertThat(Failure.of("capability_bound", "ignored").message())
        .isEqualTo("a plugin contributed beyond its declared capability bound");
    assertThat(Failure.of("state_conflict", "ignored").code()).isEqualTo("state_conflict");
  }

  // ---- §6.1 resume results and commands, §6.3 ----------------------------------------------

  @Test
  void resumeResultsAreWrittenWithTheirOptionalMembers() {
    assertThat(write(GateJson.encodeResumeResult(new ResumeResult.Permission(
        new PermissionDecision.Allow(Optional.of("reviewed"))))))
        .isEqualTo("{\"type\":\"permission\",\"decision\":\"allow\",\"note\":\"reviewed\"}");
    assertThat(write(GateJson.encodeResumeResult(ResumeResult.allow())))
        .isEqualTo("{\"type\":\"permission\",\"decision\":\"allow\"}");
    assertThat(write(GateJson.encodeResumeResult(new ResumeResult.Permission(
        new PermissionDecision.Deny(Optional.of("operator policy"))))))
        .isEqualTo("{\"type\":\"permission\",\"decision\":\"deny\",\"reason\":\"operator policy\"}");
    assertThat(write(GateJson.encodeResumeResult(new ResumeResult.Permission(PermissionDecision.deny()))))
        .isEqualTo("{\"type\":\"permission\",\"decision\":\"deny\"}");
    assertThat(write(GateJson.encodeResumeResult(new ResumeResult.ToolResult(
        ToolOutput.success("call-1", Json.parse("\"client-computed\""))))))
        .isEqualTo("{\"type\":\"toolResult\",\"output\":{\"callId\":\"call-1\",\"content\":\"client-computed\"}}");
    assertThat(write(GateJson.encodeResumeResult(new ResumeResult.Input("the answer is 42"))))
        .isEqualTo("{\"type\":\"input\",\"text\":\"the answer is 42\"}");
  }

  @Test
  void aResumeCommandRoundTripsItsOptionalOperationIdAndContextMessages() {
    ResumeCommand full = new ResumeCommand("c", "r", "th", "s", "f", new ResumeResult.Input("go"), 7,
        Optional.of("op-1"), List.of(Json.parse("{\"role\":\"user\",\"text\":\"before\"}")));
    JsonNode json = GateJson.encodeResumeCommand(full);
    assertThat(write(json)).isEqualTo("{\"correlationId\":\"c\",\"runId\":\"r\",\"threadId\":\"th\",\"snapshotId\":\"s\","
        + "\"catalogFingerprint\":\"f\",\"result\":{\"type\":\"input\",\"text\":\"go\"},\"nowMs\":7,"
        + "\"operationId\":\"op-1\",\"contextMessages\":[{\"role\":\"user\",\"text\":\"before\"}]}");
    assertThat(GateJson.decodeResumeCommand(json)).isEqualTo(full);
    ResumeCommand bare = ResumeCommand.of("c", "r", "th", "s", "f", new ResumeResult.Input("go"), 7);
    assertThat(write(GateJson.encodeResumeCommand(bare))).doesNotContain("operationId").doesNotContain("contextMessages");
    assertThat(GateJson.decodeResumeCommand(GateJson.encodeResumeCommand(bare))).isEqualTo(bare);
  }

  @Test
  void aDelegationWaitTakesInputOrAToolResultAndNothingElse() {
    AwaitTarget delegation = AwaitTarget.toolCall(ToolAwaitReason.DELEGATION, "call-1", TOOL);
    assertThat(ResumeValidation.kindLegal(delegation, new ResumeResult.Input("done"))).isTrue();
    assertThat(ResumeValidation.kindLegal(delegation,
        new ResumeResult.ToolResult(ToolOutput.success("call-1", Json.parse("1"))))).isTrue();
    assertThat(ResumeValidation.kindLegal(delegation, ResumeResult.allow())).isFalse();
  }

  // ---- §10 bounds and merging ----------------------------------------------------------------

  @Test
  void idBoundsAreWrittenInTheShapesOfTheTable() {
    assertThat(write(GateJson.encodeIdBound(IdBound.any()))).isEqualTo("{\"type\":\"any\"}");
    assertThat(write(GateJson.encodeIdBound(IdBound.exact(List.of("a", "b")))))
        .isEqualTo("{\"type\":\"exact\",\"ids\":[\"a\",\"b\"]}");
    assertThat(write(GateJson.encodeIdBound(IdBound.namespace("mcp__srv__"))))
        .isEqualTo("{\"type\":\"namespace\",\"prefix\":\"mcp__srv__\"}");
    IdBound both = IdBound.namespacedExact("mcp__srv__", List.of("mcp__srv__echo"));
    assertThat(write(GateJson.encodeIdBound(both)))
        .isEqualTo("{\"type\":\"namespacedExact\",\"prefix\":\"mcp__srv__\",\"ids\":[\"mcp__srv__echo\"]}");
    for (IdBound b : List.of(IdBound.any(), IdBound.exact(List.of("a")), IdBound.namespace("p"), both)) {
      assertThat(GateJson.decodeIdBound(GateJson.encodeIdBound(b))).isEqualTo(b);
    }
  }

  @Test
  void eachBoundAxisIsReadFromItsOwnKeyAndAnOmittedAxisDeniesAll() {
    String[] keys = {"tools", "stateKeys", "phaseHooks", "actionKinds", "runEndGuards", "toolGates", "toolConstraints"};
    BoundAxis[] axes = {BoundAxis.TOOL, BoundAxis.STATE_KEY, BoundAxis.PHASE_HOOK, BoundAxis.ACTION_KIND,
        BoundAxis.RUN_END_GUARD, BoundAxis.TOOL_GATE, BoundAxis.TOOL_CONSTRAINT};
    for (int i = 0; i < keys.length; i++) {
      CapabilityBound b = GateJson.decodeCapabilityBound(Json.parse("{\"" + keys[i] + "\":{\"type\":\"any\"}}"));
      for (int j = 0; j < axes.length; j++) {
        assertThat(b.axis(axes[j]).isDenyAll()).as(keys[i] + " read, axis " + axes[j]).isEqualTo(i != j);
      }
      assertThat(CapabilityBound.denyAll().with(axes[i], IdBound.any())).isEqualTo(b);
    }
  }

  @Test
  void readersNameTheMemberThatIsNotAStringOrNotAList() {
    assertThatThrownBy(() -> GateJson.decodeIdBound(Json.parse("{\"type\":\"exact\",\"ids\":\"a\"}")))
        .isInstanceOf(GateJsonException.class)
        .hasMessage("exact bound member \"ids\" must be an array of strings");
    assertThatThrownBy(() -> GateJson.decodeIdBound(Json.parse("{\"type\":\"exact\",\"ids\":[\"a\",1]}")))
        .hasMessage("exact bound member \"ids\" must be an array of strings");
    assertThat(GateJson.decodeIdBound(Json.parse("{\"type\":\"exact\"}"))).isEqualTo(IdBound.denyAll());
    assertThat(GateJson.decodeIdBound(Json.parse("{\"type\":\"exact\",\"ids\":[\"a\",\"b\"]}")))
        .isEqualTo(IdBound.exact(List.of("a", "b")));
    assertThatThrownBy(() -> GateJson.decodeIdBound(Json.parse("{\"type\":1}")))
        .hasMessage("id bound member \"type\" must be a string");
    assertThatThrownBy(() -> GateJson.decodeIdBound(Json.parse("{\"type\":\"namespace\"}")))
        .hasMessage("namespace bound needs \"prefix\"");
    assertThatThrownBy(() -> GateJson.decodeIdBound(Json.parse("[]"))).hasMessage("id bound must be a JSON object");
    assertThatThrownBy(() -> GateJson.decodeCapabilityBound(Json.parse("1"))).hasMessage("capability bound must be a JSON object");
  }

  @Test
  void aPluginNeedsANonEmptyIdAndGatesItContributes() {
    assertThatThrownBy(() -> GateJson.decodePlugin(Json.parse("{\"manifest\":{\"id\":\"\"}}")))
        .isInstanceOf(GateJsonException.class)
        .hasMessage("plugin id must be non-empty");
    assertThatThrownBy(() -> new PluginManifest("", List.of(), CapabilityBound.denyAll()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("plugin id must be non-empty");
    Plugin decoded = GateJson.decodePlugin(Json.parse(
        "{\"manifest\":{\"id\":\"p\",\"requires\":[\"q\"],\"bound\":{\"tools\":{\"type\":\"any\"}}},"
            + "\"contributions\":{\"tools\":[\"t\"],\"toolGates\":[\"g\"]}}"));
    assertThat(decoded.id()).isEqualTo("p");
    assertThat(decoded.manifest().requires()).containsExactly("q");
    assertThat(decoded.manifest().bound().axis(BoundAxis.TOOL)).isEqualTo(IdBound.any());
    assertThat(decoded.contributions().axis(BoundAxis.TOOL_GATE)).containsExactly("g");
    ToolGate stray = gate("elsewhere");
    assertThatThrownBy(() -> new Plugin(decoded.manifest(), decoded.contributions(), List.of(stray)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("plugin \"p\" has gate \"elsewhere\" that is not among its contributed tool gates");
    assertThat(new Plugin(decoded.manifest(), decoded.contributions(), List.of(gate("g"))).gates()).hasSize(1);
  }

  private static ToolGate gate(String id) {
    return ToolGate.named(id, (call, state) -> CompletableFuture.completedFuture(GateOutcome.allow()));
  }

  @Test
  void mergeErrorsAreWrittenWithTheirFieldsAndListsAsArrays() {
    CapabilityBound open = CapabilityBound.denyAll().withTools(IdBound.any());
    EnvMergeException cycle;
    try {
      ResolvedExecutionEnv.merge(List.of(
          Plugin.of(new PluginManifest("a", List.of("b"), open), Contributions.none()),
          Plugin.of(new PluginManifest("b", List.of("a"), open), Contributions.none())));
      throw new AssertionError("merge succeeded");
    } catch (EnvMergeException e) {
      cycle = e;
    }
    assertThat(write(GateJson.encodeMergeError(cycle))).isEqualTo(
        "{\"code\":\"dependencyCycle\",\"message\":\"plugin dependencies form a cycle among \\\"a\\\", \\\"b\\\"\","
            + "\"plugins\":[\"a\",\"b\"]}");
  }

  @Test
  void aMergeErrorKeepsItsCodeAcrossSerializationAndThenHasNoFields() throws Exception {
    EnvMergeException error;
    try {
      ResolvedExecutionEnv.merge(List.of(
          Plugin.of(new PluginManifest("a", List.of(), CapabilityBound.denyAll()), Contributions.none()),
          Plugin.of(new PluginManifest("a", List.of(), CapabilityBound.denyAll()), Contributions.none())));
      throw new AssertionError("merge succeeded");
    } catch (EnvMergeException e) {
      error = e;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(error);
    }
    EnvMergeException back;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      back = (EnvMergeException) in.readObject();
    }
    assertThat(back.code()).isEqualTo("duplicatePlugin");
    assertThat(back.getMessage()).isEqualTo("plugin \"a\" is listed more than once");
    assertThat(back.fields()).isEmpty();
  }
}

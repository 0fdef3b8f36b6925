package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.CapabilityBound;
import dev.horae.gate.Contributions;
import dev.horae.gate.EndCause;
import dev.horae.gate.Failure;
import dev.horae.gate.IdBound;
import dev.horae.gate.Plugin;
import dev.horae.gate.PluginManifest;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.gate.ToolPermissionVerdict;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.model.FinishReason;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.TokenUsage;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The gate chain under a Run (gate specification §1.3, §8, §10.4). */
class GateChainTest {

  private static Plugin plugin(String id, List<String> requires, List<String> kinds, ToolGate... gates) {
    List<String> gateIds = new ArrayList<>();
    for (ToolGate g : gates) {
      gateIds.add(g.id());
    }
    CapabilityBound bound = CapabilityBound.denyAll().withActionKinds(IdBound.any()).withToolGates(IdBound.any());
    return new Plugin(new PluginManifest(id, requires, bound),
        Contributions.of(List.of(), kinds, gateIds), List.of(gates));
  }

  private static ToolGate recording(String id, List<String> seen, GateOutcome outcome) {
    return ToolGate.named(id, (call, state) -> {
      seen.add(id);
      return CompletableFuture.completedFuture(outcome);
    });
  }

  private static List<String> decisions(Fixture f) {
    List<String> out = new ArrayList<>();
    f.session.events().stream().filter(e -> e.type().equals("gate/commit"))
        .forEach(e -> e.data().path("commit").path("events").forEach(ev -> {
          if (ev.path("type").asText().equals("permissionDecided")) {
            out.add(ev.path("decision").asText());
          }
        }));
    return out;
  }

  private static List<String> toolMessages(Fixture f) {
    List<String> out = new ArrayList<>();
    for (JsonNode m : f.store.view().committedMessages(f.thread())) {
      if (m.path("role").asText().equals("tool")) {
        out.add(m.path("content").asText());
      }
    }
    return out;
  }

  @Test
  void policyRunsFirstAndItsDenialIsFinal() {
    Fixture f = new Fixture();
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    f.gate(recording("host", seen, GateOutcome.allow()));
    RunContext ctx = f.ctx().withPolicy((call, state) -> ToolPermissionVerdict.deny("bound denial"));
    RunState s = f.runtime.execute(new RunActivation("run-1", f.thread(), Fixture.SNAPSHOT, "go"), ctx)
        .toCompletableFuture().join();
    assertThat(s).isEqualTo(RunState.ended(EndCause.naturalEnd()));
    assertThat(seen).isEmpty();
    assertThat(f.toolRuns).hasValue(0);
    assertThat(toolMessages(f)).containsExactly("blocked: bound denial");
    assertThat(decisions(f)).containsExactly("deny");
  }

  @Test
  void denyAllNarrowingAbsorbsAnyPolicy() {
    PermissionPolicy allow = (call, state) -> ToolPermissionVerdict.allow();
    assertThat(PermissionPolicy.denyAll("narrowed").intersect(allow)).isEqualTo(PermissionPolicy.denyAll("narrowed"));
    assertThat(allow.intersect(PermissionPolicy.denyAll("narrowed"))).isEqualTo(PermissionPolicy.denyAll("narrowed"));
  }

  @Test
  void hostGateThenPluginGatesInDependencyOrderFirstNonAllowWins() {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    // b requires a, listed first: dependency order is a, b
    Plugin b = plugin("b", List.of("a"), List.of(), recording("gate-b", seen, GateOutcome.block("b says no")));
    Plugin a = plugin("a", List.of(), List.of(), recording("gate-a", seen, GateOutcome.allow()));
    Fixture f = new Fixture(List.of(b, a), Set.of("a", "b"));
    f.gate(recording("host", seen, GateOutcome.allow()));

    assertThat(f.execute("run-1")).isEqualTo(RunState.ended(EndCause.naturalEnd()));
    assertThat(seen).containsExactly("host", "gate-a", "gate-b");
    assertThat(toolMessages(f)).containsExactly("blocked: b says no");
    assertThat(f.toolRuns).hasValue(0);
  }

  @Test
  void aPluginGateCannotWidenAHostBlock() {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    Plugin a = plugin("a", List.of(), List.of(), recording("gate-a", seen, GateOutcome.allow()));
    Fixture f = new Fixture(List.of(a), Set.of("a"));
    f.gate(recording("host", seen, GateOutcome.block("host says no")));
    f.execute("run-1");
    assertThat(seen).containsExactly("host");
    assertThat(toolMessages(f)).containsExactly("blocked: host says no");
  }

  @Test
  void unselectedPluginContributesNoGate() {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    Plugin a = plugin("a", List.of(), List.of(), recording("gate-a", seen, GateOutcome.block("no")));
    Fixture f = new Fixture(List.of(a), Set.of());
    f.execute("run-1");
    assertThat(seen).isEmpty();
    assertThat(f.toolRuns).hasValue(1);
    // nothing evaluated the call, so nothing is audited
    assertThat(decisions(f)).isEmpty();
  }

  @Test
  void onlyPluginGatesStillAudit() {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    Plugin a = plugin("a", List.of(), List.of(), recording("gate-a", seen, GateOutcome.allow()));
    Fixture f = new Fixture(List.of(a), Set.of("a"));
    f.execute("run-1");
    assertThat(f.toolRuns).hasValue(1);
    assertThat(decisions(f)).containsExactly("allow");
  }

  @Test
  void presentationAliasesAreMappedBackBeforeAnyGateSeesTheCall() {
    Fixture f = new Fixture();
    List<String> seenTools = Collections.synchronizedList(new ArrayList<>());
    f.gate((call, state) -> {
      seenTools.add(call.toolId());
      return CompletableFuture.completedFuture(GateOutcome.allow());
    });
    AgentRuntime aliased = AgentRuntime.builder(Fixture::script, f::echo).gates(f.gates).build();
    aliased.registerSnapshot(AgentSnapshot.of("aliased", Set.of(),
        List.of(new ToolDescriptor("echo", ToolRecoveryPolicy.neverReplay(), false, List.of("say"))), 4));
    RunState s = aliased.execute(new RunActivation("run-a", f.thread(), "aliased", "tool:say"), f.ctx())
        .toCompletableFuture().join();
    assertThat(s).isEqualTo(RunState.ended(EndCause.naturalEnd()));
    assertThat(seenTools).containsExactly("echo");
    assertThat(f.toolRuns).hasValue(1);
    assertThat(CatalogFingerprint.of(List.of(new ToolDescriptor("echo", ToolRecoveryPolicy.neverReplay(), false, List.of("say")))))
        .isNotEqualTo(CatalogFingerprint.of(List.of(ToolDescriptor.of("echo")))).startsWith("sha256:").hasSize(71);
  }

  @Test
  void setResultIsCommittedWithoutRunningTheTool() {
    Fixture f = new Fixture();
    f.gate((call, state) -> CompletableFuture.completedFuture(
        GateOutcome.setResult(ToolOutput.success(call.callId(), Json.parse("\"cached\"")))));
    assertThat(f.execute("run-1")).isEqualTo(RunState.ended(EndCause.naturalEnd()));
    assertThat(toolMessages(f)).containsExactly("cached");
    assertThat(decisions(f)).containsExactly("set_result");
    assertThat(f.toolRuns).hasValue(0);
  }

  @Test
  void aGateThatThrowsFailsTheExecutionNeverAllows() {
    Fixture f = new Fixture();
    f.gate((call, state) -> {
      throw new IllegalStateException("boom");
    });
    assertThatThrownBy(() -> f.execute("run-1"))
        .isInstanceOf(CompletionException.class)
        .cause().isInstanceOf(GateRuntimeException.Execution.class)
        .satisfies(e -> assertThat(((GateRuntimeException) e).display())
            .isEqualTo("runtime execution failed: tool gate failed: boom"));
    assertThat(f.toolRuns).hasValue(0);
  }

  @Test
  void unpermittedActionKindEndsWithCapabilityBoundNoTicketNoTool() {
    Fixture f = new Fixture();
    f.gate((call, state) -> CompletableFuture.completedFuture(GateOutcome.schedule("sched-1", "remind")));
    RunState s = f.execute("run-1");
    assertThat(s).isEqualTo(RunState.ended(EndCause.error(Failure.capabilityBound())));
    assertThat(f.store.view().resumeTicket("run-1")).isEmpty();
    assertThat(f.runFacts("run-1")).doesNotContain("awaiting").last().isEqualTo("ended(error)");
    assertThat(f.toolRuns).hasValue(0);
    assertThat(f.liveEvents).anySatisfy(e -> assertThat(e.path("code").asText()).isEqualTo("capability_bound"));
  }

  @Test
  void permittedActionKindParksWithoutStoringTheKind() {
    Plugin p = plugin("p", List.of(), List.of("remind"));
    Fixture f = new Fixture(List.of(p), Set.of("p"));
    f.gate((call, state) -> CompletableFuture.completedFuture(GateOutcome.schedule("sched-1", "remind")));
    assertThat(f.execute("run-1")).isEqualTo(RunState.awaiting());
    ResumeTicket t = f.store.view().resumeTicket("run-1").orElseThrow();
    assertThat(dev.horae.gate.GateJson.encodeTicket(t).toString()).doesNotContain("remind");
    assertThat(f.perform("run-1")).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
  }

  @Test
  void environmentViolatingItsBoundEndsBeforeAnyModelCall() {
    Plugin bad = Plugin.of(new PluginManifest("bad", List.of(), CapabilityBound.denyAll()),
        Contributions.of(List.of("sneaky"), List.of(), List.of()));
    Fixture f = new Fixture(List.of(bad), Set.of("bad"));
    assertThat(f.execute("run-1")).isEqualTo(RunState.ended(EndCause.error(Failure.capabilityBound())));
    assertThat(f.runFacts("run-1")).containsExactly("ended(error)");
  }

  @Test
  void anEnvironmentThatViolatesItsBoundAtResumeCommitsCapabilityBound() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    f.execute("run-1");
    Plugin bad = Plugin.of(new PluginManifest("bad", List.of(), CapabilityBound.denyAll()),
        Contributions.of(List.of("sneaky"), List.of(), List.of()));
    AgentRuntime changed = AgentRuntime.builder(Fixture::script, f::echo).plugin(bad).build();
    AgentSnapshot same = f.runtime.snapshot(Fixture.SNAPSHOT).orElseThrow();
    changed.registerSnapshot(new AgentSnapshot(same.id(), same.catalogFingerprint(), Set.of("bad"), same.tools(), 8));

    ResumeOutcome o = changed.performScheduledAction("run-1", f.ctx(), 0).toCompletableFuture().join();

    assertThat(o).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.error(Failure.capabilityBound()))));
    assertThat(f.toolRuns).hasValue(0);
    assertThat(f.store.view().resumeTicket("run-1")).isEmpty();
  }

  @Test
  void permissionApprovalRunsTheCommittedCallOnce() {
    Fixture f = new Fixture();
    f.gate((call, state) -> CompletableFuture.completedFuture(GateOutcome.requireConfirmation("ask-1")));
    assertThat(f.execute("run-1")).isEqualTo(RunState.awaiting());
    ResumeTicket t = f.store.view().resumeTicket("run-1").orElseThrow();
    ResumeOutcome o = f.runtime.resume(ResumeCommand.fromTicket(t, ResumeResult.allow(), 0), f.ctx())
        .toCompletableFuture().join();
    assertThat(o).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
    assertThat(f.toolRuns).hasValue(1);
    assertThat(decisions(f)).containsExactly("ask", "approved");
    assertThat(f.operationIds).containsExactly("tool-batch:run-1:1:call-1");
  }

  @Test
  void clientExecutedToolBypassesGatesAndTakesOnlyItsOwnResult() {
    Fixture f = new Fixture();
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    f.gate(recording("host", seen, GateOutcome.block("never")));
    assertThat(f.execute("run-1", "tool:client")).isEqualTo(RunState.awaiting());
    assertThat(seen).isEmpty();
    ResumeTicket t = f.store.view().resumeTicket("run-1").orElseThrow();
    assertThat(t.correlationId()).isEqualTo("call-1");

    ResumeOutcome wrong = f.runtime.resume(ResumeCommand.fromTicket(t,
        new ResumeResult.ToolResult(ToolOutput.success("other", Json.parse("1"))), 0), f.ctx()).toCompletableFuture().join();
    assertThat(((ResumeOutcome.Rejected) wrong).code()).isEqualTo("toolCallMismatch");

    ResumeOutcome ok = f.runtime.resume(ResumeCommand.fromTicket(t,
        new ResumeResult.ToolResult(ToolOutput.success("call-1", Json.parse("\"client-computed\""))), 0), f.ctx())
        .toCompletableFuture().join();
    assertThat(ok).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
    assertThat(toolMessages(f)).containsExactly("client-computed");
    assertThat(f.toolRuns).hasValue(0);
  }

  @Test
  void inferenceFailureEndsWithItsClassification() {
    Fixture f = new Fixture();
    AgentRuntime failing = AgentRuntime.builder(
        r -> CompletableFuture.failedFuture(new InferenceException("rate_limited", "429")), f::echo).build();
    failing.registerSnapshot(f.runtime.snapshot(Fixture.SNAPSHOT).orElseThrow());
    RunState s = failing.execute(new RunActivation("run-x", f.thread(), Fixture.SNAPSHOT, "go"), f.ctx())
        .toCompletableFuture().join();
    assertThat(s).isEqualTo(RunState.ended(EndCause.error(new Failure.Inference("rate_limited", "429"))));
  }

  @Test
  void aResponseCutAtTheTokenLimitRunsNoneOfItsCallsAndEndsTheRunMaxTokens() {
    Fixture f = new Fixture();
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    f.gate(recording("host", seen, GateOutcome.allow()));
    dev.horae.spi.gate.ToolCall cut = new dev.horae.spi.gate.ToolCall("call-1", "echo", Json.parse("{\"text\":\"pi\"}"));
    List<JsonNode> live = Collections.synchronizedList(new ArrayList<>());
    AgentRuntime cutting = AgentRuntime.builder(r -> CompletableFuture.completedFuture(new ModelResponse("partial",
            List.of(cut), FinishReason.MAX_TOKENS, new TokenUsage(10, 4096))), f::echo)
        .gates(f.gates)
        .listener(new RunListener() {
          @Override
          public void onEvent(JsonNode event) {
            live.add(event);
          }
        }).build();
    cutting.registerSnapshot(f.runtime.snapshot(Fixture.SNAPSHOT).orElseThrow());

    RunState s = cutting.execute(new RunActivation("run-t", f.thread(), Fixture.SNAPSHOT, "go"), f.ctx())
        .toCompletableFuture().join();

    assertThat(s).isEqualTo(RunState.ended(EndCause.error(new Failure.Inference(Inference.MAX_TOKENS_CODE,
        "the model output reached its token limit; the cut response was not acted on"))));
    assertThat(seen).as("no gate sees a call of a cut response").isEmpty();
    assertThat(f.toolRuns).hasValue(0);
    // the cut response is on record as the model gave it, with no tool result and no batch
    List<JsonNode> messages = f.store.view().committedMessages(f.thread());
    JsonNode assistant = messages.get(messages.size() - 1);
    assertThat(assistant.path("role").asText()).isEqualTo("assistant");
    assertThat(assistant.path("content").asText()).isEqualTo("partial");
    assertThat(assistant.path("toolCalls").get(0).path("callId").asText()).isEqualTo("call-1");
    assertThat(toolMessages(f)).isEmpty();
    assertThat(f.store.view().committedRunState("run-t")).doesNotContainKey(ToolBatch.STATE_KEY);
    assertThat(live).anySatisfy(e -> {
      assertThat(e.path("type").asText()).isEqualTo("runFailed");
      assertThat(e.path("code").asText()).isEqualTo("max_tokens");
    });
  }

  @Test
  void aTextAnswerCutAtTheTokenLimitIsNotANaturalEnd() {
    Fixture f = new Fixture();
    AgentRuntime cutting = AgentRuntime.builder(r -> CompletableFuture.completedFuture(
        new ModelResponse("the answer is", List.of(), FinishReason.MAX_TOKENS, TokenUsage.UNKNOWN)), f::echo).build();
    cutting.registerSnapshot(f.runtime.snapshot(Fixture.SNAPSHOT).orElseThrow());
    RunState s = cutting.execute(new RunActivation("run-c", f.thread(), Fixture.SNAPSHOT, "go"), f.ctx())
        .toCompletableFuture().join();
    assertThat(s).isInstanceOfSatisfying(RunState.Ended.class, e -> assertThat(e.cause())
        .isInstanceOfSatisfying(EndCause.Failed.class, x -> assertThat(x.failure().code()).isEqualTo("max_tokens")));
  }

  @Test
  void theStepCeilingEndsWithMaxSteps() {
    Fixture f = new Fixture();
    AgentRuntime looping = AgentRuntime.builder(r -> CompletableFuture.completedFuture(
        ModelResponse.calls(new dev.horae.spi.gate.ToolCall("c" + r.step(), "echo", Json.parse("{}")))), f::echo).build();
    looping.registerSnapshot(AgentSnapshot.of("loop", Set.of(), List.of(ToolDescriptor.of("echo")), 3));
    RunState s = looping.execute(new RunActivation("run-l", f.thread(), "loop", "go"), f.ctx()).toCompletableFuture().join();
    assertThat(s).isEqualTo(RunState.ended(EndCause.maxSteps()));
    assertThat(f.toolRuns).hasValue(3);
  }
}

package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.gate.GateJson;
import dev.horae.gate.Plugin;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The order of the gate chain on the production turn engine (gate specification §1.3): the host
 * gate, the registered gates, then the gate plugins' gates in the environment's dependency order;
 * the first outcome that is not Allow is final, so a later gate never widens an earlier one, and a
 * gate that throws never allows.
 */
@Timeout(30)
class GateChainRulesTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z"));

  private static HoraeRuntimeTest.Recording callThenDone() {
    return new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "act", Json.parse("{}"))))
        .then(ModelResponse.text("done"));
  }

  /** A gate that writes its id down and answers {@code outcome}. */
  private static ToolGate recording(String id, List<String> seen, GateOutcome outcome) {
    return ToolGate.named(id, (call, state) -> {
      seen.add(id);
      return CompletableFuture.completedFuture(outcome);
    });
  }

  /** A gate plugin {@code id} bringing one gate {@code id}, requiring {@code requires}. */
  private static Plugin plugin(String id, String requires, List<String> seen, GateOutcome outcome) {
    Plugin declared = GateJson.decodePlugin(Json.parse("{\"manifest\":{\"id\":\"" + id + "\",\"requires\":[" + requires
        + "],\"bound\":{\"toolGates\":{\"type\":\"any\"}}},\"contributions\":{\"toolGates\":[\"" + id + "\"]}}"));
    return new Plugin(declared.manifest(), declared.contributions(), List.of(recording(id, seen, outcome)));
  }

  /** Prompts a fresh agent and waits for its turn to end; returns the agent. */
  private static RuntimeAgent turn(HoraeRuntime horae, String sessionId) throws Exception {
    CountDownLatch ended = new CountDownLatch(1);
    var unused = horae.agents().onTurnEnd(o -> ended.countDown());
    RuntimeAgent agent = horae.openAgent(sessionId);
    horae.prompt(agent, "act");
    assertThat(ended.await(20, TimeUnit.SECONDS)).isTrue();
    agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
    return agent;
  }

  private static List<String> results(RuntimeAgent agent) {
    return agent.session().events().stream().filter(e -> e.type().equals(EventTypes.TOOL_RESULT))
        .map(e -> e.data().path("content").get(0).path("text").asText()).toList();
  }

  @Test
  void theHostGateThenTheRegisteredGatesThenThePluginGatesInDependencyOrderAndTheFirstNonAllowWins() throws Exception {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger runs = new AtomicInteger();
    // "late" requires "early", so "early" runs first although it is listed second
    List<Plugin> plugins = List.of(
        plugin("late", "\"early\"", seen, GateOutcome.block("late says no")),
        plugin("early", "", seen, GateOutcome.allow()));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(callThenDone()).gatePlugins(plugins).build()) {
      horae.tools().register(TurnEngineRulesTest.counting("act", runs));
      var unusedRegistered = horae.gates().register(recording("registered", seen, GateOutcome.allow()));
      var unusedHost = horae.gates().registerHostGate(recording("host", seen, GateOutcome.allow()));
      RuntimeAgent agent = turn(horae, "s-order");

      assertThat(seen).containsExactly("host", "registered", "early", "late");
      assertThat(results(agent)).containsExactly("Error: blocked: late says no");
      assertThat(DurableDispatchRulesTest.lastTurnEnd(agent)).isEqualTo("completed");
    }
    assertThat(runs).as("a plugin gate's block is final").hasValue(0);
  }

  @Test
  void noLaterGateWidensAHostBlockNorIsItAsked() throws Exception {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger runs = new AtomicInteger();
    List<Plugin> plugins = List.of(plugin("widen", "", seen, GateOutcome.setResult(
        dev.horae.spi.gate.ToolOutput.success("c1", Json.parse("\"allowed anyway\"")))));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(callThenDone()).gatePlugins(plugins).build()) {
      horae.tools().register(TurnEngineRulesTest.counting("act", runs));
      var unusedHost = horae.gates().registerHostGate(recording("host", seen, GateOutcome.block("host says no")));
      var unusedRegistered = horae.gates().register(recording("registered", seen, GateOutcome.allow()));
      RuntimeAgent agent = turn(horae, "s-host-block");

      assertThat(seen).containsExactly("host");
      assertThat(results(agent)).containsExactly("Error: blocked: host says no");
    }
    assertThat(runs).hasValue(0);
  }

  @Test
  void aGateThatThrowsOrFailsNeverAllowsTheCallAndTheTurnEndsError() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    for (boolean throwing : new boolean[] {true, false}) {
      List<String> seen = Collections.synchronizedList(new ArrayList<>());
      List<Plugin> plugins = List.of(plugin("after", "", seen, GateOutcome.allow()));
      try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(callThenDone()).gatePlugins(plugins)
          .warnings((m, c) -> { }).build()) {
        horae.tools().register(TurnEngineRulesTest.counting("act", runs));
        var unusedBroken = horae.gates().register(ToolGate.named("broken", (call, state) -> {
          if (throwing) {
            throw new IllegalStateException("gate bug");
          }
          return CompletableFuture.failedFuture(new IllegalStateException("gate backend down"));
        }));
        RuntimeAgent agent = turn(horae, throwing ? "s-throws" : "s-fails");

        assertThat(seen).as("no gate after a failed one is asked").isEmpty();
        assertThat(DurableDispatchRulesTest.lastTurnEnd(agent)).isEqualTo("error");
      }
    }
    assertThat(runs).as("a failed gate never allows").hasValue(0);
  }
  @Test
  void theCommitThatParksACallCarriesTheBatchTheTicketAndTheAuditInAssemblyOrder() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(callThenDone()).dispatchScheduledActions(false).build()) {
      horae.tools().register(TurnEngineRulesTest.counting("act", new AtomicInteger()));
      var unusedGate = horae.gates().register(ToolGate.named("later",
          (call, state) -> CompletableFuture.completedFuture(GateOutcome.schedule("sched-1"))));
      RuntimeAgent agent = TurnEngineRulesTest.parkedAgent(horae, "s-audit");

      com.fasterxml.jackson.databind.JsonNode commit = agent.session().events().stream()
          .filter(e -> e.type().equals("gate/commit")).findFirst().orElseThrow().data().path("commit");
      assertThat(commit.path("run").path("type").asText()).isEqualTo("awaiting");
      assertThat(commit.path("run").path("ticket").path("correlationId").asText()).isEqualTo("sched-1");
      assertThat(commit.path("run").path("ticket").path("target").path("reason").asText()).isEqualTo("scheduledAction");
      assertThat(commit.path("state").get(0).path("key").asText()).isEqualTo("runtime.active_tool_batch.v1");
      assertThat(commit.path("state").get(0).path("value").path("calls").get(0).path("phase").path("type").asText())
          .isEqualTo("awaiting");
      // the event assembly order (gate specification §5.2), then the audit of the gate decision (§1.4)
      assertThat(java.util.stream.StreamSupport.stream(commit.path("events").spliterator(), false).map(e -> e.path("type").asText()))
          .containsExactly("runStateChanged", "stateChanged", "runAwaiting", "permissionDecided");
      assertThat(commit.path("events").get(3).path("decision").asText()).isEqualTo("schedule");
      assertThat(commit.path("events").get(3).path("callId").asText()).isEqualTo("c1");
    }
  }
}

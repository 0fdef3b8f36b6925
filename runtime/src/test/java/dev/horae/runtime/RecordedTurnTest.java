package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.runtime.agent.RecordedTurn;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.model.FinishReason;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.TokenUsage;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolResult;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A turn a framework's loop drives is written with the runtime's own turn writer: the same events
 * in the same order as a runtime-driven turn, the gate chain in front of every call, and no call
 * left without a result.
 */
@Timeout(30)
class RecordedTurnTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z"));

  private static ModelResponse echoCall() {
    return new ModelResponse("", List.of(new ToolCall("c1", "echo", Json.parse("{\"text\":\"hi\"}"))),
        FinishReason.TOOL_CALLS, new TokenUsage(12, 3));
  }

  private static ToolDefinition echo(AtomicInteger runs) {
    return ToolDefinition.builder("echo")
        .description("Echoes its text.")
        .parameters(Json.parse("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}"))
        .body((args, exec) -> {
          runs.incrementAndGet();
          return CompletableFuture.completedFuture(Json.parse("{\"echoed\":" + Json.write(args.get("text")) + "}"));
        })
        .build();
  }

  /** The events from the turn's start on, user messages reduced to their text (ids differ per session). */
  private static List<String> turnEvents(RuntimeAgent agent) {
    List<SessionEvent> events = agent.session().events();
    int start = 0;
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).type().equals(EventTypes.TURN_START)) {
        start = i;
      }
    }
    return events.subList(start, events.size()).stream().map(e -> {
      JsonNode d = e.data();
      if (e.type().equals(EventTypes.USER_MESSAGE)) {
        ObjectNode only = Json.mapper().createObjectNode();
        only.set("text", d.path("content"));
        d = only;
      }
      return e.type() + " " + Json.write(d);
    }).toList();
  }

  @Test
  void aRecordedTurnWritesWhatTheRuntimesOwnTurnWritesForTheSameAnswers() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording().then(echoCall()).then(ModelResponse.text("done"));
    List<String> driven;
    List<String> recorded;
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      horae.tools().register(echo(runs));
      RuntimeAgent agent = horae.openAgent("s-driven");
      horae.prompt(agent, "echo hi");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      driven = turnEvents(agent);

      RuntimeAgent other = horae.openAgent("s-recorded");
      RecordedTurn t = other.beginRecordedTurn();
      assertThat(t.turn()).isEqualTo(1);
      assertThat(t.runId()).isEqualTo(dev.horae.runtime.gate.TurnRun.runId("s-recorded", 1));
      StepDecision first = t.beginStep(List.of(horae.messages().text("echo hi", MessageSource.user())))
          .toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(first).isInstanceOf(StepDecision.Enter.class);
      t.recordResponse(echoCall());
      RecordedTurn.ToolOutcome outcome = t.callTool(new ToolCall("c1", "echo", Json.parse("{\"text\":\"hi\"}")))
          .toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(outcome).isInstanceOfSatisfying(RecordedTurn.ToolOutcome.Answered.class,
          a -> assertThat(a.result().isError()).isFalse());
      t.beginStep(List.of()).toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(t.step()).isEqualTo(2);
      t.recordResponse(ModelResponse.text("done"));
      t.end("completed", "unused");
      recorded = turnEvents(other);
      assertThat(other.whenIdle().toCompletableFuture().get(5, TimeUnit.SECONDS)).isNull();
    }
    assertThat(recorded).isEqualTo(driven);
    assertThat(recorded).first().asString().startsWith(EventTypes.TURN_START);
    assertThat(recorded).last().asString().contains("\"reason\":\"completed\"");
    assertThat(runs).hasValue(2);
  }

  @Test
  void gatesAnswerOrHoldEveryCallAndTheEndAnswersWhatWasHeld() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      horae.tools().register(echo(runs));
      horae.gates().register(ToolGate.named("test-gate", (call, state) -> CompletableFuture.completedFuture(
          call.arguments().path("text").asText().equals("blocked") ? GateOutcome.block("not today")
              : call.arguments().path("text").asText().equals("confirm") ? GateOutcome.requireConfirmation("k1")
              : GateOutcome.allow())));
      RuntimeAgent agent = horae.openAgent("s-gated");
      RecordedTurn t = agent.beginRecordedTurn();
      assertThatThrownBy(() -> t.recordResponse(ModelResponse.text("early")))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("no open step");
      assertThatThrownBy(() -> agent.beginRecordedTurn()).isInstanceOf(IllegalStateException.class);
      t.beginStep(List.of(horae.messages().text("go", MessageSource.user()))).toCompletableFuture().get(5, TimeUnit.SECONDS);
      ToolCall blocked = new ToolCall("b1", "echo", Json.parse("{\"text\":\"blocked\"}"));
      ToolCall held = new ToolCall("h1", "echo", Json.parse("{\"text\":\"confirm\"}"));
      t.recordResponse(new ModelResponse("", List.of(blocked, held), FinishReason.TOOL_CALLS, TokenUsage.UNKNOWN));

      RecordedTurn.ToolOutcome b = t.callTool(blocked).toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(b).isInstanceOfSatisfying(RecordedTurn.ToolOutcome.Answered.class,
          a -> assertThat(a.result().text()).isEqualTo("Error: blocked: not today"));
      RecordedTurn.ToolOutcome h = t.callTool(held).toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(h).isInstanceOfSatisfying(RecordedTurn.ToolOutcome.WouldPark.class,
          p -> assertThat(p.outcome()).isInstanceOf(GateOutcome.RequireConfirmation.class));
      // an application's own tool behind the same chain: the runner's failure is recorded, then thrown
      ToolCall own = new ToolCall("o1", "app-tool", Json.parse("{\"text\":\"x\"}"));
      assertThatThrownBy(() -> t.callTool(own, c -> {
        throw new IllegalArgumentException("the app tool broke");
      }).toCompletableFuture().get(5, TimeUnit.SECONDS)).hasRootCauseMessage("the app tool broke");
      t.recordToolRun(new ToolCall("o2", "app-tool", Json.parse("{}")), ToolResult.error("Error: app said no", java.util.Optional.empty()));
      t.end("error", "the call failed");
      t.end("completed", "a second end does nothing");

      List<SessionEvent> results = agent.session().events().stream()
          .filter(e -> e.type().equals(EventTypes.TOOL_RESULT)).toList();
      assertThat(results).extracting(e -> e.data().path("callId").asText() + ": " + e.data().path("content").get(0).path("text").asText())
          .containsExactly(
              "b1: Error: blocked: not today",
              "o1: Error: the app tool broke",
              "o2: Error: app said no",
              "h1: Error: not performed: the call failed");
      List<SessionEvent> events = agent.session().events();
      assertThat(events.get(events.size() - 1).data().path("reason").asText()).isEqualTo("error");
      assertThat(events.stream().filter(e -> e.type().equals(EventTypes.TURN_END)).count()).isEqualTo(1);
      assertThat(runs).hasValue(0);
      assertThatThrownBy(() -> t.beginStep(List.of())).isInstanceOf(IllegalStateException.class).hasMessageContaining("has ended");
      // the agent is free again once the turn ended
      agent.beginRecordedTurn().close();
    }
  }

  @Test
  void aRejectedStepWritesNothingOfTheStep() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      horae.agents().onPreStep(step -> CompletableFuture.completedFuture(new StepDecision.Reject("no steps today")), false);
      RuntimeAgent agent = horae.openAgent("s-rejected");
      RecordedTurn t = agent.beginRecordedTurn();
      int before = agent.session().events().size();
      StepDecision d = t.beginStep(List.of(horae.messages().text("go", MessageSource.user())))
          .toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(d).isInstanceOf(StepDecision.Reject.class);
      assertThat(agent.session().events()).hasSize(before);
      assertThatThrownBy(() -> t.recordResponse(ModelResponse.text("x"))).isInstanceOf(IllegalStateException.class);
      t.close();
      assertThat(agent.session().events()).extracting(SessionEvent::type)
          .containsExactly(EventTypes.TURN_START, EventTypes.TURN_END);
    }
  }

  @Test
  void aGateSeesTheRecordedTurnsRunAndStepAndEveryGateOutcomeIsRecordedItsWay() throws Exception {
    List<String> seen = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      horae.gates().register(ToolGate.named("by-tool", (call, state) -> {
        seen.add(call.callId() + " " + state.runId() + " " + state.threadId() + " " + state.step() + " " + state.state("k").isPresent());
        return CompletableFuture.completedFuture(switch (call.toolId()) {
          case "answered" -> GateOutcome.setResult(dev.horae.spi.gate.ToolOutput.success(call.callId(), Json.parse("{\"v\":1}")));
          case "later" -> GateOutcome.schedule("corr-" + call.callId());
          default -> GateOutcome.allow();
        });
      }));
      var unusedSection = horae.service(dev.horae.spi.jobs.PromptSections.class).orElseThrow()
          .register(java.util.Optional.empty(), new dev.horae.spi.jobs.PromptSection("rules", 1, "Be brief."));
      RuntimeAgent agent = horae.openAgent("s-view");
      RecordedTurn t = agent.beginRecordedTurn();
      assertThat(agent.status()).isEqualTo(dev.horae.spi.agent.AgentStatus.RUNNING);
      assertThat(t.step()).isZero();
      assertThat(t.systemPrompt("You are a bot.")).isEqualTo("You are a bot.\n\nBe brief.");
      assertThat(t.systemPrompt("")).isEqualTo("Be brief.");
      t.beginStep(List.of(horae.messages().text("go", MessageSource.user()))).toCompletableFuture().get(5, TimeUnit.SECONDS);
      ToolCall answered = new ToolCall("a1", "answered", Json.parse("{}"));
      ToolCall later = new ToolCall("l1", "later", Json.parse("{}"));
      t.recordResponse(new ModelResponse("", List.of(answered, later), FinishReason.TOOL_CALLS, TokenUsage.UNKNOWN));
      RecordedTurn.ToolOutcome a = t.callTool(answered).toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(a).isInstanceOfSatisfying(RecordedTurn.ToolOutcome.Answered.class, r -> {
        assertThat(r.result().isError()).isFalse();
        assertThat(r.result().text()).isEqualTo("{\"v\":1}");
      });
      assertThat(t.callTool(later).toCompletableFuture().get(5, TimeUnit.SECONDS))
          .isInstanceOfSatisfying(RecordedTurn.ToolOutcome.WouldPark.class, p -> assertThat(p.outcome()).isInstanceOf(GateOutcome.Schedule.class));
      t.beginStep(List.of()).toCompletableFuture().get(5, TimeUnit.SECONDS);
      t.recordResponse(new ModelResponse("", List.of(new ToolCall("s2", "plain", Json.parse("{}"))), FinishReason.TOOL_CALLS,
          TokenUsage.UNKNOWN));
      // a failure the runner reports wrapped reads as its cause
      assertThatThrownBy(() -> t.callTool(new ToolCall("s2", "plain", Json.parse("{}")),
          c -> CompletableFuture.failedFuture(new java.util.concurrent.CompletionException(new IllegalStateException("wrapped no"))))
          .toCompletableFuture().get(5, TimeUnit.SECONDS)).hasRootCauseMessage("wrapped no");
      t.end("completed", "the turn ended first");
      assertThat(agent.status()).isEqualTo(dev.horae.spi.agent.AgentStatus.IDLE);

      String run = t.runId();
      assertThat(seen).containsExactly("a1 " + run + " s-view 1 false", "l1 " + run + " s-view 1 false", "s2 " + run + " s-view 2 false");
      List<SessionEvent> events = agent.session().events();
      assertThat(events.stream().filter(e -> e.type().equals(EventTypes.TOOL_RESULT))
          .map(e -> e.data().path("callId").asText() + " step " + e.data().path("step").asLong() + ": "
              + e.data().path("content").get(0).path("text").asText()).toList())
          .containsExactly("a1 step 1: {\"v\":1}", "s2 step 2: Error: wrapped no",
              "l1 step 2: Error: not performed: the turn ended first");
      // the call a gate would have parked in step 1 stays unanswered through the next model answer and
      // is answered at the end, inside the open step, so no request ever carries it without a result
      assertThat(events.stream().map(SessionEvent::type).toList()).containsSubsequence(EventTypes.STEP_END, EventTypes.STEP_START,
          EventTypes.TOOL_RESULT, EventTypes.STEP_END, EventTypes.TURN_END);
    }
  }

  @Test
  void aTurnEndedBeforeAnyStepAnswersItsCallsInStepOneAndRefusesEverythingAfter() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      RuntimeAgent agent = horae.openAgent("s-empty");
      RecordedTurn t = agent.beginRecordedTurn();
      assertThatThrownBy(() -> t.recordToolRun(new ToolCall("x", "t", Json.parse("{}")), ToolResult.error("Error: x", java.util.Optional.empty())))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("turn 1 of agent \"s-empty\" has no open step; call beginStep first");
      t.close();
      assertThat(agent.session().events()).extracting(SessionEvent::type).containsExactly(EventTypes.TURN_START, EventTypes.TURN_END);
      assertThat(agent.session().events().get(1).data().path("reason").asText()).isEqualTo("completed");
      assertThatThrownBy(() -> t.recordResponse(ModelResponse.text("late")))
          .isInstanceOf(IllegalStateException.class).hasMessage("turn 1 of agent \"s-empty\" has ended");
      // the next recorded turn of the session is numbered after it
      RecordedTurn second = agent.beginRecordedTurn();
      assertThat(second.turn()).isEqualTo(2);
      second.close();
    }
  }
}

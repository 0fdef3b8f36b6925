package dev.horae.testkit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.testkit.TestHost;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class TurnLoopTest {

  private final TestHost host = TestHost.builder().build();

  @Test
  void aToolCallingTurnWritesTheContractsEventOrder() {
    host.tools().register(ToolDefinition.builder("echo")
        .body((args, exec) -> CompletableFuture.completedFuture(args))
        .build());
    TestAgent agent = host.createAgent().useModel(new ScriptedModel().thenCall("echo", Json.parse("{\"x\":1}")).thenText("done"));
    host.prompt(agent, "go");
    host.settle();

    assertThat(types(agent)).containsExactly(
        "turn/start", "step/start", "user/message", "request/header", "assistant/message", "tool/call", "tool/result", "step/end",
        "step/start", "request/header", "assistant/chunk", "assistant/message", "step/end", "turn/end");
    SessionEvent result = agent.session().events().get(6);
    assertThat(result.data().path("value").path("x").asInt()).isEqualTo(1);
    assertThat(last(agent).data().path("reason").asText()).isEqualTo("completed");
  }

  @Test
  void waterfallRunsPrependedListenersOutermostAndRejectEndsTheTurnBlockedWithoutAStep() {
    List<String> order = new ArrayList<>();
    host.agents().onPreStep(step -> {
      order.add("plain");
      return CompletableFuture.completedFuture(new StepDecision.Reject("no"));
    }, false);
    host.agents().onPreStep(step -> {
      order.add("prepended");
      return step.next();
    }, true);
    TestAgent agent = host.createAgent().useModel(new ScriptedModel());
    host.prompt(agent, "go");
    host.settle();

    assertThat(order).containsExactly("prepended", "plain");
    assertThat(types(agent)).containsExactly("turn/start", "turn/end");
    assertThat(last(agent).data().path("reason").asText()).isEqualTo("blocked");
  }

  @Test
  void aListenerFailureEntersNoStepAndEndsTheTurnWithError() {
    host.agents().onPreStep(step -> {
      throw new IllegalStateException("boom");
    }, false);
    TestAgent agent = host.createAgent().useModel(new ScriptedModel());
    host.prompt(agent, "go");
    host.settle();
    assertThat(types(agent)).containsExactly("turn/start", "turn/end");
    assertThat(last(agent).data().path("reason").asText()).isEqualTo("error");
  }

  @Test
  void aListenerCanAddAMessageToTheEnterDecision() {
    host.agents().onPreStep(step -> step.next().thenApply(d -> {
      List<UserMessage> more = new ArrayList<>(((StepDecision.Enter) d).messages());
      more.add(host.messages().text("reading", MessageSource.plugin("time-context")));
      return new StepDecision.Enter(more);
    }), true);
    ScriptedModel model = new ScriptedModel();
    TestAgent agent = host.createAgent().useModel(model);
    host.prompt(agent, "go");
    host.settle();
    assertThat(model.requests().get(0).latestUserMessages()).extracting(ChatMessage.User::text).containsExactly("go", "reading");
  }

  @Test
  void aFailedModelRequestStillWritesStepEndAndEndsWithError() {
    TestAgent agent = host.createAgent().useModel(new ScriptedModel().thenFail("overloaded"));
    host.prompt(agent, "go");
    host.settle();
    assertThat(types(agent)).containsExactly("turn/start", "step/start", "user/message", "request/header", "step/end", "turn/end");
    assertThat(last(agent).data().path("reason").asText()).isEqualTo("error");
  }

  @Test
  void turnNumbersContinueAcrossTurnsAndAcrossRestart() {
    TestAgent agent = host.createAgent().useModel(new ScriptedModel());
    host.prompt(agent, "one");
    host.settle();
    host.prompt(agent, "two");
    host.settle();
    host.sessions().flush(agent.session()).toCompletableFuture().join();

    TestHost restarted = host.restart();
    TestAgent again = restarted.agentFor(restarted.sessions().get(agent.id()).orElseThrow()).useModel(new ScriptedModel());
    restarted.prompt(again, "three");
    restarted.settle();
    assertThat(again.session().events().stream().filter(e -> e.type().equals("turn/start")).map(e -> e.data().get("turn").asInt()))
        .containsExactly(1, 2, 3);
  }

  @Test
  void aBlockingGateKeepsTheToolBodyFromRunning() {
    host.tools().register(ToolDefinition.builder("rm").body((a, e) -> CompletableFuture.completedFuture(a)).build());
    host.gates().register(dev.horae.spi.gate.ToolGate.named("deny-rm", (call, state) ->
        CompletableFuture.completedFuture(GateOutcome.block("not allowed"))));
    TestAgent agent = host.createAgent().useModel(new ScriptedModel().thenCall("rm", Json.parse("{}")));
    host.prompt(agent, "go");
    host.settle();
    assertThat(host.tools().bodyRuns()).isZero();
    SessionEvent result = agent.session().events().stream().filter(e -> e.type().equals("tool/result")).findFirst().orElseThrow();
    assertThat(result.data().path("isError").asBoolean()).isTrue();
  }

  @Test
  void cancellingTheTurnEndsItAborted() {
    TestAgent agent = host.createAgent().useModel(new ScriptedModel());
    host.agents().onPreStep(step -> {
      agent.cancelTurn();
      return step.next();
    }, false);
    host.prompt(agent, "go");
    host.settle();
    assertThat(types(agent)).containsExactly("turn/start", "turn/end");
    assertThat(last(agent).data().path("reason").asText()).isEqualTo("aborted");
  }

  private static List<String> types(TestAgent agent) {
    return agent.session().events().stream().map(SessionEvent::type).toList();
  }

  private static SessionEvent last(TestAgent agent) {
    List<SessionEvent> events = agent.session().events();
    return events.get(events.size() - 1);
  }
}

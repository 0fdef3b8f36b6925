package dev.horae.testkit.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.AbortController;
import dev.horae.spi.gate.GateChain;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.StateView;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.AppendOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.tool.ToolCall;
import dev.horae.spi.tool.ToolRegistry;
import dev.horae.spi.tool.ToolResult;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The deterministic agent loop of host contract §6.1 over a {@link ScriptedModel}: turn and step
 * events in the contract's order, the pre-step waterfall, tool calls through the gate chain and the
 * tool registry, and a {@code turn/end} on every exit path.
 *
 * <p>Gate outcomes {@code requireConfirmation} and {@code schedule} do not suspend the turn here
 * (that is the gate runtime's run engine); the loop records them as pending tool results.
 */
public final class TurnLoop {

  private final ToolRegistry tools;
  private final ToolGates gates;
  private final WarningSink warnings;

  /**
   * Creates the loop.
   *
   * @param tools the tool registry calls go to
   * @param gates the tool-gate chain run before each call
   * @param warnings where contained failures go
   */
  public TurnLoop(ToolRegistry tools, ToolGates gates, WarningSink warnings) {
    this.tools = tools;
    this.gates = gates;
    this.warnings = warnings;
  }

  /** A failed model request. */
  static final class ModelFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ModelFailure(String message) {
      super(message);
    }
  }

  CompletionStage<Void> runTurn(TestAgent agent, TestAgents registry) {
    Session session = agent.session();
    long turn = nextTurnNumber(session);
    AbortController signal = agent.beginTurn();
    CompletableFuture<String> reason;
    try {
      session.append(EventTypes.TURN_START, obj().put("turn", turn));
      reason = steps(agent, registry, turn, 1, false, signal).toCompletableFuture();
    } catch (RuntimeException e) {
      reason = CompletableFuture.failedFuture(e);
    }
    return reason.handle((r, failure) -> {
      String why = failure == null ? r : signal.aborted() ? "aborted" : "error";
      if (failure != null && !signal.aborted()) {
        warnings.warn("turn " + turn + " of " + agent.id() + " failed", Optional.of(failure));
      }
      try {
        session.append(EventTypes.TURN_END, obj().put("turn", turn).put("reason", why));
      } catch (RuntimeException e) {
        warnings.warn("turn/end could not be appended for " + agent.id(), Optional.of(e));
      }
      agent.endTurn();
      return null;
    });
  }

  private CompletionStage<String> steps(
      TestAgent agent, TestAgents registry, long turn, long step, boolean concluded, AbortController signal) {
    if (signal.aborted()) {
      return CompletableFuture.completedFuture("aborted");
    }
    List<UserMessage> claimed = agent.claim(step == 1, turn);
    return registry.preStep(agent, claimed, turn, step, signal).thenCompose(decision -> {
      if (signal.aborted()) {
        return CompletableFuture.completedFuture("aborted");
      }
      if (decision instanceof StepDecision.Reject) {
        return CompletableFuture.completedFuture("blocked");
      }
      List<UserMessage> messages = ((StepDecision.Enter) decision).messages();
      if (messages.isEmpty() && (step == 1 || concluded)) {
        return CompletableFuture.completedFuture("completed");
      }
      Session session = agent.session();
      session.append(EventTypes.STEP_START, obj().put("turn", turn).put("step", step));
      for (UserMessage m : messages) {
        session.append(EventTypes.USER_MESSAGE, m.toJson(), AppendOptions.VISIBLE);
      }
      return modelStep(agent, turn, step, messages, signal).handle((stepConcluded, failure) -> {
        session.append(EventTypes.STEP_END, obj().put("turn", turn).put("step", step));
        if (failure != null) {
          return CompletableFuture.<String>failedFuture(failure);
        }
        if (signal.aborted()) {
          return CompletableFuture.completedFuture("aborted");
        }
        if (stepConcluded && !agent.hasNextStepInput()) {
          return CompletableFuture.completedFuture("completed");
        }
        return steps(agent, registry, turn, step + 1, stepConcluded, signal);
      }).thenCompose(s -> s);
    });
  }

  private CompletionStage<Boolean> modelStep(
      TestAgent agent, long turn, long step, List<UserMessage> messages, AbortController signal) {
    Session session = agent.session();
    Model model = agent.model();
    if (model == null) {
      return CompletableFuture.failedFuture(new IllegalStateException("agent " + agent.id() + " has no model"));
    }
    session.append(EventTypes.REQUEST_HEADER, obj().put("turn", turn).put("step", step));
    ModelReply reply = model.reply(new ModelRequest(agent.id(), turn, step, messages));
    if (reply instanceof ModelReply.Failure f) {
      return CompletableFuture.failedFuture(new ModelFailure(f.message()));
    }
    if (reply instanceof ModelReply.Text t) {
      ObjectNode chunk = obj().put("turn", turn).put("step", step);
      chunk.putObject("chunk").put("text", t.text());
      session.append(EventTypes.ASSISTANT_CHUNK, chunk);
      ObjectNode msg = obj().put("turn", turn).put("step", step);
      ObjectNode m = msg.putObject("message");
      m.put("role", "assistant");
      m.putArray("content").add(new ContentBlock(t.text()).toJson());
      session.append(EventTypes.ASSISTANT_MESSAGE, msg, AppendOptions.VISIBLE);
      return CompletableFuture.completedFuture(true);
    }
    List<ModelReply.Call> calls = ((ModelReply.ToolCalls) reply).calls();
    ObjectNode msg = obj().put("turn", turn).put("step", step);
    ObjectNode m = msg.putObject("message");
    m.put("role", "assistant");
    m.putArray("content");
    ArrayNode toolCalls = m.putArray("toolCalls");
    for (ModelReply.Call c : calls) {
      toolCalls.addObject().put("callId", c.callId()).put("tool", c.tool()).set("args", c.args());
    }
    session.append(EventTypes.ASSISTANT_MESSAGE, msg, AppendOptions.VISIBLE);
    CompletionStage<Void> chain = CompletableFuture.completedFuture(null);
    for (ModelReply.Call c : calls) {
      chain = chain.thenCompose(v -> callTool(agent, turn, step, c, signal));
    }
    return chain.thenApply(v -> false);
  }

  private CompletionStage<Void> callTool(TestAgent agent, long turn, long step, ModelReply.Call call, AbortController signal) {
    Session session = agent.session();
    ObjectNode callEvent = obj().put("turn", turn).put("step", step).put("callId", call.callId()).put("tool", call.tool());
    callEvent.set("args", call.args());
    session.append(EventTypes.TOOL_CALL, callEvent, AppendOptions.VISIBLE);
    StateView view = new StateView() {
      @Override
      public String runId() {
        return agent.id() + "/turn-" + turn;
      }

      @Override
      public String threadId() {
        return session.id();
      }

      @Override
      public int step() {
        return (int) step;
      }

      @Override
      public Optional<JsonNode> state(String key) {
        return Optional.empty();
      }
    };
    return GateChain.evaluate(gates.gates(), new dev.horae.spi.gate.ToolCall(call.callId(), call.tool(), call.args()), view)
        .thenCompose(outcome -> outcome.isAllow()
            ? tools.call(new ToolCall(agent, call.tool(), call.callId(), call.args()), signal)
            : CompletableFuture.completedFuture(gated(outcome)))
        .thenAccept(result -> {
          ObjectNode r = obj().put("turn", turn).put("step", step).put("callId", call.callId()).put("tool", call.tool());
          r.put("isError", result.isError());
          ArrayNode content = r.putArray("content");
          result.content().forEach(b -> content.add(b.toJson()));
          result.value().ifPresent(v -> r.set("value", v));
          result.info().ifPresent(i -> r.set("info", i));
          session.append(EventTypes.TOOL_RESULT, r, AppendOptions.VISIBLE);
        });
  }

  private static ToolResult gated(GateOutcome outcome) {
    if (outcome instanceof GateOutcome.Block b) {
      return ToolResult.error("Error: blocked: " + b.reason(), Optional.of("BLOCKED"));
    }
    if (outcome instanceof GateOutcome.SetResult s) {
      return s.output().isError()
          ? ToolResult.error("Error: " + s.output().content().asText(Json.write(s.output().content())), Optional.empty())
          : ToolResult.success(s.output().content(), List.of(new ContentBlock(Json.write(s.output().content()))));
    }
    return ToolResult.error("Error: pending: " + outcome.auditLabel(), Optional.of("PENDING"));
  }

  static long nextTurnNumber(Session session) {
    List<SessionEvent> events = session.events();
    for (int i = events.size() - 1; i >= 0; i--) {
      SessionEvent e = events.get(i);
      if (e.type().equals(EventTypes.TURN_START) && e.data().path("turn").canConvertToLong()) {
        return e.data().get("turn").asLong() + 1;
      }
    }
    return 1;
  }

  private static ObjectNode obj() {
    return Json.mapper().createObjectNode();
  }
}

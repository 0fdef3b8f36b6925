package dev.horae.runtime.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.AbortController;
import dev.horae.spi.HoraeException;
import dev.horae.spi.gate.GateChain;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.StateView;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.jobs.PromptSection;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.jobs.PromptSections;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.model.FinishReason;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.StreamSink;
import dev.horae.spi.model.ToolSpec;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The turn algorithm of host contract §6.1 for one agent: turn and step events in the contract's
 * order, the pre-step waterfall, a request rebuilt from the durable model-visible history (§6.3)
 * with the system prompt, prompt sections and the visible tools, the model step, tool calls
 * through the gate chain and the tool registry, the turn-stopping hook, and a {@code turn/end} on
 * every exit path with reason {@code completed}, {@code blocked}, {@code aborted}, {@code error} or
 * {@code max-tokens}.
 *
 * <p>The loop is iterative: each step is a stage that the next step chains onto only after it
 * completed, so a long turn never deepens the stack.
 */
public final class TurnEngine {

  private final ToolRegistry tools;
  private final ToolGates gates;
  private final WarningSink warnings;
  private final Supplier<Optional<PromptSections>> sections;

  /**
   * Creates the engine.
   *
   * @param tools the tool registry calls go to
   * @param gates the tool-gate chain run before each call
   * @param warnings where contained failures go
   * @param sections the prompt-section registry, looked up for every request (a host may provide
   *     it after the engine was built)
   */
  public TurnEngine(ToolRegistry tools, ToolGates gates, WarningSink warnings, Supplier<Optional<PromptSections>> sections) {
    this.tools = tools;
    this.gates = gates;
    this.warnings = warnings;
    this.sections = sections;
  }

  /** A failed model request. */
  static final class ModelFailure extends HoraeException {
    private static final long serialVersionUID = 1L;

    ModelFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** How a step ended, for the loop. */
  private enum StepEnd { CONTINUE, CONCLUDED, MAX_TOKENS }

  CompletionStage<Void> runTurn(RuntimeAgent agent, RuntimeAgents registry) {
    Session session = agent.session();
    long turn = nextTurnNumber(session);
    AbortController signal = agent.beginTurn();
    Steps steps = new Steps(agent, registry, turn, signal);
    CompletableFuture<String> reason;
    try {
      session.append(EventTypes.TURN_START, obj().put("turn", turn));
      reason = steps.run();
    } catch (RuntimeException e) {
      reason = CompletableFuture.failedFuture(e);
    }
    return reason.handle((r, failure) -> {
      String why = failure == null ? r : signal.aborted() ? "aborted" : "error";
      if (failure != null && !signal.aborted()) {
        warnings.warn("turn " + turn + " of " + agent.id() + " failed", Optional.of(failure));
      }
      boolean ended = true;
      try {
        session.append(EventTypes.TURN_END, obj().put("turn", turn).put("reason", why));
      } catch (RuntimeException e) {
        ended = false;
        warnings.warn("turn/end could not be appended for " + agent.id(), Optional.of(e));
      }
      agent.endTurn();
      if (ended) {
        registry.turnEnded(new TurnOutcome(agent.id(), session.id(), turn, why,
            Optional.ofNullable(steps.trigger), steps.finalText));
      }
      return null;
    });
  }

  /** The steps of one turn, chained one stage after another. */
  private final class Steps {
    private final RuntimeAgent agent;
    private final RuntimeAgents registry;
    private final long turn;
    private final AbortController signal;
    private final CompletableFuture<String> done = new CompletableFuture<>();
    private long step = 1;
    private boolean concluded;
    /** The message that opened the turn (read after the turn, on the same chain). */
    @org.jspecify.annotations.Nullable UserMessage trigger;
    /** The last assistant text so far. */
    String finalText = "";

    Steps(RuntimeAgent agent, RuntimeAgents registry, long turn, AbortController signal) {
      this.agent = agent;
      this.registry = registry;
      this.turn = turn;
      this.signal = signal;
    }

    CompletableFuture<String> run() {
      next();
      return done;
    }

    /** Starts the current step; its completion decides whether the turn ends or goes on. */
    private void next() {
      CompletionStage<Optional<String>> outcome;
      try {
        outcome = step();
      } catch (RuntimeException e) {
        done.completeExceptionally(e);
        return;
      }
      var unused = outcome.whenComplete((end, failure) -> {
        if (failure != null) {
          done.completeExceptionally(failure);
        } else if (end.isPresent()) {
          done.complete(end.get());
        } else {
          step++;
          next();
        }
      });
    }

    /** One step; an empty result means "go on with the next step". */
    private CompletionStage<Optional<String>> step() {
      if (signal.aborted()) {
        return end("aborted");
      }
      List<UserMessage> claimed = agent.claim(step == 1, turn);
      if (step == 1 && !claimed.isEmpty()) {
        trigger = claimed.get(0);
      }
      return registry.preStep(agent, claimed, turn, step, signal).thenCompose(decision -> {
        if (signal.aborted()) {
          return end("aborted");
        }
        if (decision instanceof StepDecision.Reject) {
          return end("blocked");
        }
        List<UserMessage> messages = ((StepDecision.Enter) decision).messages();
        if (messages.isEmpty() && (step == 1 || concluded)) {
          return end("completed");
        }
        Session session = agent.session();
        session.append(EventTypes.STEP_START, obj().put("turn", turn).put("step", step));
        for (UserMessage m : messages) {
          session.append(EventTypes.USER_MESSAGE, m.toJson(), AppendOptions.VISIBLE);
        }
        return modelStep(agent, turn, step, signal, this).handle((stepEnd, failure) -> {
          session.append(EventTypes.STEP_END, obj().put("turn", turn).put("step", step));
          if (failure != null) {
            return CompletableFuture.<Optional<String>>failedFuture(failure);
          }
          if (signal.aborted()) {
            return end("aborted");
          }
          if (stepEnd == StepEnd.MAX_TOKENS) {
            return end("max-tokens");
          }
          concluded = stepEnd == StepEnd.CONCLUDED;
          if (concluded && !agent.hasNextStepInput()) {
            registry.turnStopping(agent, turn);
            if (!agent.hasNextStepInput()) {
              return end("completed");
            }
          }
          return CompletableFuture.completedFuture(Optional.<String>empty());
        }).thenCompose(s -> s);
      });
    }

    private CompletionStage<Optional<String>> end(String reason) {
      return CompletableFuture.completedFuture(Optional.of(reason));
    }
  }

  private CompletionStage<StepEnd> modelStep(RuntimeAgent agent, long turn, long step, AbortController signal, Steps steps) {
    Session session = agent.session();
    ModelPort model = agent.model();
    if (model == null) {
      return CompletableFuture.failedFuture(new IllegalStateException("agent " + agent.id() + " has no model"));
    }
    session.append(EventTypes.REQUEST_HEADER, obj().put("turn", turn).put("step", step));
    AtomicBoolean open = new AtomicBoolean(true);
    AtomicBoolean streamed = new AtomicBoolean();
    StreamSink sink = text -> {
      // pieces that arrive after the response completed would land after assistant/message
      if (open.get() && !text.isEmpty()) {
        streamed.set(true);
        appendChunk(session, turn, step, text);
      }
    };
    ModelRequest request = new ModelRequest(agent.id(), session.id(), turn, step, systemPrompt(agent),
        agent.history(session.events()), toolSpecs(agent), signal, sink);
    CompletionStage<ModelResponse> answer;
    try {
      answer = model.complete(request);
    } catch (RuntimeException e) {
      answer = CompletableFuture.failedFuture(e);
    }
    return answer.handle((response, failure) -> {
      open.set(false);
      if (failure != null) {
        return CompletableFuture.<StepEnd>failedFuture(new ModelFailure("model request failed", failure));
      }
      if (!response.text().isEmpty()) {
        steps.finalText = response.text();
      }
      return record(agent, session, turn, step, response, streamed.get(), signal);
    }).thenCompose(s -> s);
  }

  private CompletionStage<StepEnd> record(
      RuntimeAgent agent, Session session, long turn, long step, ModelResponse response, boolean streamed, AbortController signal) {
    if (!response.text().isEmpty() && !streamed) {
      appendChunk(session, turn, step, response.text());
    }
    ObjectNode msg = obj().put("turn", turn).put("step", step);
    ObjectNode m = msg.putObject("message");
    m.put("role", "assistant");
    ArrayNode content = m.putArray("content");
    if (!response.text().isEmpty()) {
      content.add(new ContentBlock(response.text()).toJson());
    }
    if (!response.toolCalls().isEmpty()) {
      ArrayNode toolCalls = m.putArray("toolCalls");
      for (dev.horae.spi.gate.ToolCall c : response.toolCalls()) {
        toolCalls.addObject().put("callId", c.callId()).put("tool", c.toolId()).set("args", c.arguments());
      }
    }
    if (response.usage().known()) {
      msg.putObject("usage").put("input", response.usage().inputTokens()).put("output", response.usage().outputTokens());
    }
    session.append(EventTypes.ASSISTANT_MESSAGE, msg, AppendOptions.VISIBLE);
    if (response.finish() == FinishReason.MAX_TOKENS) {
      // a response cut at the token limit is not acted on: its calls may be incomplete
      return CompletableFuture.completedFuture(StepEnd.MAX_TOKENS);
    }
    if (response.toolCalls().isEmpty()) {
      return CompletableFuture.completedFuture(StepEnd.CONCLUDED);
    }
    CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
    for (dev.horae.spi.gate.ToolCall c : response.toolCalls()) {
      chain = chain.thenCompose(v -> callTool(agent, turn, step, c, signal));
    }
    return chain.thenApply(v -> StepEnd.CONTINUE);
  }

  private static void appendChunk(Session session, long turn, long step, String text) {
    ObjectNode chunk = obj().put("turn", turn).put("step", step);
    chunk.putObject("chunk").put("text", text);
    session.append(EventTypes.ASSISTANT_CHUNK, chunk);
  }

  private String systemPrompt(RuntimeAgent agent) {
    String base = agent.systemPrompt();
    List<PromptSection> extra = sections.get().map(s -> s.sectionsFor(agent)).orElse(List.of());
    if (extra.isEmpty()) {
      return base;
    }
    List<PromptSection> ordered = new ArrayList<>(extra);
    ordered.sort(Comparator.comparingInt(PromptSection::order));
    StringBuilder sb = new StringBuilder(base);
    for (PromptSection s : ordered) {
      if (sb.length() > 0) {
        sb.append("\n\n");
      }
      sb.append(s.text());
    }
    return sb.toString();
  }

  private List<ToolSpec> toolSpecs(RuntimeAgent agent) {
    return tools.visibleTo(agent).stream().map(ToolSpec::of).toList();
  }

  private CompletionStage<Void> callTool(
      RuntimeAgent agent, long turn, long step, dev.horae.spi.gate.ToolCall call, AbortController signal) {
    Session session = agent.session();
    ObjectNode callEvent = obj().put("turn", turn).put("step", step).put("callId", call.callId()).put("tool", call.toolId());
    callEvent.set("args", call.arguments());
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
    return GateChain.evaluate(gates.gates(), call, view)
        .thenCompose(outcome -> outcome.isAllow()
            ? tools.call(new ToolCall(agent, call.toolId(), call.callId(), call.arguments()), signal)
            : CompletableFuture.completedFuture(gated(outcome)))
        .thenAccept(result -> {
          ObjectNode r = obj().put("turn", turn).put("step", step).put("callId", call.callId()).put("tool", call.toolId());
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
          ? ToolResult.error("Error: " + s.output().content().asText(EcmaJson.write(s.output().content())), Optional.empty())
          : ToolResult.success(s.output().content(), List.of(new ContentBlock(EcmaJson.write(s.output().content()))));
    }
    return ToolResult.error("Error: pending: " + outcome.auditLabel(), Optional.of("PENDING"));
  }

  /**
   * Closes a turn that a crash left open (host contract §6.1, end reason {@code interrupted}): when
   * the last {@code turn/start} of the log has no {@code turn/end}, appends the missing
   * {@code step/end} (if a step was open) and {@code turn/end {turn, reason: "interrupted"}}. Call
   * it once when a stored session is resumed, before its agent runs; a closed log is left as is.
   *
   * @param session the resumed session
   * @return true when a turn was closed
   */
  public static boolean closeInterruptedTurn(Session session) {
    List<SessionEvent> events = session.events();
    long openStep = -1;
    for (int i = events.size() - 1; i >= 0; i--) {
      SessionEvent e = events.get(i);
      switch (e.type()) {
        case EventTypes.TURN_END -> {
          return false;
        }
        case EventTypes.STEP_END -> openStep = openStep < 0 ? 0 : openStep;
        case EventTypes.STEP_START -> openStep = openStep < 0 ? e.data().path("step").asLong() : openStep;
        case EventTypes.TURN_START -> {
          long turn = e.data().path("turn").asLong();
          if (openStep > 0) {
            session.append(EventTypes.STEP_END, obj().put("turn", turn).put("step", openStep));
          }
          session.append(EventTypes.TURN_END, obj().put("turn", turn).put("reason", "interrupted"));
          return true;
        }
        default -> { }
      }
    }
    return false;
  }

  /**
   * The next turn number of a session: one more than the last {@code turn/start}, or 1.
   *
   * @param session the session
   * @return the turn number
   */
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

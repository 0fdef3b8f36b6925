package dev.horae.runtime.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.runtime.gate.TurnRun;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.StateView;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Session;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * A turn that a framework's own agent loop drives (a borrowed loop), written to the agent's
 * session log with the same events the runtime's turn engine writes: {@code turn/start}, each
 * step's {@code step/start} with the messages the pre-step waterfall entered it with and its
 * {@code request/header}, the model's answers, every tool call with its result, {@code step/end}
 * and {@code turn/end}. So the log, the history later model requests are rebuilt from, the
 * operator tools and the invariant checks see a borrowed turn exactly as a runtime turn.
 *
 * <p>The agent is busy for the whole turn ({@link RuntimeAgent.ExternalTurn}), so reminders and
 * job notices wait for it. Tool calls pass the runtime's gate chain; a gate that would park the
 * call ({@code requireConfirmation}, {@code schedule}) cannot be honoured by a loop that is not
 * the runtime's, so {@link #callTool} reports it and runs nothing, and {@link #end} answers every
 * call still without a result. Created by {@link RuntimeAgent#beginRecordedTurn()}; one thread at
 * a time.
 */
public final class RecordedTurn implements AutoCloseable {

  /** What became of a tool call passed through {@link #callTool}. */
  public sealed interface ToolOutcome {
    /**
     * The call was answered: run through the registry (the gates allowed it) or answered by a
     * gate ({@code block}, {@code setResult}); its {@code tool/result} is in the log.
     *
     * @param result the result
     */
    record Answered(ToolResult result) implements ToolOutcome {}

    /**
     * A gate would park the call; nothing ran and the call stays unanswered until {@link
     * RecordedTurn#end}.
     *
     * @param outcome the gate's outcome ({@code requireConfirmation} or {@code schedule})
     */
    record WouldPark(GateOutcome outcome) implements ToolOutcome {}
  }

  private final RuntimeAgent agent;
  private final RuntimeAgent.ExternalTurn external;
  private final TurnEngine engine;
  private final long turn;
  private final Map<String, String> unanswered = new LinkedHashMap<>();
  private long step;
  private boolean stepOpen;
  private boolean ended;

  RecordedTurn(RuntimeAgent agent, RuntimeAgent.ExternalTurn external, TurnEngine engine) {
    this.agent = agent;
    this.external = external;
    this.engine = engine;
    this.turn = TurnLog.nextTurnNumber(agent.session());
    TurnEvents.turnStart(agent.session(), turn);
  }

  /**
   * The turn's number in the session.
   *
   * @return the number
   */
  public long turn() {
    return turn;
  }

  /**
   * The current step's number (0 before the first {@link #beginStep}).
   *
   * @return the number
   */
  public synchronized long step() {
    return step;
  }

  /**
   * The Run id gates see for this turn (the id the runtime's own turn would have).
   *
   * @return the Run id
   */
  public String runId() {
    return TurnRun.runId(agent.session().id(), turn);
  }

  /**
   * Starts the next step: ends the open one, runs the pre-step waterfall (host contract §6.2) and,
   * when it enters, appends {@code step/start}, the messages it entered with and the request
   * header. The caller then sends the model the history ({@code History.of(session.events())})
   * with {@link #systemPrompt}.
   *
   * @param proposal the step's input messages (the user's message on step 1, else empty)
   * @return a stage with the waterfall's decision; on Reject nothing of the step is written
   * @throws IllegalStateException when the turn has ended
   */
  public synchronized CompletionStage<StepDecision> beginStep(List<UserMessage> proposal) {
    live();
    closeStep();
    long next = step + 1;
    return external.preStep(proposal, turn, next).thenApply(decision -> {
      synchronized (this) {
        step = next;
        if (decision instanceof StepDecision.Enter enter) {
          Session session = agent.session();
          TurnEvents.stepStart(session, turn, step, enter.messages());
          TurnEvents.requestHeader(session, turn, step);
          stepOpen = true;
        }
        return decision;
      }
    });
  }

  /**
   * The system prompt of a model call of this turn: the given base with the registered prompt
   * sections appended, as the runtime's turns send it.
   *
   * @param base the application's own system prompt (may be empty)
   * @return the prompt
   */
  public String systemPrompt(String base) {
    return engine.systemPrompt(base, agent);
  }

  /**
   * Records the model's answer of the current step: its text as a chunk and the {@code
   * assistant/message} with its tool calls and usage. The calls are unanswered until {@link
   * #callTool} or {@link #recordToolRun} answers them.
   *
   * @param response the answer
   * @throws IllegalStateException when no step is open or the turn has ended
   */
  public synchronized void recordResponse(ModelResponse response) {
    openStep();
    Session session = agent.session();
    if (!response.text().isEmpty()) {
      TurnEvents.chunk(session, turn, step, response.text());
    }
    TurnEvents.assistant(session, turn, step, response);
    // a call an earlier answer left without a result (a gate would have parked it) stays owed: end
    // answers it, or the log would keep a call no result ever follows
    response.toolCalls().forEach(c -> unanswered.put(c.callId(), c.toolId()));
  }

  /**
   * Runs a call of the model's answer the runtime's way: {@code tool/call} appended, the gate
   * chain evaluated; Allow runs it through the tool registry (schema checks, bounds), Block and
   * SetResult answer the gate's result; either way the {@code tool/result} is appended. A gate that
   * would park it ({@code requireConfirmation}, {@code schedule} with or without an action kind)
   * leaves it unanswered and runs nothing. This is the turn engine's own path ({@code GatedCall}).
   *
   * @param call the call
   * @return a stage with the outcome
   * @throws IllegalStateException when no step is open or the turn has ended
   */
  public CompletionStage<ToolOutcome> callTool(ToolCall call) {
    return callTool(call, c -> engine.tools().call(new ToolInvocation(agent, c), AbortSignal.never()));
  }

  /**
   * Runs a call of an application tool outside Horae's registry behind the same gate chain: as
   * {@link #callTool(ToolCall)}, but Allow runs {@code runner}. A runner that fails is recorded as
   * an error result with its message, and the stage fails with it.
   *
   * @param call the call
   * @param runner runs the allowed call
   * @return a stage with the outcome
   * @throws IllegalStateException when no step is open or the turn has ended
   */
  public synchronized CompletionStage<ToolOutcome> callTool(ToolCall call,
      Function<ToolCall, CompletionStage<ToolResult>> runner) {
    Objects.requireNonNull(call, "call");
    Objects.requireNonNull(runner, "runner");
    openStep();
    unanswered.putIfAbsent(call.callId(), call.toolId());
    // the turn engine's own path (GatedCall); only what a verdict that parks becomes differs
    return GatedCall.call(agent.session(), turn, step, call, engine.gates().gates(), new View(), engine.environment(), new GatedCall.Steps<ToolOutcome>() {
      @Override
      public CompletionStage<ToolResult> run(ToolCall c) {
        return runner.apply(c);
      }

      @Override
      public ToolOutcome answered(ToolCall c, ToolResult result) {
        answeredCall(c);
        return new ToolOutcome.Answered(result);
      }

      @Override
      public CompletionStage<ToolOutcome> park(ToolCall c, GateOutcome outcome) {
        return CompletableFuture.completedFuture(new ToolOutcome.WouldPark(outcome));
      }

      @Override
      public CompletionStage<ToolOutcome> refuse(ToolCall c, GateOutcome.Schedule outcome, String refusal) {
        // still a schedule verdict: a borrowed loop can neither park nor perform it
        return park(c, outcome);
      }

      @Override
      public Optional<ToolResult> failedRun(Throwable cause) {
        answeredCall(call);
        return Optional.of(ToolResult.error("Error: " + cause.getMessage(), Optional.empty()));
      }
    });
  }

  /**
   * Records a call the framework ran itself (an application tool outside Horae's registry):
   * {@code tool/call} when the model's answer did not carry it, then its {@code tool/result}.
   *
   * @param call the call
   * @param result its result
   * @throws IllegalStateException when no step is open or the turn has ended
   */
  public synchronized void recordToolRun(ToolCall call, ToolResult result) {
    openStep();
    TurnEvents.toolCall(agent.session(), turn, step, call);
    answer(call, result);
  }

  /**
   * Ends the turn: every call still without a result gets {@code Error: not performed: <why>}
   * (a later model request must never carry a call without its result), the open step its {@code
   * step/end}, then {@code turn/end} with the reason; the agent becomes idle again (and the
   * runtime flushes its session). A second call does nothing.
   *
   * @param reason the {@code turn/end} reason ({@code completed}, {@code error}, …)
   * @param why the reason unanswered calls were not performed (used only when there are some)
   */
  public synchronized void end(String reason, String why) {
    if (ended) {
      return;
    }
    ended = true;
    try {
      Session session = agent.session();
      for (Map.Entry<String, String> c : List.copyOf(unanswered.entrySet())) {
        TurnEvents.toolResult(session, turn, Math.max(step, 1), c.getKey(), c.getValue(),
            ToolResult.error("Error: not performed: " + why, Optional.empty()));
      }
      unanswered.clear();
      closeStep();
      TurnEvents.turnEnd(session, turn, reason);
    } finally {
      external.close();
    }
  }

  /** Ends the turn as {@code completed} unless it has ended already. */
  @Override
  public void close() {
    end("completed", "the turn ended");
  }

  private synchronized void answer(ToolCall call, ToolResult result) {
    TurnEvents.toolResult(agent.session(), turn, step, call.callId(), call.toolId(), result);
    answeredCall(call);
  }

  private synchronized void answeredCall(ToolCall call) {
    unanswered.remove(call.callId());
  }

  private void closeStep() {
    if (stepOpen) {
      TurnEvents.stepEnd(agent.session(), turn, step);
      stepOpen = false;
    }
  }

  private void live() {
    if (ended) {
      throw new IllegalStateException("turn " + turn + " of agent \"" + agent.id() + "\" has ended");
    }
  }

  private void openStep() {
    live();
    if (!stepOpen) {
      throw new IllegalStateException("turn " + turn + " of agent \"" + agent.id() + "\" has no open step; call beginStep first");
    }
  }

  /** The gate's view of a recorded turn: its Run id is the turn's, and it has no committed state. */
  private final class View implements StateView {
    @Override
    public String runId() {
      return RecordedTurn.this.runId();
    }

    @Override
    public String threadId() {
      return agent.session().id();
    }

    @Override
    public int step() {
      return (int) RecordedTurn.this.step();
    }

    @Override
    public Optional<JsonNode> state(String key) {
      return Optional.empty();
    }
  }
}

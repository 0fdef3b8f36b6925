package dev.horae.langchain4j;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RecordedTurn;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.model.History;
import dev.horae.spi.model.ToolSpec;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolResult;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.observability.api.event.AiServiceCompletedEvent;
import dev.langchain4j.observability.api.event.AiServiceErrorEvent;
import dev.langchain4j.observability.api.event.AiServiceResponseReceivedEvent;
import dev.langchain4j.observability.api.event.ToolExecutedEvent;
import dev.langchain4j.observability.api.listener.AiServiceCompletedListener;
import dev.langchain4j.observability.api.listener.AiServiceErrorListener;
import dev.langchain4j.observability.api.listener.AiServiceResponseReceivedListener;
import dev.langchain4j.observability.api.listener.ToolExecutedEventListener;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolErrorHandlerResult;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProviderResult;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Borrowed-loop mode: the application keeps its {@code AiServices} loop, and one call, {@link
 * #configure}, gives that loop Horae's tools (Schedule, jobs and every other tool registered on
 * {@code horae.tools()}), a time reading before every model call, the gate chain, and {@link
 * HoraeChatMemoryStore} as its memory. Each AiServices call is recorded in the session of its
 * memory id as one turn, in the event order of the runtime's own turns (host contract §6.1), so
 * reminders, readings and the runtime's later turns see one consistent log:
 *
 * <ol>
 *   <li>before each model call (AiServices' chat request transformer): {@code step/end} of the
 *       previous step, the runtime's pre-step waterfall over the step's input (the user's message
 *       on the first step), {@code step/start} and the messages the waterfall entered with (the
 *       user's message, time-context's reading), {@code request/header}; the request's messages are then
 *       replaced by the log's model-visible history, after the call's system message with the
 *       registered prompt sections appended;
 *   <li>each response: {@code assistant/chunk} and {@code assistant/message} with its tool calls
 *       and usage;
 *   <li>each Horae tool call: {@code tool/call}, the gate chain, the tool registry's pipeline,
 *       {@code tool/result}; an application tool AiServices runs itself is recorded after it ran;
 *   <li>the call's end: {@code step/end} and {@code turn/end} ({@code completed}, or {@code error}
 *       with each unanswered call recorded as not performed).
 * </ol>
 *
 * <p>The events are written by the runtime's own turn writer ({@link RecordedTurn}, begun with
 * {@link RuntimeAgent#beginRecordedTurn()}), so they have the runtime turns' shapes by
 * construction. While the call runs the agent is busy: a reminder that comes due waits for it and then runs as a
 * runtime-driven turn with the agent's model. A gate's {@code requireConfirmation} or {@code
 * schedule} cannot be parked by a loop that must return an answer now: the call fails with {@link
 * BorrowedLoopException#PARKING_UNSUPPORTED}, the tool is not run, and nothing pretends it was.
 * Use the runtime-driven mode ({@link LangChain4jModel}) for tools that need those verdicts.
 *
 * <p>Limits (docs/langchain4j.md): synchronous AiServices methods only (a {@code TokenStream}
 * method runs its tools and callbacks on other threads, which this recording does not follow); one
 * call per memory id at a time; the memory id is the session id; the builder's own chat memory,
 * chat request transformer and tool execution error handler are replaced; the application's own
 * {@code builder.tools(...)} run without the gate chain (register them with {@link
 * LangChain4jTools} instead to gate them).
 */
public final class BorrowedLoop {

  private final HoraeRuntime horae;
  private final Optional<String> sessionZone;
  private final HoraeChatMemoryStore memory;
  private final Map<String, Turn> active = new ConcurrentHashMap<>();

  private BorrowedLoop(HoraeRuntime horae, Optional<String> sessionZone) {
    this.horae = horae;
    this.sessionZone = sessionZone;
    this.memory = new HoraeChatMemoryStore(horae);
  }

  /**
   * A borrowed loop over a runtime. Each model call's step runs the runtime's own pre-step
   * waterfall ({@link RecordedTurn#beginStep}), so every installed plugin's pre-step
   * work — time-context's reading among it — reaches the borrowed loop as it reaches the
   * runtime's turns.
   *
   * @param horae the runtime (its plugins installed)
   * @param sessionZone the zone of a session the loop creates, or empty for none
   * @return the loop
   */
  public static BorrowedLoop create(HoraeRuntime horae, Optional<String> sessionZone) {
    Objects.requireNonNull(horae, "horae");
    return new BorrowedLoop(horae, Objects.requireNonNull(sessionZone, "sessionZone"));
  }

  /**
   * The memory store AiServices reads: the session logs' projection.
   *
   * @return the store
   */
  public HoraeChatMemoryStore memoryStore() {
    return memory;
  }

  /**
   * Configures an AiServices builder for this loop: its chat memory ({@link HoraeChatMemoryStore},
   * unbounded window), a tool provider with the tools the memory id's agent sees on {@code
   * horae.tools()}, the chat request transformer that records each step and adds the time
   * reading, the listeners that record responses, tool results and the call's end, and a tool
   * execution error handler that lets {@link BorrowedLoopException} out (other tool failures reach
   * the model as their message, as AiServices does by default).
   *
   * @param builder the application's builder
   * @param <T> the service interface
   * @return the same builder
   */
  public <T> AiServices<T> configure(AiServices<T> builder) {
    builder.chatMemoryProvider(id -> MessageWindowChatMemory.builder().id(id).maxMessages(Integer.MAX_VALUE)
        .chatMemoryStore(memory).build());
    builder.toolProvider(request -> tools(String.valueOf(request.chatMemoryId())));
    builder.chatRequestTransformer(this::beforeModelCall);
    builder.toolExecutionErrorHandler((error, context) -> {
      if (error instanceof BorrowedLoopException b) {
        throw b;
      }
      String message = error.getMessage();
      return ToolErrorHandlerResult.text(message == null || message.isBlank() ? error.getClass().getName() : message);
    });
    builder.registerListeners(
        (AiServiceResponseReceivedListener) this::responded,
        (ToolExecutedEventListener) this::toolExecuted,
        (AiServiceCompletedListener) this::completed,
        (AiServiceErrorListener) this::failed);
    return builder;
  }

  // ---- the turn of one AiServices call ---------------------------------------------------------

  /** One AiServices call recorded as a turn; only the calling thread touches it. */
  private static final class Turn {
    final RuntimeAgent agent;
    final RecordedTurn recorded;
    final Thread thread = Thread.currentThread();
    /** Calls whose result a Horae tool executor recorded. */
    final Set<String> answered = new LinkedHashSet<>();

    Turn(RuntimeAgent agent, RecordedTurn recorded) {
      this.agent = agent;
      this.recorded = recorded;
    }

    Session session() {
      return agent.session();
    }
  }

  private Optional<Turn> current(String sessionId) {
    Turn t = active.get(sessionId);
    return t != null && t.thread == Thread.currentThread() ? Optional.of(t) : Optional.empty();
  }

  private Turn begin(String sessionId) {
    RuntimeAgent agent = horae.openAgent(sessionId, sessionZone);
    RecordedTurn recorded;
    try {
      recorded = agent.beginRecordedTurn();
    } catch (IllegalStateException busy) {
      throw new BorrowedLoopException(BorrowedLoopException.AGENT_BUSY, "the agent of session \"" + sessionId
          + "\" already has active work (a runtime turn, a parked call or another AiServices call); try again when it is idle");
    }
    Turn t = new Turn(agent, recorded);
    active.put(sessionId, t);
    return t;
  }

  /** AiServices' chat request transformer: records the step's start and sends the log's history. */
  private ChatRequest beforeModelCall(ChatRequest request, Object memoryId) {
    String sessionId = String.valueOf(memoryId);
    Turn t = current(sessionId).orElseGet(() -> begin(sessionId));
    RecordedTurn r = t.recorded;
    List<UserMessage> proposal = r.step() == 0
        ? List.of(horae.messages().text(lastUserText(request), MessageSource.user()))
        : List.of();
    // the runtime's own waterfall: the reading and any other plugin's pre-step work, as in its turns
    StepDecision decision = r.beginStep(proposal).toCompletableFuture().join();
    if (decision instanceof StepDecision.Reject) {
      throw new BorrowedLoopException(BorrowedLoopException.STEP_REJECTED, "a pre-step listener rejected step " + r.step()
          + " of turn " + r.turn() + " of session \"" + sessionId + "\"; the model call was not made");
    }
    List<ChatMessage> messages = new ArrayList<>();
    String system = r.systemPrompt(applicationSystemPrompt(request));
    if (!system.isEmpty()) {
      messages.add(SystemMessage.from(system));
    }
    messages.addAll(LangChain4jMapping.toMessages(History.of(t.session().events())));
    return request.toBuilder().messages(messages).build();
  }

  private static String lastUserText(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i) instanceof dev.langchain4j.data.message.UserMessage u) {
        return u.hasSingleText() ? u.singleText() : String.valueOf(u.contents());
      }
    }
    return "";
  }

  /** The call's own system message, to which the turn adds the registered prompt sections. */
  private static String applicationSystemPrompt(ChatRequest request) {
    for (ChatMessage m : request.messages()) {
      if (m instanceof SystemMessage s) {
        return s.text();
      }
    }
    return "";
  }

  private void responded(AiServiceResponseReceivedEvent event) {
    guarded(event.invocationContext(), t -> t.recorded.recordResponse(
        LangChain4jMapping.toModelResponse(event.response(), "call-" + t.recorded.turn() + "-" + t.recorded.step())));
  }

  /** An application tool AiServices ran itself: recorded after the fact. */
  private void toolExecuted(ToolExecutedEvent event) {
    guarded(event.invocationContext(), t -> {
      ToolExecutionRequest r = event.request();
      if (r.id() == null || t.answered.contains(r.id())) {
        return;
      }
      String text = event.resultText() == null ? "" : event.resultText();
      t.recorded.recordToolRun(LangChain4jMapping.toCall(r, r.id()),
          ToolResult.success(Json.mapper().getNodeFactory().textNode(text), List.of(new ContentBlock(text))));
    });
  }

  private void completed(AiServiceCompletedEvent event) {
    guarded(event.invocationContext(), t -> end(t, "completed", ""));
  }

  private void failed(AiServiceErrorEvent event) {
    guarded(event.invocationContext(), t -> end(t, "error", String.valueOf(event.error().getMessage())));
  }

  private void end(Turn t, String reason, String why) {
    try {
      // the runtime flushes the session when the agent becomes idle
      t.recorded.end(reason, why);
    } finally {
      active.remove(t.session().id(), t);
    }
  }

  /** Listener failures are swallowed by AiServices: report them, never lose them silently. */
  private void guarded(InvocationContext context, java.util.function.Consumer<Turn> work) {
    Optional<Turn> t = current(String.valueOf(context.chatMemoryId()));
    if (t.isEmpty()) {
      return;
    }
    try {
      work.accept(t.get());
    } catch (RuntimeException e) {
      horae.warnings().warn("the borrowed loop could not record an event of session " + t.get().session().id(), Optional.of(e));
    }
  }

  // ---- Horae's tools inside AiServices -------------------------------------------------------

  private ToolProviderResult tools(String sessionId) {
    RuntimeAgent agent = horae.openAgent(sessionId, sessionZone);
    ToolProviderResult.Builder b = ToolProviderResult.builder();
    for (ToolDefinition d : horae.tools().visibleTo(agent)) {
      b.add(LangChain4jMapping.toSpecification(ToolSpec.of(d)), new GatedExecutor(sessionId));
    }
    return b.build();
  }

  /** A Horae tool called by AiServices: recorded, gated, run through the registry's pipeline. */
  private final class GatedExecutor implements ToolExecutor {
    private final String sessionId;

    GatedExecutor(String sessionId) {
      this.sessionId = sessionId;
    }

    @Override
    public String execute(ToolExecutionRequest request, Object memoryId) {
      return executeWithContext(request, InvocationContext.builder().chatMemoryId(memoryId).build()).resultText();
    }

    @Override
    public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
      Turn t = current(sessionId).orElseThrow(() -> new BorrowedLoopException(BorrowedLoopException.AGENT_BUSY,
          "tool \"" + request.name() + "\" was called outside a recorded AiServices call of session \"" + sessionId + "\""));
      ToolCall call = LangChain4jMapping.toCall(request, "call-" + t.recorded.turn() + "-" + t.recorded.step() + "-" + request.name());
      RecordedTurn.ToolOutcome outcome = t.recorded.callTool(call).toCompletableFuture().join();
      if (outcome instanceof RecordedTurn.ToolOutcome.WouldPark park) {
        throw new BorrowedLoopException(BorrowedLoopException.PARKING_UNSUPPORTED, "a gate answered "
            + park.outcome().auditLabel() + " for tool \"" + call.toolId() + "\" (call " + call.callId()
            + "); an AiServices call cannot park it, so it was not performed. Run this agent in the runtime-driven mode"
            + " (HoraeRuntime with LangChain4jModel, docs/langchain4j.md) to park, confirm or schedule tool calls");
      }
      ToolResult result = ((RecordedTurn.ToolOutcome.Answered) outcome).result();
      t.answered.add(call.callId());
      return ToolExecutionResult.builder().isError(result.isError()).resultText(result.text()).build();
    }
  }
}

package dev.horae.springai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.StateView;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.client.advisor.api.Advisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import reactor.core.publisher.Flux;

/**
 * Advisors for an application that keeps its {@code ChatClient} and its loop (borrowed-loop
 * mode). Each {@code ChatClient} call runs as an external turn of the Horae agent of its session
 * ({@link RuntimeAgent#beginExternalTurn()}), so reminders and job notices wait for it, and:
 *
 * <ul>
 *   <li>the Horae tools visible to that agent (Schedule's, jobs') are offered to the model next to
 *       the application's own, and run through the Horae tool registry;
 *   <li>every tool call, the application's own included, passes the Horae gate chain first: Allow
 *       runs it, Block answers {@code Error: blocked: <reason>}, SetResult answers the gate's
 *       result; RequireConfirmation and Schedule fail the whole call with {@link
 *       BorrowedLoopGateException} (never a made-up result), since only the runtime-driven mode
 *       can park a call;
 *   <li>before every model call of the loop the runtime's own pre-step waterfall runs ({@link
 *       RuntimeAgent.ExternalTurn#preStep}) and the messages it enters with — the time-context
 *       plugin's reading, with the configuration it was installed with — are appended as user
 *       messages; a listener that rejects the step fails the call.
 * </ul>
 *
 * <pre>{@code
 * ChatClient chat = ChatClient.builder(chatModel)
 *     .defaultAdvisors(HoraeAdvisors.builder(horae).defaultSession("support-42").build())
 *     .build();
 * String answer = chat.prompt().user("Remind me in 10 minutes to call Ada.").call().content();
 * }</pre>
 *
 * <p>Limits, stated in docs/spring-ai.md: the conversation itself stays in the application's
 * messages (or its chat memory), not in the Horae session log; the reading's elapsed line is
 * {@code unavailable} (there is no log to measure from) and its turn numbers count the {@code
 * ChatClient} calls of this process; the gate chain sees the model's call id; only {@code
 * call()} is advised ({@code stream()} fails with a clear error). A reminder that comes due wakes
 * the Horae agent, which answers with the runtime's model: give the runtime a {@link
 * SpringAiModelPort} over the same {@code ChatModel} and listen with {@code onUnpromptedReply}.
 */
public final class HoraeAdvisors {

  /** The advisor parameter naming the Horae session of a call: {@code a.param(SESSION, "id")}. */
  public static final String SESSION = "horae.session";

  /** The tools advisor's order: inside chat memory (+200), outside the tool-calling loop (+300). */
  public static final int TOOLS_ORDER = ToolCallingAdvisor.DEFAULT_ORDER - 50;
  /** The time advisor's order: inside the tool-calling loop, so it runs before every model call. */
  public static final int TIME_ORDER = ToolCallingAdvisor.DEFAULT_ORDER + 50;

  private static final String TURN_KEY = "horae.borrowedTurn";

  private HoraeAdvisors() {}

  /**
   * Starts a builder.
   *
   * @param runtime the runtime whose agents, tools, gates and clock the advisors use
   * @return the builder
   */
  public static Builder builder(HoraeRuntime runtime) {
    return new Builder(runtime);
  }

  /** Configures the advisors. */
  public static final class Builder {
    private final HoraeRuntime runtime;
    private @Nullable String defaultSession;
    private Optional<String> zone = Optional.empty();
    private Duration idleWait = Duration.ofSeconds(30);

    private Builder(HoraeRuntime runtime) {
      this.runtime = Objects.requireNonNull(runtime, "runtime");
    }

    /**
     * The session of calls that name none with {@link #SESSION}.
     *
     * @param session the session id
     * @return this builder
     */
    public Builder defaultSession(String session) {
      defaultSession = Objects.requireNonNull(session, "session");
      return this;
    }

    /**
     * The zone of a session these advisors create (a stored session keeps its own).
     *
     * @param v an IANA zone
     * @return this builder
     */
    public Builder sessionZone(String v) {
      zone = Optional.of(v);
      return this;
    }

    /**
     * How long a call waits for the agent's own turn (a reminder being answered) to end before it
     * fails; default 30 seconds.
     *
     * @param v the bound
     * @return this builder
     */
    public Builder idleWait(Duration v) {
      idleWait = Objects.requireNonNull(v, "idleWait");
      return this;
    }

    /**
     * The two advisors, to pass to {@code ChatClient.Builder.defaultAdvisors} or a request's
     * {@code advisors}.
     *
     * @return the tools advisor and the time advisor
     */
    public List<Advisor> build() {
      return List.of(new ToolsAdvisor(runtime, defaultSession, zone, idleWait), new TimeAdvisor());
    }
  }

  // ---- one ChatClient call ------------------------------------------------------------------

  /** The state of one borrowed turn, shared by both advisors through the request context. */
  static final class BorrowedTurn {
    final RuntimeAgent agent;
    final RuntimeAgent.ExternalTurn external;
    final long turn;
    final AtomicInteger step = new AtomicInteger();
    /** The calls of the latest model response not yet claimed by a callback: (name, args, id). */
    private final List<String[]> unclaimed = new ArrayList<>();
    private int generated;

    BorrowedTurn(RuntimeAgent agent, RuntimeAgent.ExternalTurn external, long turn) {
      this.agent = agent;
      this.external = external;
      this.turn = turn;
    }

    synchronized void responded(List<AssistantMessage.ToolCall> calls) {
      unclaimed.clear();
      for (AssistantMessage.ToolCall c : calls) {
        unclaimed.add(new String[] {c.name(), c.arguments() == null ? "" : c.arguments(), c.id()});
      }
    }

    /** The model's id of the call the tool-calling loop is running now, matched by name and arguments. */
    synchronized String claimCallId(String tool, String arguments) {
      for (int i = 0; i < unclaimed.size(); i++) {
        String[] c = unclaimed.get(i);
        if (c[0].equals(tool) && c[1].equals(arguments) && c[2] != null && !c[2].isEmpty()) {
          unclaimed.remove(i);
          return c[2];
        }
      }
      generated++;
      return "chatclient-" + turn + "-" + step.get() + "-" + generated;
    }

    StateView state() {
      String session = agent.session().id();
      int current = Math.max(step.get(), 1);
      return new StateView() {
        @Override
        public String runId() {
          return session + "/chatclient-" + turn;
        }

        @Override
        public String threadId() {
          return session;
        }

        @Override
        public int step() {
          return current;
        }

        @Override
        public Optional<JsonNode> state(String key) {
          return Optional.empty();
        }
      };
    }
  }

  /** Opens the external turn and offers the gated tools; outside the tool-calling loop. */
  static final class ToolsAdvisor implements CallAdvisor, StreamAdvisor {
    private final HoraeRuntime runtime;
    private final @Nullable String defaultSession;
    private final Optional<String> zone;
    private final Duration idleWait;
    private final Map<String, AtomicLong> turns = new ConcurrentHashMap<>();

    ToolsAdvisor(HoraeRuntime runtime, @Nullable String defaultSession, Optional<String> zone, Duration idleWait) {
      this.runtime = runtime;
      this.defaultSession = defaultSession;
      this.zone = zone;
      this.idleWait = idleWait;
    }

    @Override
    public String getName() {
      return "Horae tools and gates";
    }

    @Override
    public int getOrder() {
      return TOOLS_ORDER;
    }

    @Override
    public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
      String session = session(request);
      RuntimeAgent agent = runtime.openAgent(session, zone);
      awaitIdle(agent);
      RuntimeAgent.ExternalTurn external;
      try {
        external = agent.beginExternalTurn();
      } catch (IllegalStateException busy) {
        throw new IllegalStateException("spring-ai: the Horae agent of session " + session
            + " is running its own turn; retry the call", busy);
      }
      try (external) {
        BorrowedTurn turn = new BorrowedTurn(agent, external, turns.computeIfAbsent(session, k -> new AtomicLong()).incrementAndGet());
        ChatClientRequest advised = request.mutate()
            .prompt(withTools(request.prompt(), turn))
            .context(TURN_KEY, turn)
            .build();
        return chain.nextCall(advised);
      }
    }

    @Override
    public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
      return Flux.error(new UnsupportedOperationException(
          "spring-ai: the Horae advisors advise ChatClient call(), not stream()"));
    }

    private String session(ChatClientRequest request) {
      Object named = request.context().get(SESSION);
      if (named != null) {
        return named.toString();
      }
      if (defaultSession == null) {
        throw new IllegalArgumentException("spring-ai: no Horae session: pass the advisor parameter \""
            + SESSION + "\" or set HoraeAdvisors.Builder.defaultSession");
      }
      return defaultSession;
    }

    private void awaitIdle(RuntimeAgent agent) {
      try {
        agent.whenIdle().toCompletableFuture().get(idleWait.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("spring-ai: interrupted while waiting for agent " + agent.id(), e);
      } catch (ExecutionException | TimeoutException e) {
        throw new IllegalStateException("spring-ai: the Horae agent " + agent.id() + " did not become idle within " + idleWait, e);
      }
    }

    private Prompt withTools(Prompt prompt, BorrowedTurn turn) {
      List<ToolDefinition> horaeTools = runtime.tools().visibleTo(turn.agent);
      ChatOptions options = prompt.getOptions();
      if (!(options instanceof ToolCallingChatOptions calling)) {
        if (horaeTools.isEmpty()) {
          return prompt;
        }
        throw new SpringAiMappingException("the chat model's options ("
            + (options == null ? "none" : options.getClass().getName()) + ") cannot carry the Horae tools");
      }
      List<ToolCallback> callbacks = new ArrayList<>();
      Set<String> names = new HashSet<>();
      List<ToolCallback> own = calling.getToolCallbacks();
      for (ToolCallback c : own == null ? List.<ToolCallback>of() : own) {
        names.add(c.getToolDefinition().name());
        callbacks.add(new GatedCallback(runtime, turn, c.getToolDefinition(), c));
      }
      for (ToolDefinition d : horaeTools) {
        if (names.add(d.name())) {
          callbacks.add(new GatedCallback(runtime, turn,
              SpringAiMessages.toSpring(dev.horae.spi.model.ToolSpec.of(d)), null));
        }
      }
      ToolCallingChatOptions.Builder<?> builder = calling.mutate();
      builder.toolCallbacks(callbacks);
      return prompt.mutate().chatOptions(builder.build()).build();
    }
  }

  /**
   * Runs the agent's pre-step waterfall before every model call and appends the messages it
   * entered with (time-context's reading among them); inside the tool-calling loop.
   */
  static final class TimeAdvisor implements CallAdvisor, StreamAdvisor {

    TimeAdvisor() {}

    @Override
    public String getName() {
      return "Horae time reading";
    }

    @Override
    public int getOrder() {
      return TIME_ORDER;
    }

    @Override
    public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
      if (!(request.context().get(TURN_KEY) instanceof BorrowedTurn turn)) {
        throw new IllegalStateException("spring-ai: the Horae time advisor runs only with the Horae tools advisor");
      }
      int step = turn.step.incrementAndGet();
      // the runtime's own waterfall, with the plugins' configuration: the borrowed loop keeps no
      // Horae log, so time-context sees none of these steps and its elapsed line says
      // "unavailable" (docs/spring-ai.md)
      StepDecision decision = turn.external.preStep(List.of(), turn.turn, step).toCompletableFuture().join();
      if (decision instanceof StepDecision.Reject r) {
        throw new IllegalStateException("spring-ai: a pre-step listener rejected step " + step + " of turn " + turn.turn
            + " of session " + turn.agent.session().id() + " (" + r.reason() + "); the model call was not made");
      }
      ChatClientRequest advised = request;
      List<dev.horae.spi.message.UserMessage> entered = ((StepDecision.Enter) decision).messages();
      if (!entered.isEmpty()) {
        List<Message> messages = new ArrayList<>(request.prompt().getInstructions());
        for (dev.horae.spi.message.UserMessage m : entered) {
          messages.add(new UserMessage(m.text()));
        }
        advised = request.mutate().prompt(request.prompt().mutate().messages(messages).build()).build();
      }
      ChatClientResponse response = chain.nextCall(advised);
      ChatResponse chat = response.chatResponse();
      Generation result = chat == null ? null : chat.getResult();
      turn.responded(result == null ? List.of() : result.getOutput().getToolCalls());
      return response;
    }

    @Override
    public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
      return Flux.error(new UnsupportedOperationException(
          "spring-ai: the Horae advisors advise ChatClient call(), not stream()"));
    }
  }

  /** A tool call in the borrowed loop: the gate chain, then the application's callback or the Horae registry. */
  static final class GatedCallback implements ToolCallback {
    private final HoraeRuntime runtime;
    private final BorrowedTurn turn;
    private final org.springframework.ai.tool.definition.ToolDefinition definition;
    private final @Nullable ToolCallback own;

    GatedCallback(HoraeRuntime runtime, BorrowedTurn turn, org.springframework.ai.tool.definition.ToolDefinition definition,
        @Nullable ToolCallback own) {
      this.runtime = runtime;
      this.turn = turn;
      this.definition = definition;
      this.own = own;
    }

    @Override
    public org.springframework.ai.tool.definition.ToolDefinition getToolDefinition() {
      return definition;
    }

    @Override
    public org.springframework.ai.tool.metadata.ToolMetadata getToolMetadata() {
      return own != null ? own.getToolMetadata() : ToolCallback.super.getToolMetadata();
    }

    @Override
    public String call(String toolInput) {
      return call(toolInput, null);
    }

    @Override
    public String call(String toolInput, @Nullable ToolContext context) {
      String name = definition.name();
      String callId = turn.claimCallId(name, toolInput);
      JsonNode args;
      try {
        args = toolInput.isBlank() ? Json.mapper().createObjectNode() : Json.parse(toolInput);
      } catch (IllegalArgumentException e) {
        // the same answer the Horae registry gives arguments it cannot validate
        return "Error: invalid arguments: " + e.getMessage();
      }
      ToolCall call = new ToolCall(callId, name, args);
      GateOutcome outcome = join(runtime.gates().evaluate(call, turn.state()).toCompletableFuture(), name);
      if (outcome instanceof GateOutcome.RequireConfirmation || outcome instanceof GateOutcome.Schedule) {
        throw new BorrowedLoopGateException(outcome.auditLabel(), name, callId);
      }
      // Block and SetResult read as every Horae loop renders them
      if (outcome instanceof GateOutcome.Block || outcome instanceof GateOutcome.SetResult) {
        return ToolResult.ofGate(outcome).text();
      }
      if (own != null) {
        return own.call(toolInput, context);
      }
      ToolResult result = join(runtime.tools().call(new ToolInvocation(turn.agent, call), AbortSignal.never())
          .toCompletableFuture(), name);
      return result.text();
    }

    private static <T> T join(java.util.concurrent.CompletableFuture<T> stage, String tool) {
      try {
        return stage.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("spring-ai: interrupted while running tool \"" + tool + "\"", e);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        throw new IllegalStateException("spring-ai: the gate chain or tool \"" + tool + "\" failed: " + cause.getMessage(), cause);
      }
    }
  }
}

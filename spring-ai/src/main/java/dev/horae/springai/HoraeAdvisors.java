package dev.horae.springai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.runtime.HoraeRuntime;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.runtime.agent.RecordedTurn;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
import org.springframework.ai.chat.messages.SystemMessage;
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
 * mode). Each {@code ChatClient} call runs as one recorded turn of the Horae agent of its session
 * ({@link RuntimeAgent#beginRecordedTurn()}), written to the session log with the runtime's own
 * turn events, so reminders and job notices wait for it, later readings and reminder turns see it,
 * and:
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
 *       RecordedTurn#beginStep}) and the messages it enters with — the time-context plugin's
 *       reading, with the configuration it was installed with — are appended as user messages; a
 *       listener that rejects the step fails the call; the system prompt gets the registered
 *       prompt sections.
 * </ul>
 *
 * <pre>{@code
 * ChatClient chat = ChatClient.builder(chatModel)
 *     .defaultAdvisors(HoraeAdvisors.builder(horae).defaultSession("support-42").build())
 *     .build();
 * String answer = chat.prompt().user("Remind me in 10 minutes to call Ada.").call().content();
 * }</pre>
 *
 * <p>Limits, stated in docs/spring-ai.md: the model is sent the application's own messages (or
 * its chat memory) plus the readings, not the log's history; the gate chain sees the model's call id; only {@code
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
    final HoraeRuntime runtime;
    final RuntimeAgent agent;
    final RecordedTurn recorded;
    /** The calls of the latest model response not yet claimed by a callback: (name, args, id). */
    private final List<String[]> unclaimed = new ArrayList<>();
    private int generated;

    BorrowedTurn(HoraeRuntime runtime, RuntimeAgent agent, RecordedTurn recorded) {
      this.runtime = runtime;
      this.agent = agent;
      this.recorded = recorded;
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
      return "chatclient-" + recorded.turn() + "-" + recorded.step() + "-" + generated;
    }
  }

  /** Opens the external turn and offers the gated tools; outside the tool-calling loop. */
  static final class ToolsAdvisor implements CallAdvisor, StreamAdvisor {
    private final HoraeRuntime runtime;
    private final @Nullable String defaultSession;
    private final Optional<String> zone;
    private final Duration idleWait;

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
      RecordedTurn recorded;
      try {
        recorded = agent.beginRecordedTurn();
      } catch (IllegalStateException busy) {
        throw new IllegalStateException("spring-ai: the Horae agent of session " + session
            + " is running its own turn; retry the call", busy);
      }
      ChatClientResponse response;
      try {
        BorrowedTurn turn = new BorrowedTurn(runtime, agent, recorded);
        ChatClientRequest advised = request.mutate()
            .prompt(withTools(request.prompt(), turn))
            .context(TURN_KEY, turn)
            .build();
        response = chain.nextCall(advised);
      } catch (RuntimeException | Error e) {
        // the turn is written whole either way: unanswered calls as not performed, then turn/end
        recorded.end("error", String.valueOf(e.getMessage()));
        throw e;
      }
      recorded.end("completed", "the call ended");
      return response;
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
        callbacks.add(new GatedCallback(turn, c.getToolDefinition(), c));
      }
      for (ToolDefinition d : horaeTools) {
        if (names.add(d.name())) {
          callbacks.add(new GatedCallback(turn,
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
      RecordedTurn recorded = turn.recorded;
      Prompt prompt = request.prompt();
      // the step's input: the user's message on the first step, as the runtime's turns record it
      List<dev.horae.spi.message.UserMessage> proposal = List.of();
      if (recorded.step() == 0) {
        UserMessage user = prompt.getUserMessage();
        String text = user == null || user.getText() == null ? "" : user.getText();
        proposal = List.of(turn.runtime.messages().text(text, MessageSource.user()));
      }
      // the runtime's own waterfall, with the plugins' configuration (time-context's reading among it)
      StepDecision decision = recorded.beginStep(proposal).toCompletableFuture().join();
      if (decision instanceof StepDecision.Reject r) {
        throw new IllegalStateException("spring-ai: a pre-step listener rejected step " + recorded.step() + " of turn "
            + recorded.turn() + " of session " + turn.agent.session().id() + " (" + r.reason() + "); the model call was not made");
      }
      // the application keeps its messages; the model also gets what the waterfall added (the
      // user's own message is already among them) and the system prompt with the prompt sections
      List<Message> messages = new ArrayList<>();
      String system = "";
      boolean systemSeen = false;
      for (Message m : prompt.getInstructions()) {
        if (m instanceof SystemMessage sm && !systemSeen) {
          systemSeen = true;
          system = sm.getText() == null ? "" : sm.getText();
          continue;
        }
        messages.add(m);
      }
      for (dev.horae.spi.message.UserMessage m : ((StepDecision.Enter) decision).messages()) {
        if (!proposal.contains(m)) {
          messages.add(new UserMessage(m.text()));
        }
      }
      String withSections = recorded.systemPrompt(system);
      if (!withSections.isEmpty()) {
        messages.add(0, new SystemMessage(withSections));
      }
      ChatClientRequest advised = request.mutate().prompt(prompt.mutate().messages(messages).build()).build();
      ChatClientResponse response = chain.nextCall(advised);
      ChatResponse chat = response.chatResponse();
      Generation result = chat == null ? null : chat.getResult();
      if (chat != null) {
        recorded.recordResponse(SpringAiMessages.toHorae(chat));
      }
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
    private final BorrowedTurn turn;
    private final org.springframework.ai.tool.definition.ToolDefinition definition;
    private final @Nullable ToolCallback own;

    GatedCallback(BorrowedTurn turn, org.springframework.ai.tool.definition.ToolDefinition definition,
        @Nullable ToolCallback own) {
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
      ToolCallback app = own;
      CompletionStage<RecordedTurn.ToolOutcome> stage = app == null
          ? turn.recorded.callTool(call)
          : turn.recorded.callTool(call, c -> {
            String text = app.call(toolInput, context);
            return CompletableFuture.completedFuture(ToolResult.success(TextNode.valueOf(text), List.of(new ContentBlock(text))));
          });
      RecordedTurn.ToolOutcome outcome = join(stage.toCompletableFuture(), name);
      if (outcome instanceof RecordedTurn.ToolOutcome.WouldPark park) {
        throw new BorrowedLoopGateException(park.outcome().auditLabel(), name, callId);
      }
      // Block and SetResult read as every Horae loop renders them
      return ((RecordedTurn.ToolOutcome.Answered) outcome).result().text();
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

package dev.horae.springai;

import dev.horae.spi.Registration;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.metadata.EmptyUsage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import reactor.core.Disposable;

/**
 * The Horae runtime's model port over a Spring AI {@link ChatModel} (runtime-driven mode): each
 * step's request becomes one {@code ChatModel.stream(Prompt)} or {@code call(Prompt)} (below) with
 * the system prompt, the whole model-visible history and the agent's tools, and the first
 * generation becomes the step's response (see {@link SpringAiMessages} for the mapping).
 *
 * <pre>{@code
 * HoraeRuntime horae = HoraeRuntime.builder().dataDir(dir).model(SpringAiModelPort.of(chatModel)).build();
 * }</pre>
 *
 * <p><b>The runtime runs the tools, never Spring AI.</b> In Spring AI 2.0 a {@code ChatModel}
 * returns the model's tool calls and leaves their execution to {@code ChatClient}'s
 * {@code ToolCallingAdvisor}, which this port does not use. The tools reach the model through
 * declaration-only callbacks whose {@code call} throws, so a model implementation that tried to
 * run one itself would fail the step loudly instead of running a tool behind the gates.
 *
 * <p><b>Streaming.</b> When the model implements {@code ChatModel.stream(Prompt)} (Spring AI's
 * {@code OpenAiChatModel} does; the interface's default throws), each step is one
 * {@code stream(Prompt)}: every piece of text reaches the request's stream sink as it arrives (the
 * runtime records it as an {@code assistant/chunk}), and the pieces, the tool calls, the last
 * finish reason and the last reported usage make the step's response. A stream that fails with
 * {@code UnsupportedOperationException} before its first piece (a wrapper over a model that does
 * not stream) is retried once as a {@code call(Prompt)}. {@link #withStreaming(boolean)} turns
 * streaming off.
 *
 * <p>The request options start from the model's own ({@code chatModel.getOptions().mutate()}, as
 * {@code ChatClient} does), or from the options given to {@link #of(ChatModel, ChatOptions)}. The
 * blocking call, or the subscription to the stream, runs on the port's executor (by default a new
 * daemon thread per call), so the agent's driver thread never waits on the network. The turn's
 * abort signal fails the step at once (the engine ends the turn {@code aborted}) and cancels the
 * stream's subscription, which closes its HTTP call; a blocking {@code call} is not interrupted,
 * but an abort fails its step at once too, and a call not yet started when the turn aborts never
 * starts; the late answer of one under way is dropped.
 */
public final class SpringAiModelPort implements ModelPort {

  private static final Executor THREAD_PER_CALL = task -> {
    Thread t = new Thread(task, "horae-spring-ai-model");
    t.setDaemon(true);
    t.start();
  };

  private final ChatModel model;
  private final @Nullable ChatOptions options;
  private final Executor executor;
  private final boolean streaming;

  private SpringAiModelPort(ChatModel model, @Nullable ChatOptions options, Executor executor, boolean streaming) {
    this.model = Objects.requireNonNull(model, "model");
    this.options = options;
    this.executor = Objects.requireNonNull(executor, "executor");
    this.streaming = streaming;
  }

  /**
   * A port over the model with its default options.
   *
   * @param model the chat model
   * @return the port
   */
  public static SpringAiModelPort of(ChatModel model) {
    return new SpringAiModelPort(model, null, THREAD_PER_CALL, implementsStream(model));
  }

  /**
   * A port over the model with base options (model name, temperature, …); the tools of each
   * request are added to a copy of them.
   *
   * @param model the chat model
   * @param options the base options
   * @return the port
   */
  public static SpringAiModelPort of(ChatModel model, ChatOptions options) {
    return new SpringAiModelPort(model, Objects.requireNonNull(options, "options"), THREAD_PER_CALL, implementsStream(model));
  }

  /**
   * The same port running its blocking calls and stream subscriptions on {@code executor}.
   *
   * @param executor where {@code ChatModel.call} runs and {@code ChatModel.stream} is subscribed to
   * @return a new port
   */
  public SpringAiModelPort withExecutor(Executor executor) {
    return new SpringAiModelPort(model, options, executor, streaming);
  }

  /**
   * The same port streaming or not. By default it streams when the model implements {@code
   * stream(Prompt)}; asking for streaming from a model that does not falls back to {@code call}.
   *
   * @param stream true to use {@code ChatModel.stream}, false for one {@code call} per step
   * @return a new port
   */
  public SpringAiModelPort withStreaming(boolean stream) {
    return new SpringAiModelPort(model, options, executor, stream);
  }

  /**
   * Whether this port streams its steps.
   *
   * @return true when each step is one {@code ChatModel.stream(Prompt)}
   */
  public boolean streams() {
    return streaming;
  }

  /** The interface's default {@code stream(Prompt)} only throws: a model streams when it has its own. */
  private static boolean implementsStream(ChatModel model) {
    try {
      Class<?> declaring = model.getClass().getMethod("stream", Prompt.class).getDeclaringClass();
      return !declaring.isInterface();
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  @Override
  public CompletionStage<ModelResponse> complete(ModelRequest request) {
    Prompt prompt;
    try {
      prompt = prompt(request);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (!streaming) {
      return blocking(prompt, request);
    }
    return stream(prompt, request);
  }

  private CompletionStage<ModelResponse> blocking(Prompt prompt, ModelRequest request) {
    CompletableFuture<ModelResponse> out = new CompletableFuture<>();
    if (request.signal().aborted()) {
      out.completeExceptionally(new CancellationException("the turn was aborted before the model call"));
      return out;
    }
    // the blocking call cannot be cancelled from here (interrupting a thread of a caller's executor
    // could break what else that thread serves), so an abort ends the step at once and the call's
    // late answer is dropped: the engine never waits on a network call for a turn it has aborted
    Registration abort = request.signal().onAbort(() ->
        out.completeExceptionally(new CancellationException("the turn was aborted while the model was called")));
    var unused = out.whenComplete((r, e) -> abort.close());
    try {
      executor.execute(() -> {
        if (out.isDone()) {
          return;
        }
        try {
          out.complete(call(prompt));
        } catch (RuntimeException | Error e) {
          out.completeExceptionally(e);
        }
      });
    } catch (RuntimeException e) {
      out.completeExceptionally(e);
    }
    return out;
  }

  private ModelResponse call(Prompt prompt) {
    ChatResponse response = model.call(prompt);
    if (response == null) {
      throw new SpringAiMappingException("the chat model returned no response");
    }
    return SpringAiMessages.toHorae(response);
  }

  private CompletionStage<ModelResponse> stream(Prompt prompt, ModelRequest request) {
    CompletableFuture<ModelResponse> out = new CompletableFuture<>();
    if (request.signal().aborted()) {
      out.completeExceptionally(new CancellationException("the turn was aborted before the model call"));
      return out;
    }
    AtomicReference<@Nullable Disposable> subscription = new AtomicReference<>();
    Registration abort = request.signal().onAbort(() -> {
      out.completeExceptionally(new CancellationException("the turn was aborted while the model streamed"));
      // a client's cancellation may wait for its reading thread (OpenAiChatModel's closes the SDK's
      // stream response), so the thread that aborts never runs it
      executor.execute(() -> dispose(subscription));
    });
    var unused = out.whenComplete((r, e) -> abort.close());
    Streamed streamed = new Streamed();
    AtomicBoolean pieceSeen = new AtomicBoolean();
    try {
      executor.execute(() -> {
        try {
          subscription.set(model.stream(prompt).subscribe(chunk -> {
            if (out.isDone()) {
              return;
            }
            String piece = streamed.add(chunk);
            pieceSeen.set(true);
            if (!piece.isEmpty()) {
              request.stream().text(piece);
            }
          }, failure -> {
            if (failure instanceof UnsupportedOperationException && !pieceSeen.get()) {
              // a model (or a wrapper) without a stream of its own: the step is one call instead
              try {
                out.complete(call(prompt));
              } catch (RuntimeException e) {
                out.completeExceptionally(e);
              }
            } else {
              out.completeExceptionally(failure);
            }
          }, () -> {
            try {
              out.complete(streamed.response());
            } catch (RuntimeException e) {
              out.completeExceptionally(e);
            }
          }));
        } catch (RuntimeException e) {
          out.completeExceptionally(e);
        }
        if (out.isDone()) {
          // aborted before the subscription existed: cancel it now
          dispose(subscription);
        }
      });
    } catch (RuntimeException e) {
      out.completeExceptionally(e);
    }
    return out;
  }

  private static void dispose(AtomicReference<@Nullable Disposable> subscription) {
    Disposable d = subscription.get();
    if (d != null) {
      d.dispose();
    }
  }

  /**
   * The pieces of one streamed answer: the text in order, the tool calls by id (a piece without
   * an id continues the previous call's arguments, as OpenAI-style deltas do), the last finish
   * reason and the last usage a piece reported. Pieces arrive one at a time (reactive streams
   * signal serially), but on the subscriber's thread, hence the lock.
   */
  private static final class Streamed {
    private final StringBuilder text = new StringBuilder();
    private final List<String[]> calls = new ArrayList<>();
    private @Nullable String finish;
    private @Nullable Usage usage;

    /** Adds a piece; returns its text (empty when it carries none). */
    synchronized String add(ChatResponse chunk) {
      if (chunk.getMetadata() != null && chunk.getMetadata().getUsage() != null
          && !(chunk.getMetadata().getUsage() instanceof EmptyUsage)) {
        usage = chunk.getMetadata().getUsage();
      }
      Generation g = chunk.getResult();
      if (g == null) {
        return "";
      }
      String reason = g.getMetadata().getFinishReason();
      if (reason != null && !reason.isEmpty()) {
        finish = reason;
      }
      AssistantMessage m = g.getOutput();
      for (AssistantMessage.ToolCall c : m.getToolCalls()) {
        addCall(c);
      }
      String piece = m.getText() == null ? "" : m.getText();
      text.append(piece);
      return piece;
    }

    private void addCall(AssistantMessage.ToolCall c) {
      String id = c.id() == null ? "" : c.id();
      String args = c.arguments() == null ? "" : c.arguments();
      String[] last = calls.isEmpty() ? null : calls.get(calls.size() - 1);
      if (last != null && (id.isEmpty() || id.equals(last[0]))) {
        if (last[1].isEmpty() && c.name() != null) {
          last[1] = c.name();
        }
        last[2] = last[2] + args;
        return;
      }
      calls.add(new String[] {id, c.name() == null ? "" : c.name(), args});
    }

    synchronized ModelResponse response() {
      List<dev.horae.spi.gate.ToolCall> mapped = calls.stream()
          .map(c -> SpringAiMessages.toHorae(new AssistantMessage.ToolCall(c[0], "function", c[1], c[2])))
          .toList();
      return new ModelResponse(text.toString(), mapped, SpringAiMessages.toHorae(finish, !mapped.isEmpty()),
          SpringAiMessages.toHorae(usage));
    }
  }

  /**
   * The Spring AI prompt of one step: messages, and options carrying the agent's tools.
   *
   * @param request the step's request
   * @return the prompt
   * @throws SpringAiMappingException when the request has tools but the model's options cannot
   *     carry tool callbacks
   */
  public Prompt prompt(ModelRequest request) {
    List<Message> messages = SpringAiMessages.toSpring(request.systemPrompt(), request.messages());
    ChatOptions base = options != null ? options : model.getOptions();
    ChatOptions.Builder<?> builder = base.mutate();
    if (!request.tools().isEmpty()) {
      if (!(builder instanceof ToolCallingChatOptions.Builder<?> tools)) {
        throw new SpringAiMappingException("the chat model's options (" + base.getClass().getName()
            + ") cannot carry tools, but the agent has " + request.tools().size());
      }
      tools.toolCallbacks(request.tools().stream().map(DeclaredTool::new).map(ToolCallback.class::cast).toList());
    }
    return new Prompt(messages, builder.build());
  }

  /** A tool the model is told about; the Horae runtime runs it, so calling it here is a bug. */
  private static final class DeclaredTool implements ToolCallback {
    private final ToolDefinition definition;

    DeclaredTool(ToolSpec spec) {
      this.definition = SpringAiMessages.toSpring(spec);
    }

    @Override
    public ToolDefinition getToolDefinition() {
      return definition;
    }

    @Override
    public String call(String toolInput) {
      throw new IllegalStateException("spring-ai: tool \"" + definition.name()
          + "\" is run by the Horae runtime, not by Spring AI; the chat model must return its calls");
    }
  }
}

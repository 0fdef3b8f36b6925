package dev.horae.springai;

import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.ToolSpec;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * The Horae runtime's model port over a Spring AI {@link ChatModel} (runtime-driven mode): each
 * step's request becomes one {@code ChatModel.call(Prompt)} with the system prompt, the whole
 * model-visible history and the agent's tools, and the first generation becomes the step's
 * response (see {@link SpringAiMessages} for the mapping).
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
 * <p>The request options start from the model's own ({@code chatModel.getOptions().mutate()}, as
 * {@code ChatClient} does), or from the options given to {@link #of(ChatModel, ChatOptions)}. The
 * blocking call runs on the port's executor (by default a new daemon thread per call), so the
 * agent's driver thread never waits on the network. The turn's abort signal makes the engine end
 * the turn {@code aborted} at once; the HTTP call itself is not interrupted.
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

  private SpringAiModelPort(ChatModel model, @Nullable ChatOptions options, Executor executor) {
    this.model = Objects.requireNonNull(model, "model");
    this.options = options;
    this.executor = Objects.requireNonNull(executor, "executor");
  }

  /**
   * A port over the model with its default options.
   *
   * @param model the chat model
   * @return the port
   */
  public static SpringAiModelPort of(ChatModel model) {
    return new SpringAiModelPort(model, null, THREAD_PER_CALL);
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
    return new SpringAiModelPort(model, Objects.requireNonNull(options, "options"), THREAD_PER_CALL);
  }

  /**
   * The same port running its blocking calls on {@code executor}.
   *
   * @param executor where {@code ChatModel.call} runs
   * @return a new port
   */
  public SpringAiModelPort withExecutor(Executor executor) {
    return new SpringAiModelPort(model, options, executor);
  }

  @Override
  public CompletionStage<ModelResponse> complete(ModelRequest request) {
    Prompt prompt;
    try {
      prompt = prompt(request);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return CompletableFuture.supplyAsync(() -> {
      ChatResponse response = model.call(prompt);
      if (response == null) {
        throw new SpringAiMappingException("the chat model returned no response");
      }
      return SpringAiMessages.toHorae(response);
    }, executor);
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

package dev.horae.langchain4j;

import dev.horae.spi.Registration;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The runtime's model port over a LangChain4j chat model: each step's request goes out as a
 * {@link ChatRequest} ({@link LangChain4jMapping#toChatRequest}) and the {@link ChatResponse}
 * comes back as the step's {@link ModelResponse}.
 *
 * <p>A blocking {@link ChatModel} is called on a thread of its own (daemon threads that end when
 * idle), so the runtime's driver never blocks on the network; when the turn's signal fires the
 * stage fails with a {@link CancellationException} and the calling thread is interrupted (the
 * JDK HTTP client LangChain4j uses by default gives up on interrupt). A {@link StreamingChatModel}
 * hands each partial text to the request's stream sink, which records it as an {@code
 * assistant/chunk}; the signal cancels the stream through LangChain4j's streaming handle. A
 * mapping failure (a tool schema LangChain4j cannot carry) fails the stage with {@link
 * LangChain4jMappingException}, and the turn ends {@code error}.
 */
public final class LangChain4jModel implements ModelPort {

  private static final AtomicInteger THREADS = new AtomicInteger();

  private final @Nullable ChatModel chat;
  private final @Nullable StreamingChatModel streaming;
  private final @Nullable ExecutorService calls;

  private LangChain4jModel(@Nullable ChatModel chat, @Nullable StreamingChatModel streaming, @Nullable ExecutorService calls) {
    this.chat = chat;
    this.streaming = streaming;
    this.calls = calls;
  }

  /**
   * The port over a blocking chat model.
   *
   * @param model the model
   * @return the port
   */
  public static LangChain4jModel of(ChatModel model) {
    Objects.requireNonNull(model, "model");
    return new LangChain4jModel(model, null, Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "horae-langchain4j-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      return t;
    }));
  }

  /**
   * The port over a streaming chat model; partial text reaches the request's stream sink.
   *
   * @param model the model
   * @return the port
   */
  public static LangChain4jModel of(StreamingChatModel model) {
    return new LangChain4jModel(null, Objects.requireNonNull(model, "model"), null);
  }

  @Override
  public CompletionStage<ModelResponse> complete(ModelRequest request) {
    CompletableFuture<ModelResponse> out = new CompletableFuture<>();
    if (request.signal().aborted()) {
      out.completeExceptionally(new CancellationException("the turn was aborted before the model call"));
      return out;
    }
    ChatRequest chatRequest;
    try {
      chatRequest = LangChain4jMapping.toChatRequest(request);
    } catch (RuntimeException e) {
      out.completeExceptionally(e);
      return out;
    }
    String idPrefix = "call-" + request.turn() + "-" + request.step();
    if (chat != null && calls != null) {
      blocking(chat, calls, chatRequest, idPrefix, request, out);
    } else {
      stream(Objects.requireNonNull(streaming), chatRequest, idPrefix, request, out);
    }
    return out;
  }

  private static void blocking(ChatModel model, ExecutorService calls, ChatRequest chatRequest, String idPrefix, ModelRequest request,
      CompletableFuture<ModelResponse> out) {
    Future<?> call = calls.submit(() -> {
      try {
        out.complete(LangChain4jMapping.toModelResponse(model.chat(chatRequest), idPrefix));
      } catch (RuntimeException e) {
        out.completeExceptionally(e);
      }
    });
    Registration abort = request.signal().onAbort(() -> {
      out.completeExceptionally(new CancellationException("the turn was aborted during the model call"));
      call.cancel(true);
    });
    var unused = out.whenComplete((r, e) -> abort.close());
  }

  private static void stream(StreamingChatModel model, ChatRequest chatRequest, String idPrefix, ModelRequest request,
      CompletableFuture<ModelResponse> out) {
    AtomicReference<@Nullable StreamingHandle> handle = new AtomicReference<>();
    Registration abort = request.signal().onAbort(() -> {
      out.completeExceptionally(new CancellationException("the turn was aborted while the model streamed"));
      StreamingHandle h = handle.get();
      if (h != null) {
        h.cancel();
      }
    });
    var unused = out.whenComplete((r, e) -> abort.close());
    try {
      model.chat(chatRequest, new StreamingChatResponseHandler() {
        @Override
        public void onPartialResponse(String text) {
          if (!out.isDone() && text != null && !text.isEmpty()) {
            request.stream().text(text);
          }
        }

        @Override
        public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
          handle.set(context.streamingHandle());
          if (out.isDone()) {
            context.streamingHandle().cancel();
            return;
          }
          onPartialResponse(partial.text());
        }

        @Override
        public void onCompleteResponse(ChatResponse response) {
          try {
            out.complete(LangChain4jMapping.toModelResponse(response, idPrefix));
          } catch (RuntimeException e) {
            out.completeExceptionally(e);
          }
        }

        @Override
        public void onError(Throwable error) {
          out.completeExceptionally(error);
        }
      });
    } catch (RuntimeException e) {
      out.completeExceptionally(e);
    }
  }
}

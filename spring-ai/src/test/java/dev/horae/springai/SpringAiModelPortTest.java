package dev.horae.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.AbortController;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.FinishReason;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.StreamSink;
import dev.horae.spi.model.TokenUsage;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/** The model port streams when the model has a stream of its own, and the abort signal cancels it. */
@Timeout(30)
class SpringAiModelPortTest {

  private static ChatResponse piece(String text, List<AssistantMessage.ToolCall> calls, @Nullable String finish) {
    AssistantMessage m = AssistantMessage.builder().content(text).toolCalls(calls).build();
    ChatGenerationMetadata.Builder metadata = ChatGenerationMetadata.builder();
    if (finish != null) {
      metadata.finishReason(finish);
    }
    return new ChatResponse(List.of(new Generation(m, metadata.build())));
  }

  private static ModelRequest request(AbortSignal signal, StreamSink sink) {
    List<ChatMessage> messages = List.of(new ChatMessage.User("hi", MessageSource.user()));
    return new ModelRequest("a", "s", 1, 1, "", messages, List.of(), signal, sink);
  }

  /** A model whose stream is the given flux; its blocking call counts. */
  static class StreamingModel implements ChatModel {
    final Flux<ChatResponse> flux;
    final AtomicInteger calls = new AtomicInteger();

    StreamingModel(Flux<ChatResponse> flux) {
      this.flux = flux;
    }

    @Override
    public ChatResponse call(Prompt prompt) {
      calls.incrementAndGet();
      return piece("called", List.of(), "STOP");
    }

    @Override
    public Flux<ChatResponse> stream(Prompt prompt) {
      return flux;
    }

    @Override
    public ChatOptions getOptions() {
      return ToolCallingChatOptions.builder().build();
    }
  }

  /** A model with only the interface's default stream, which throws; its blocking call counts. */
  static class CallingModel implements ChatModel {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public ChatResponse call(Prompt prompt) {
      calls.incrementAndGet();
      return piece("called", List.of(), "STOP");
    }

    @Override
    public ChatOptions getOptions() {
      return ToolCallingChatOptions.builder().build();
    }
  }

  @Test
  void piecesReachTheSinkInOrderAndMakeOneResponseWithTheCallsFinishAndUsage() throws Exception {
    ChatResponse usage = new ChatResponse(List.of(), ChatResponseMetadata.builder().usage(new DefaultUsage(120, 7)).build());
    StreamingModel model = new StreamingModel(Flux.just(
        piece("Checking ", List.of(), null),
        piece("the weather.", List.of(new AssistantMessage.ToolCall("c-1", "function", "weather", "{\"city\":")), null),
        piece("", List.of(new AssistantMessage.ToolCall("", "function", "", "\"Delft\"}")), null),
        piece("", List.of(), "TOOL_CALLS"),
        usage));
    SpringAiModelPort port = SpringAiModelPort.of(model);
    assertThat(port.streams()).isTrue();
    List<String> sink = new CopyOnWriteArrayList<>();
    ModelResponse response = port.complete(request(AbortSignal.never(), sink::add)).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(sink).containsExactly("Checking ", "the weather.");
    assertThat(response.text()).isEqualTo("Checking the weather.");
    assertThat(response.toolCalls()).singleElement().satisfies(c -> {
      assertThat(c.callId()).isEqualTo("c-1");
      assertThat(c.toolId()).isEqualTo("weather");
      assertThat(c.arguments().path("city").asText()).isEqualTo("Delft");
    });
    assertThat(response.finish()).isEqualTo(FinishReason.TOOL_CALLS);
    assertThat(response.usage()).isEqualTo(new TokenUsage(120, 7));
    assertThat(model.calls).hasValue(0);
  }

  @Test
  void theAbortSignalFailsTheStepAndCancelsTheStream() throws Exception {
    Sinks.Many<ChatResponse> upstream = Sinks.many().unicast().onBackpressureBuffer();
    CompletableFuture<Void> cancelled = new CompletableFuture<>();
    StreamingModel model = new StreamingModel(upstream.asFlux().doOnCancel(() -> cancelled.complete(null)));
    AbortController abort = new AbortController();
    CompletableFuture<String> first = new CompletableFuture<>();
    CompletableFuture<ModelResponse> step = SpringAiModelPort.of(model)
        .complete(request(abort.signal(), first::complete)).toCompletableFuture();
    upstream.tryEmitNext(piece("Thinking", List.of(), null));
    assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("Thinking");
    abort.abort();
    cancelled.get(10, TimeUnit.SECONDS);
    assertThatThrownBy(() -> step.get(10, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class)
        .hasMessage("the turn was aborted while the model streamed");
  }

  @Test
  void aModelWithoutAStreamOfItsOwnIsCalledAndOneThatRefusesToStreamFallsBackToACall() throws Exception {
    CallingModel plain = new CallingModel();
    SpringAiModelPort port = SpringAiModelPort.of(plain);
    assertThat(port.streams()).isFalse();
    assertThat(port.complete(request(AbortSignal.never(), StreamSink.NONE)).toCompletableFuture().get(10, TimeUnit.SECONDS).text())
        .isEqualTo("called");
    assertThat(plain.calls).hasValue(1);

    // a wrapper that has stream() but whose delegate does not stream
    StreamingModel refusing = new StreamingModel(Flux.error(new UnsupportedOperationException("streaming is not supported")));
    assertThat(SpringAiModelPort.of(refusing).complete(request(AbortSignal.never(), StreamSink.NONE))
        .toCompletableFuture().get(10, TimeUnit.SECONDS).text()).isEqualTo("called");
    assertThat(refusing.calls).hasValue(1);

    // streaming turned off: the streaming model is called
    StreamingModel off = new StreamingModel(Flux.error(new AssertionError("not streamed")));
    assertThat(SpringAiModelPort.of(off).withStreaming(false).complete(request(AbortSignal.never(), StreamSink.NONE))
        .toCompletableFuture().get(10, TimeUnit.SECONDS).text()).isEqualTo("called");
    assertThat(off.calls).hasValue(1);
  }

  @Test
  void theAbortSignalFailsABlockingCallAtOnceAndDropsItsLateAnswer() throws Exception {
    CompletableFuture<Void> entered = new CompletableFuture<>();
    CompletableFuture<Void> release = new CompletableFuture<>();
    CallingModel held = new CallingModel() {
      @Override
      public ChatResponse call(Prompt prompt) {
        calls.incrementAndGet();
        entered.complete(null);
        release.join();
        return piece("late", List.of(), "STOP");
      }
    };
    AbortController abort = new AbortController();
    CompletableFuture<ModelResponse> step = SpringAiModelPort.of(held)
        .complete(request(abort.signal(), StreamSink.NONE)).toCompletableFuture();
    entered.get(10, TimeUnit.SECONDS);
    abort.abort();
    // the step fails while the call still blocks
    assertThatThrownBy(() -> step.get(10, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class)
        .hasMessage("the turn was aborted while the model was called");
    release.complete(null);
    assertThat(step.isCompletedExceptionally()).isTrue();
    assertThat(held.calls).hasValue(1);
  }

  @Test
  void aBlockingCallQueuedWhenTheTurnAbortsNeverStarts() throws Exception {
    CallingModel plain = new CallingModel();
    List<Runnable> queued = new CopyOnWriteArrayList<>();
    AbortController abort = new AbortController();
    CompletableFuture<ModelResponse> step = SpringAiModelPort.of(plain).withExecutor(queued::add)
        .complete(request(abort.signal(), StreamSink.NONE)).toCompletableFuture();
    abort.abort();
    queued.forEach(Runnable::run);
    assertThat(step.isCompletedExceptionally()).isTrue();
    assertThat(plain.calls).hasValue(0);

    AbortController before = new AbortController();
    before.abort();
    CompletableFuture<ModelResponse> never = SpringAiModelPort.of(plain).withExecutor(queued::add)
        .complete(request(before.signal(), StreamSink.NONE)).toCompletableFuture();
    assertThatThrownBy(() -> never.get(10, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class)
        .hasMessage("the turn was aborted before the model call");
    assertThat(plain.calls).hasValue(0);
  }
}

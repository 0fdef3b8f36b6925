package dev.horae.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.AbortController;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.FinishReason;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.TokenUsage;
import dev.horae.spi.model.ToolSpec;
import dev.horae.spi.session.Json;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The mappings both ways, the model port's streaming and abort, and the @Tool registration. */
class MappingTest {

  private static final String SCHEMA = "{\"type\":\"object\",\"description\":\"root\",\"properties\":{"
      + "\"name\":{\"type\":\"string\",\"description\":\"who\"},"
      + "\"count\":{\"type\":\"integer\"},"
      + "\"mode\":{\"type\":\"string\",\"enum\":[\"fast\",\"slow\"],\"description\":\"how\"},"
      + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
      + "\"where\":{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"],\"additionalProperties\":false},"
      + "\"kind\":{\"const\":\"after\"},"
      + "\"at\":{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"number\"}]}},"
      + "\"required\":[\"name\"]}";

  @Test
  void aHoraeSchemaMapsToLangChain4jTypesAndRawElementsForTheRest() {
    JsonObjectSchema p = JsonSchemas.toLangChain4j("t", Json.parse(SCHEMA));
    assertThat(p.description()).isEqualTo("root");
    assertThat(p.required()).containsExactly("name");
    assertThat(p.properties().get("name")).isInstanceOfSatisfying(JsonStringSchema.class, s -> assertThat(s.description()).isEqualTo("who"));
    assertThat(p.properties().get("count")).isInstanceOf(JsonIntegerSchema.class);
    assertThat(p.properties().get("mode")).isInstanceOfSatisfying(JsonEnumSchema.class, s -> {
      assertThat(s.enumValues()).containsExactly("fast", "slow");
      assertThat(s.description()).isEqualTo("how");
    });
    assertThat(p.properties().get("tags")).isInstanceOfSatisfying(JsonArraySchema.class,
        a -> assertThat(a.items()).isInstanceOf(JsonStringSchema.class));
    assertThat(p.properties().get("where")).isInstanceOfSatisfying(JsonObjectSchema.class, o -> {
      assertThat(o.required()).containsExactly("city");
      assertThat(o.additionalProperties()).isFalse();
    });
    assertThat(p.properties().get("kind")).isInstanceOfSatisfying(JsonRawSchema.class,
        r -> assertThat(Json.parse(r.schema())).isEqualTo(Json.parse("{\"const\":\"after\"}")));
    assertThat(p.properties().get("at")).isInstanceOf(JsonRawSchema.class);
    // and back: the same schema
    assertThat(JsonSchemas.toHorae(p)).isEqualTo(Json.parse(SCHEMA));
  }

  @Test
  void aRootLangChain4jCannotCarryFailsWithAStableMessage() {
    assertThatThrownBy(() -> JsonSchemas.toLangChain4j("t", Json.parse("{\"oneOf\":[{\"type\":\"object\"}]}")))
        .isInstanceOfSatisfying(LangChain4jMappingException.class, e -> {
          assertThat(e.code()).isEqualTo(LangChain4jMappingException.UNSUPPORTED_SCHEMA);
          assertThat(e.getMessage()).isEqualTo("unsupported-schema: tool \"t\": the root keyword \"oneOf\" has no LangChain4j"
              + " counterpart (the root takes type, properties, required, additionalProperties, description)");
        });
    assertThatThrownBy(() -> JsonSchemas.toLangChain4j("t", Json.parse("{\"type\":\"array\"}")))
        .hasMessage("unsupported-schema: tool \"t\": the argument schema's root type must be \"object\", got \"array\"");
  }

  @Test
  void aRecursiveReferenceFailsAndAPlainOneIsInlined() {
    JsonObjectSchema node = JsonObjectSchema.builder().addProperty("next", JsonReferenceSchema.builder().reference("node").build()).build();
    JsonObjectSchema recursive = JsonObjectSchema.builder().addProperty("root", JsonReferenceSchema.builder().reference("node").build())
        .definitions(Map.of("node", node)).build();
    assertThatThrownBy(() -> JsonSchemas.toHorae(recursive)).hasMessageStartingWith("unsupported-schema: the reference \"node\" is recursive");
    JsonObjectSchema plain = JsonObjectSchema.builder().addProperty("a", JsonReferenceSchema.builder().reference("s").build())
        .definitions(Map.of("s", new JsonStringSchema())).build();
    assertThat(JsonSchemas.toHorae(plain).path("properties").path("a")).isEqualTo(Json.parse("{\"type\":\"string\"}"));
  }

  private static ModelRequest request(List<ChatMessage> history, AbortController signal, List<String> streamed) {
    return new ModelRequest("a", "s", 2, 3, "be brief", history,
        List.of(new ToolSpec("echo", "Echoes", Json.parse("{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"}}}"))),
        signal, streamed::add);
  }

  @Test
  void aRequestAndAResponseMapBothWays() {
    ToolCall call = new ToolCall("c1", "echo", Json.parse("{\"x\":\"hi\"}"));
    List<ChatMessage> history = List.of(new ChatMessage.User("hello", MessageSource.user()),
        new ChatMessage.Assistant("", List.of(call)), new ChatMessage.ToolOutcome("c1", "echo", "Error: bad", true));
    ChatRequest r = LangChain4jMapping.toChatRequest(request(history, new AbortController(), new ArrayList<>()));
    assertThat(r.messages().get(0)).isEqualTo(SystemMessage.from("be brief"));
    assertThat(r.messages().get(1)).isEqualTo(UserMessage.from("hello"));
    AiMessage ai = (AiMessage) r.messages().get(2);
    assertThat(ai.text()).isNull();
    assertThat(ai.toolExecutionRequests()).singleElement().satisfies(t -> {
      assertThat(t.id()).isEqualTo("c1");
      assertThat(Json.parse(t.arguments())).isEqualTo(Json.parse("{\"x\":\"hi\"}"));
    });
    ToolExecutionResultMessage result = (ToolExecutionResultMessage) r.messages().get(3);
    assertThat(result.isError()).isTrue();
    assertThat(result.text()).isEqualTo("Error: bad");
    assertThat(r.toolSpecifications()).singleElement().satisfies(s -> assertThat(s.description()).isEqualTo("Echoes"));

    ChatResponse response = ChatResponse.builder()
        .aiMessage(AiMessage.from(ToolExecutionRequest.builder().name("echo").arguments("not json").build()))
        .finishReason(dev.langchain4j.model.output.FinishReason.TOOL_EXECUTION)
        .tokenUsage(new dev.langchain4j.model.output.TokenUsage(12, 4)).build();
    ModelResponse m = LangChain4jMapping.toModelResponse(response, "call-2-3");
    assertThat(m.toolCalls()).singleElement().satisfies(c -> {
      assertThat(c.callId()).isEqualTo("call-2-3-1");
      assertThat(c.arguments().asText()).isEqualTo("not json");
    });
    assertThat(LangChain4jMapping.toRequest(m.toolCalls().get(0)).arguments()).isEqualTo("not json");
    assertThat(m.finish()).isEqualTo(FinishReason.TOOL_CALLS);
    assertThat(m.usage()).isEqualTo(new TokenUsage(12, 4));
    for (FinishReason f : FinishReason.values()) {
      assertThat(LangChain4jMapping.toHorae(LangChain4jMapping.toLangChain4j(f))).isEqualTo(f);
    }
    assertThat(LangChain4jMapping.toHorae(LangChain4jMapping.toLangChain4j(TokenUsage.UNKNOWN))).isEqualTo(TokenUsage.UNKNOWN);
    assertThat(LangChain4jMapping.toModelResponse(LangChain4jMapping.toChatResponse(ModelResponse.text("x")), "p")).isEqualTo(
        new ModelResponse("x", List.of(), FinishReason.STOP, TokenUsage.UNKNOWN));
  }

  @Test
  void aStreamingModelHandsPartsToTheSinkAndTheSignalCancelsIt() throws Exception {
    StreamingChatModel streaming = new StreamingChatModel() {
      @Override
      public void doChat(ChatRequest chatRequest, StreamingChatResponseHandler handler) {
        handler.onPartialResponse("Hel");
        handler.onPartialResponse("lo");
        handler.onCompleteResponse(ChatResponse.builder().aiMessage(AiMessage.from("Hello"))
            .finishReason(dev.langchain4j.model.output.FinishReason.LENGTH).build());
      }
    };
    List<String> parts = new ArrayList<>();
    ModelResponse r = LangChain4jModel.of(streaming).complete(request(List.of(), new AbortController(), parts)).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(parts).containsExactly("Hel", "lo");
    assertThat(r.text()).isEqualTo("Hello");
    assertThat(r.finish()).isEqualTo(FinishReason.MAX_TOKENS);

    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    dev.langchain4j.model.chat.ChatModel hanging = new dev.langchain4j.model.chat.ChatModel() {
      @Override
      public ChatResponse doChat(ChatRequest chatRequest) {
        entered.countDown();
        try {
          new CountDownLatch(1).await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          interrupted.countDown();
          Thread.currentThread().interrupt();
        }
        return ChatResponse.builder().aiMessage(AiMessage.from("late")).build();
      }
    };
    AbortController signal = new AbortController();
    CompletableFuture<ModelResponse> pending = LangChain4jModel.of(hanging).complete(request(List.of(), signal, new ArrayList<>())).toCompletableFuture();
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    signal.abort(new IllegalStateException("user cancelled"));
    assertThatThrownBy(() -> pending.get(10, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class)
        .hasMessage("the turn was aborted during the model call");
    assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("the blocked call was interrupted").isTrue();
  }

  /** An application tool. */
  static final class Weather {
    @Tool("Current temperature of a city")
    String temperature(@P("the city") String city) {
      if (city.isEmpty()) {
        throw new IllegalArgumentException("no city");
      }
      return city + ": 21 C";
    }
  }

  @Test
  void aToolMethodBecomesAHoraeToolWithItsSchemaAndItsErrors() throws Exception {
    var definition = LangChain4jTools.definitions(new Weather()).get(0);
    assertThat(definition.name()).isEqualTo("temperature");
    assertThat(definition.parameters()).isEqualTo(JsonSchemas.toHorae(ToolSpecifications.toolSpecificationsFrom(new Weather()).get(0).parameters()));
    assertThat(definition.parameters().path("properties").path("city").path("description").asText()).isEqualTo("the city");
    try (dev.horae.runtime.HoraeRuntime horae = dev.horae.runtime.HoraeRuntime.builder().build()) {
      var unused = LangChain4jTools.register(horae.tools(), new Weather());
      var agent = horae.openAgent("w");
      var ok = horae.tools().call(new dev.horae.spi.tool.ToolInvocation(agent, new ToolCall("c", "temperature", Json.parse("{\"city\":\"Oslo\"}"))),
          dev.horae.spi.AbortSignal.never()).toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertThat(ok.text()).isEqualTo("Oslo: 21 C");
      var bad = horae.tools().call(new dev.horae.spi.tool.ToolInvocation(agent, new ToolCall("c", "temperature", Json.parse("{\"city\":\"\"}"))),
          dev.horae.spi.AbortSignal.never()).toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertThat(bad.isError()).isTrue();
      assertThat(bad.text()).isEqualTo("Error: no city");
      var invalid = horae.tools().call(new dev.horae.spi.tool.ToolInvocation(agent, new ToolCall("c", "temperature", Json.parse("{}"))),
          dev.horae.spi.AbortSignal.never()).toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertThat(invalid.code()).contains("INVALID_ARGS");
    }
  }
}

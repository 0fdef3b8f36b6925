package dev.horae.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.FinishReason;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.TokenUsage;
import dev.horae.spi.session.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.metadata.EmptyUsage;
import org.springframework.ai.chat.model.ChatResponse;

class SpringAiMessagesTest {

  private static final ToolCall CALL_A = new ToolCall("a", "echo", Json.parse("{\"x\":1}"));
  private static final ToolCall CALL_B = new ToolCall("b", "echo", Json.parse("{\"x\":2}"));

  @Test
  void aRequestBecomesSystemUserAssistantAndOneToolResponsePerBatch() {
    List<Message> out = SpringAiMessages.toSpring("be brief", List.of(
        new ChatMessage.User("hi", MessageSource.user()),
        new ChatMessage.Assistant("", List.of(CALL_A, CALL_B)),
        new ChatMessage.ToolOutcome("a", "echo", "1", false),
        new ChatMessage.ToolOutcome("b", "echo", "Error: boom", true),
        new ChatMessage.Assistant("done", List.of())));
    assertThat(out).hasSize(5);
    assertThat(out.get(0)).isInstanceOf(SystemMessage.class);
    assertThat(out.get(0).getText()).isEqualTo("be brief");
    assertThat(out.get(1)).isInstanceOf(UserMessage.class);
    AssistantMessage calls = (AssistantMessage) out.get(2);
    assertThat(calls.getToolCalls()).containsExactly(
        new AssistantMessage.ToolCall("a", "function", "echo", "{\"x\":1}"),
        new AssistantMessage.ToolCall("b", "function", "echo", "{\"x\":2}"));
    ToolResponseMessage results = (ToolResponseMessage) out.get(3);
    assertThat(results.getResponses()).containsExactly(
        new ToolResponseMessage.ToolResponse("a", "echo", "1"),
        new ToolResponseMessage.ToolResponse("b", "echo", "Error: boom"));
    assertThat(out.get(4).getText()).isEqualTo("done");
    assertThat(SpringAiMessages.toSpring("", List.of())).isEmpty();
  }

  @Test
  void springMessagesMapBackWithoutTheSystemPrompt() {
    List<ChatMessage> back = SpringAiMessages.toHorae(SpringAiMessages.toSpring("sys", List.of(
        new ChatMessage.User("hi", MessageSource.user()),
        new ChatMessage.Assistant("", List.of(CALL_A)),
        new ChatMessage.ToolOutcome("a", "echo", "1", false))));
    assertThat(back).hasSize(3);
    assertThat(back.get(0)).isEqualTo(new ChatMessage.User("hi", MessageSource.user()));
    assertThat(((ChatMessage.Assistant) back.get(1)).toolCalls()).singleElement()
        .satisfies(c -> assertThat(Json.sameValue(c.arguments(), CALL_A.arguments())).isTrue());
    assertThat(back.get(2)).isEqualTo(new ChatMessage.ToolOutcome("a", "echo", "1", false));
  }

  @Test
  void finishReasonsAndUsageMapBothWays() {
    assertThat(SpringAiMessages.toHorae("STOP", false)).isEqualTo(FinishReason.STOP);
    assertThat(SpringAiMessages.toHorae("end_turn", false)).isEqualTo(FinishReason.STOP);
    assertThat(SpringAiMessages.toHorae("TOOL_CALLS", true)).isEqualTo(FinishReason.TOOL_CALLS);
    assertThat(SpringAiMessages.toHorae("tool_use", true)).isEqualTo(FinishReason.TOOL_CALLS);
    assertThat(SpringAiMessages.toHorae("LENGTH", false)).isEqualTo(FinishReason.MAX_TOKENS);
    assertThat(SpringAiMessages.toHorae("MAX_TOKENS", false)).isEqualTo(FinishReason.MAX_TOKENS);
    assertThat(SpringAiMessages.toHorae("content_filter", false)).isEqualTo(FinishReason.CONTENT_FILTER);
    assertThat(SpringAiMessages.toHorae("whatever", false)).isEqualTo(FinishReason.OTHER);
    assertThat(SpringAiMessages.toHorae(null, true)).isEqualTo(FinishReason.TOOL_CALLS);
    assertThat(SpringAiMessages.toHorae(null, false)).isEqualTo(FinishReason.STOP);
    for (FinishReason f : FinishReason.values()) {
      assertThat(SpringAiMessages.toHorae(SpringAiMessages.toSpring(f), f == FinishReason.TOOL_CALLS)).isEqualTo(f);
    }
    assertThat(SpringAiMessages.toHorae(new EmptyUsage())).isEqualTo(TokenUsage.UNKNOWN);
    assertThat(SpringAiMessages.toHorae(new DefaultUsage(12, 3))).isEqualTo(new TokenUsage(12, 3));
    assertThat(SpringAiMessages.toHorae(SpringAiMessages.toSpring(new TokenUsage(7, 8)))).isEqualTo(new TokenUsage(7, 8));
    assertThat(SpringAiMessages.toSpring(TokenUsage.UNKNOWN)).isInstanceOf(EmptyUsage.class);
  }

  @Test
  void aResponseRoundTrips() {
    ModelResponse r = new ModelResponse("thinking", List.of(CALL_A), FinishReason.TOOL_CALLS, new TokenUsage(5, 6));
    ModelResponse back = SpringAiMessages.toHorae(SpringAiMessages.toSpring(r));
    assertThat(back.text()).isEqualTo("thinking");
    assertThat(back.finish()).isEqualTo(FinishReason.TOOL_CALLS);
    assertThat(back.usage()).isEqualTo(new TokenUsage(5, 6));
    assertThat(back.toolCalls()).singleElement().satisfies(c -> {
      assertThat(c.callId()).isEqualTo("a");
      assertThat(c.toolId()).isEqualTo("echo");
    });
  }

  @Test
  void unmappableValuesFailWithStableMessages() {
    assertThatThrownBy(() -> SpringAiMessages.toHorae(new AssistantMessage.ToolCall("c1", "function", "echo", "{nope")))
        .isInstanceOf(SpringAiMappingException.class)
        .hasMessage("spring-ai: the arguments of tool call c1 (echo) are not JSON");
    assertThatThrownBy(() -> SpringAiMessages.toHorae(new AssistantMessage.ToolCall("c1", "function", "echo", "[1]")))
        .hasMessage("spring-ai: the arguments of tool call c1 (echo) are not a JSON object");
    assertThatThrownBy(() -> SpringAiMessages.toHorae(new AssistantMessage.ToolCall("", "function", "echo", "{}")))
        .hasMessage("spring-ai: the model called tool \"echo\" without a call id");
    assertThatThrownBy(() -> SpringAiMessages.toHorae(new ChatResponse(List.of())))
        .hasMessage("spring-ai: the chat model returned no generation");
    assertThatThrownBy(() -> SpringAiMessages.toHorae(org.springframework.ai.tool.definition.ToolDefinition.builder()
            .name("t").description("d").inputSchema("\"x\"").build()))
        .hasMessage("spring-ai: the input schema of tool \"t\" is not a JSON object");
    assertThat(SpringAiMessages.toHorae(new AssistantMessage.ToolCall("c1", "function", "echo", "")).arguments().isObject()).isTrue();
  }
}

package dev.horae.springai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.FinishReason;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.TokenUsage;
import dev.horae.spi.model.ToolSpec;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.metadata.EmptyUsage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * The mapping between Horae's model-port records ({@code dev.horae.spi.model}) and Spring AI's
 * chat types, both ways. Pure: no I/O, no clock. A value that cannot be mapped raises a {@link
 * SpringAiMappingException} with a stable message.
 *
 * <table>
 *   <caption>What each Horae value becomes in Spring AI</caption>
 *   <tr><th>Horae</th><th>Spring AI</th></tr>
 *   <tr><td>{@code ModelRequest.systemPrompt}</td><td>a leading {@code SystemMessage} (none when empty)</td></tr>
 *   <tr><td>{@code ChatMessage.User}</td><td>{@code UserMessage}</td></tr>
 *   <tr><td>{@code ChatMessage.Assistant}</td><td>{@code AssistantMessage} with {@code ToolCall(id, "function", name, arguments JSON)}</td></tr>
 *   <tr><td>consecutive {@code ChatMessage.ToolOutcome}s</td><td>one {@code ToolResponseMessage} with a {@code ToolResponse(id, name, text)} each</td></tr>
 *   <tr><td>{@code ToolSpec}</td><td>{@code ToolDefinition(name, description, inputSchema = the JSON Schema text)}</td></tr>
 *   <tr><td>{@code FinishReason}</td><td>the generation's finish-reason string</td></tr>
 *   <tr><td>{@code TokenUsage}</td><td>{@code Usage} (prompt and completion tokens; {@code EmptyUsage} when unknown)</td></tr>
 * </table>
 */
public final class SpringAiMessages {

  private SpringAiMessages() {}

  // ---- Horae -> Spring AI ------------------------------------------------------------------

  /**
   * The Spring AI messages of a model request: the system prompt first (when not empty), then the
   * history in order. Consecutive tool outcomes share one {@code ToolResponseMessage}, as the
   * results of one assistant message's calls do in Spring AI.
   *
   * @param systemPrompt the system prompt
   * @param history the model-visible history, oldest first
   * @return the messages
   */
  public static List<Message> toSpring(String systemPrompt, List<ChatMessage> history) {
    List<Message> out = new ArrayList<>();
    if (!systemPrompt.isEmpty()) {
      out.add(new SystemMessage(systemPrompt));
    }
    List<ToolResponseMessage.ToolResponse> pending = new ArrayList<>();
    for (ChatMessage m : history) {
      if (m instanceof ChatMessage.ToolOutcome o) {
        pending.add(new ToolResponseMessage.ToolResponse(o.callId(), o.tool(), o.text()));
        continue;
      }
      flush(pending, out);
      if (m instanceof ChatMessage.User u) {
        out.add(new UserMessage(u.text()));
      } else if (m instanceof ChatMessage.Assistant a) {
        out.add(AssistantMessage.builder()
            .content(a.text())
            .toolCalls(a.toolCalls().stream().map(SpringAiMessages::toSpring).toList())
            .build());
      }
    }
    flush(pending, out);
    return out;
  }

  private static void flush(List<ToolResponseMessage.ToolResponse> pending, List<Message> out) {
    if (!pending.isEmpty()) {
      out.add(ToolResponseMessage.builder().responses(List.copyOf(pending)).build());
      pending.clear();
    }
  }

  /**
   * A Horae tool call as Spring AI's: type {@code function}, the arguments as compact JSON text.
   *
   * @param call the call
   * @return the Spring AI call
   */
  public static AssistantMessage.ToolCall toSpring(ToolCall call) {
    return new AssistantMessage.ToolCall(call.callId(), "function", call.toolId(), Json.write(call.arguments()));
  }

  /**
   * A Horae tool spec as a Spring AI tool definition; the JSON Schema travels unchanged as the
   * input schema text.
   *
   * @param spec the spec
   * @return the definition
   */
  public static ToolDefinition toSpring(ToolSpec spec) {
    return ToolDefinition.builder()
        .name(spec.name())
        .description(spec.description())
        .inputSchema(Json.write(spec.parameters()))
        .build();
  }

  /**
   * A Horae finish reason as the lower-case string OpenAI-style providers report.
   *
   * @param finish the reason
   * @return {@code stop}, {@code tool_calls}, {@code length}, {@code content_filter} or {@code other}
   */
  public static String toSpring(FinishReason finish) {
    return switch (finish) {
      case STOP -> "stop";
      case TOOL_CALLS -> "tool_calls";
      case MAX_TOKENS -> "length";
      case CONTENT_FILTER -> "content_filter";
      case OTHER -> "other";
    };
  }

  /**
   * Horae token usage as Spring AI's: {@code EmptyUsage} when the counts are unknown.
   *
   * @param usage the usage
   * @return the Spring AI usage
   */
  public static Usage toSpring(TokenUsage usage) {
    if (!usage.known()) {
      return new EmptyUsage();
    }
    return new DefaultUsage(Math.toIntExact(usage.inputTokens()), Math.toIntExact(usage.outputTokens()));
  }

  /**
   * A Horae model response as a Spring AI chat response: one generation with the text, the tool
   * calls and the finish reason; the usage in the metadata.
   *
   * @param response the response
   * @return the chat response
   */
  public static ChatResponse toSpring(ModelResponse response) {
    AssistantMessage message = AssistantMessage.builder()
        .content(response.text())
        .toolCalls(response.toolCalls().stream().map(SpringAiMessages::toSpring).toList())
        .build();
    Generation generation = new Generation(message,
        ChatGenerationMetadata.builder().finishReason(toSpring(response.finish())).build());
    return new ChatResponse(List.of(generation), ChatResponseMetadata.builder().usage(toSpring(response.usage())).build());
  }

  // ---- Spring AI -> Horae ------------------------------------------------------------------

  /**
   * Spring AI messages as Horae's history. System messages are left out (Horae carries the system
   * prompt beside the history); each tool response becomes its own outcome, not marked as an
   * error (Spring AI's tool responses carry no error flag; Horae's error results start with
   * {@code Error: }).
   *
   * @param messages the messages
   * @return the history, oldest first
   * @throws SpringAiMappingException for a tool call whose arguments are not a JSON object
   */
  public static List<ChatMessage> toHorae(List<Message> messages) {
    List<ChatMessage> out = new ArrayList<>();
    for (Message m : messages) {
      if (m instanceof UserMessage u) {
        out.add(new ChatMessage.User(text(u.getText()), MessageSource.user()));
      } else if (m instanceof AssistantMessage a) {
        out.add(new ChatMessage.Assistant(text(a.getText()), a.getToolCalls().stream().map(SpringAiMessages::toHorae).toList()));
      } else if (m instanceof ToolResponseMessage t) {
        for (ToolResponseMessage.ToolResponse r : t.getResponses()) {
          out.add(new ChatMessage.ToolOutcome(r.id(), r.name(), r.responseData(), false));
        }
      }
    }
    return out;
  }

  /**
   * A Spring AI tool call as Horae's. Empty arguments (some providers stream none for a call
   * without parameters) count as {@code {}}.
   *
   * @param call the Spring AI call
   * @return the Horae call
   * @throws SpringAiMappingException when the id or name is empty, or the arguments are not a JSON
   *     object
   */
  public static ToolCall toHorae(AssistantMessage.ToolCall call) {
    if (call.id() == null || call.id().isEmpty()) {
      throw new SpringAiMappingException("the model called tool \"" + call.name() + "\" without a call id");
    }
    if (call.name() == null || call.name().isEmpty()) {
      throw new SpringAiMappingException("the model's tool call " + call.id() + " names no tool");
    }
    String raw = call.arguments();
    JsonNode args;
    if (raw == null || raw.isBlank()) {
      args = Json.mapper().createObjectNode();
    } else {
      try {
        args = Json.parse(raw);
      } catch (IllegalArgumentException e) {
        throw new SpringAiMappingException("the arguments of tool call " + call.id() + " (" + call.name() + ") are not JSON", e);
      }
    }
    if (!args.isObject()) {
      throw new SpringAiMappingException("the arguments of tool call " + call.id() + " (" + call.name() + ") are not a JSON object");
    }
    return new ToolCall(call.id(), call.name(), args);
  }

  /**
   * A Spring AI tool definition as a Horae tool spec.
   *
   * @param definition the definition
   * @return the spec
   * @throws SpringAiMappingException when the input schema is not a JSON object
   */
  public static ToolSpec toHorae(ToolDefinition definition) {
    return new ToolSpec(definition.name(), definition.description(), schema(definition));
  }

  /**
   * The input schema of a Spring AI tool as a JSON tree.
   *
   * @param definition the definition
   * @return the schema
   * @throws SpringAiMappingException when it is not a JSON object
   */
  static JsonNode schema(ToolDefinition definition) {
    JsonNode schema;
    try {
      schema = Json.parse(definition.inputSchema());
    } catch (IllegalArgumentException e) {
      throw new SpringAiMappingException("the input schema of tool \"" + definition.name() + "\" is not JSON", e);
    }
    if (!schema.isObject()) {
      throw new SpringAiMappingException("the input schema of tool \"" + definition.name() + "\" is not a JSON object");
    }
    return schema;
  }

  /**
   * A provider's finish-reason string as Horae's. Matching ignores case, so OpenAI's {@code STOP}
   * and {@code tool_calls}, Anthropic's {@code end_turn} and {@code tool_use}, and Gemini's
   * {@code MAX_TOKENS} all map; an absent reason is {@code TOOL_CALLS} when the response calls
   * tools, else {@code STOP}.
   *
   * @param reason the provider's reason, or null
   * @param callsTools whether the response calls tools
   * @return the reason
   */
  public static FinishReason toHorae(@Nullable String reason, boolean callsTools) {
    if (reason == null || reason.isBlank()) {
      return callsTools ? FinishReason.TOOL_CALLS : FinishReason.STOP;
    }
    return switch (reason.toLowerCase(Locale.ROOT)) {
      case "stop", "end_turn", "stop_sequence", "completed" -> FinishReason.STOP;
      case "tool_calls", "tool_use", "function_call" -> FinishReason.TOOL_CALLS;
      case "length", "max_tokens" -> FinishReason.MAX_TOKENS;
      case "content_filter", "safety", "refusal" -> FinishReason.CONTENT_FILTER;
      default -> FinishReason.OTHER;
    };
  }

  /**
   * Spring AI usage as Horae's: unknown when the provider reported none ({@code EmptyUsage}, null
   * counts).
   *
   * @param usage the usage, or null
   * @return the token usage
   */
  public static TokenUsage toHorae(@Nullable Usage usage) {
    if (usage == null || usage instanceof EmptyUsage) {
      return TokenUsage.UNKNOWN;
    }
    Integer in = usage.getPromptTokens();
    Integer out = usage.getCompletionTokens();
    if (in == null || out == null || in < 0 || out < 0) {
      return TokenUsage.UNKNOWN;
    }
    return new TokenUsage(in, out);
  }

  /**
   * A Spring AI chat response as Horae's model response: the first generation's text and tool
   * calls, its finish reason, and the response's usage.
   *
   * @param response the chat response
   * @return the model response
   * @throws SpringAiMappingException when the response has no generation, or a tool call cannot be
   *     mapped
   */
  public static ModelResponse toHorae(ChatResponse response) {
    Generation result = response.getResult();
    if (result == null) {
      throw new SpringAiMappingException("the chat model returned no generation");
    }
    AssistantMessage out = result.getOutput();
    List<ToolCall> calls = out.getToolCalls().stream().map(SpringAiMessages::toHorae).toList();
    FinishReason finish = toHorae(result.getMetadata().getFinishReason(), !calls.isEmpty());
    return new ModelResponse(text(out.getText()), calls, finish, toHorae(response.getMetadata().getUsage()));
  }

  private static String text(@Nullable String text) {
    return text == null ? "" : text;
  }
}

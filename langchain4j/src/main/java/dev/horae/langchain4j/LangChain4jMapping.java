package dev.horae.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.FinishReason;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.TokenUsage;
import dev.horae.spi.model.ToolSpec;
import dev.horae.spi.session.Json;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The LangChain4j side of the model port, both ways: a Horae {@link ModelRequest} as a {@link
 * ChatRequest} and a {@link ChatResponse} as a {@link ModelResponse}, with their messages, tool
 * calls, finish reasons and token usage.
 *
 * <table>
 *   <caption>Mapping</caption>
 *   <tr><th>Horae</th><th>LangChain4j</th></tr>
 *   <tr><td>system prompt</td><td>{@link SystemMessage}, first (none when empty)</td></tr>
 *   <tr><td>{@link ChatMessage.User}</td><td>{@link UserMessage} (text)</td></tr>
 *   <tr><td>{@link ChatMessage.Assistant}</td><td>{@link AiMessage} with {@link ToolExecutionRequest}s</td></tr>
 *   <tr><td>{@link ChatMessage.ToolOutcome}</td><td>{@link ToolExecutionResultMessage} (id, tool, text, error flag)</td></tr>
 *   <tr><td>{@link ToolSpec}</td><td>{@link ToolSpecification} ({@link JsonSchemas})</td></tr>
 *   <tr><td>{@link FinishReason}</td><td>{@code dev.langchain4j.model.output.FinishReason}</td></tr>
 *   <tr><td>{@link TokenUsage}</td><td>{@code dev.langchain4j.model.output.TokenUsage}</td></tr>
 * </table>
 *
 * <p>Tool-call arguments travel as the JSON text the model wrote. Arguments that are not JSON are
 * kept as that text (a JSON string), so Horae's argument validation answers the model {@code
 * Error: invalid arguments: expected object, got string} and the next request carries the same
 * text back; empty arguments are the empty object.
 */
public final class LangChain4jMapping {

  private LangChain4jMapping() {}

  /**
   * A step's request as a LangChain4j chat request: the system prompt, the whole history and the
   * visible tools.
   *
   * @param request the step's request
   * @return the chat request
   * @throws LangChain4jMappingException {@code unsupported-schema} when a tool's schema cannot be
   *     carried
   */
  public static ChatRequest toChatRequest(ModelRequest request) {
    List<dev.langchain4j.data.message.ChatMessage> messages = new ArrayList<>();
    if (!request.systemPrompt().isEmpty()) {
      messages.add(SystemMessage.from(request.systemPrompt()));
    }
    messages.addAll(toMessages(request.messages()));
    ChatRequest.Builder b = ChatRequest.builder().messages(messages);
    if (!request.tools().isEmpty()) {
      b.toolSpecifications(request.tools().stream().map(LangChain4jMapping::toSpecification).toList());
    }
    return b.build();
  }

  /**
   * The model-visible history as LangChain4j messages, oldest first.
   *
   * @param history the history
   * @return the messages
   */
  public static List<dev.langchain4j.data.message.ChatMessage> toMessages(List<ChatMessage> history) {
    List<dev.langchain4j.data.message.ChatMessage> out = new ArrayList<>(history.size());
    for (ChatMessage m : history) {
      out.add(toMessage(m));
    }
    return out;
  }

  /**
   * One history message as a LangChain4j message.
   *
   * @param message the message
   * @return its LangChain4j form
   */
  public static dev.langchain4j.data.message.ChatMessage toMessage(ChatMessage message) {
    if (message instanceof ChatMessage.User u) {
      return UserMessage.from(u.text());
    }
    if (message instanceof ChatMessage.Assistant a) {
      List<ToolExecutionRequest> requests = a.toolCalls().stream().map(LangChain4jMapping::toRequest).toList();
      // a message with calls and no text has no text at all, as providers send it
      return requests.isEmpty() ? AiMessage.from(a.text())
          : AiMessage.builder().text(a.text().isEmpty() ? null : a.text()).toolExecutionRequests(requests).build();
    }
    ChatMessage.ToolOutcome r = (ChatMessage.ToolOutcome) message;
    return ToolExecutionResultMessage.builder().id(r.callId()).toolName(r.tool()).text(r.text()).isError(r.error()).build();
  }

  /**
   * A Horae tool as a LangChain4j tool specification.
   *
   * @param tool the tool
   * @return the specification
   * @throws LangChain4jMappingException {@code unsupported-schema} when the schema cannot be
   *     carried
   */
  public static ToolSpecification toSpecification(ToolSpec tool) {
    ToolSpecification.Builder b = ToolSpecification.builder().name(tool.name())
        .parameters(JsonSchemas.toLangChain4j(tool.name(), tool.parameters()));
    if (!tool.description().isEmpty()) {
      b.description(tool.description());
    }
    return b.build();
  }

  /**
   * A Horae tool call as a LangChain4j execution request.
   *
   * @param call the call
   * @return the request, with the arguments as JSON text (a text argument as that text)
   */
  public static ToolExecutionRequest toRequest(ToolCall call) {
    String arguments = call.arguments().isTextual() ? call.arguments().asText() : Json.write(call.arguments());
    return ToolExecutionRequest.builder().id(call.callId()).name(call.toolId()).arguments(arguments).build();
  }

  /**
   * A LangChain4j execution request as a Horae tool call.
   *
   * @param request the request
   * @param fallbackId the call id when the provider sent none (some local models do not)
   * @return the call
   */
  public static ToolCall toCall(ToolExecutionRequest request, String fallbackId) {
    String id = request.id() == null || request.id().isEmpty() ? fallbackId : request.id();
    return new ToolCall(id, request.name(), arguments(request.arguments()));
  }

  /**
   * The JSON value of a request's argument text.
   *
   * @param text the text the model wrote
   * @return the parsed value, the empty object for empty text, the text itself when not JSON
   */
  public static JsonNode arguments(@Nullable String text) {
    if (text == null || text.isBlank()) {
      return Json.mapper().createObjectNode();
    }
    try {
      return Json.parse(text);
    } catch (RuntimeException notJson) {
      return TextNode.valueOf(text);
    }
  }

  /**
   * A chat response as the model's answer to a step. Calls without an id get {@code
   * <idPrefix>-<n>}, numbered from 1 in call order.
   *
   * @param response the response
   * @param idPrefix the prefix of missing call ids
   * @return the answer
   */
  public static ModelResponse toModelResponse(ChatResponse response, String idPrefix) {
    AiMessage ai = response.aiMessage();
    List<ToolCall> calls = new ArrayList<>();
    if (ai.hasToolExecutionRequests()) {
      int n = 0;
      for (ToolExecutionRequest r : ai.toolExecutionRequests()) {
        calls.add(toCall(r, idPrefix + "-" + ++n));
      }
    }
    String text = ai.text() == null ? "" : ai.text();
    return new ModelResponse(text, calls, toHorae(response.finishReason()), toHorae(response.tokenUsage()));
  }

  /**
   * A Horae answer as a LangChain4j chat response (a scripted model answering through
   * LangChain4j, for instance).
   *
   * @param response the answer
   * @return the chat response
   */
  public static ChatResponse toChatResponse(ModelResponse response) {
    List<ToolExecutionRequest> requests = response.toolCalls().stream().map(LangChain4jMapping::toRequest).toList();
    AiMessage ai = requests.isEmpty() ? AiMessage.from(response.text())
        : AiMessage.builder().text(response.text().isEmpty() ? null : response.text()).toolExecutionRequests(requests).build();
    return ChatResponse.builder().aiMessage(ai).finishReason(toLangChain4j(response.finish()))
        .tokenUsage(toLangChain4j(response.usage())).build();
  }

  /**
   * A LangChain4j finish reason as Horae's.
   *
   * @param reason the reason; null (not reported) is {@link FinishReason#OTHER}
   * @return the Horae reason
   */
  public static FinishReason toHorae(dev.langchain4j.model.output.@Nullable FinishReason reason) {
    if (reason == null) {
      return FinishReason.OTHER;
    }
    return switch (reason) {
      case STOP -> FinishReason.STOP;
      case LENGTH -> FinishReason.MAX_TOKENS;
      case TOOL_EXECUTION -> FinishReason.TOOL_CALLS;
      case CONTENT_FILTER -> FinishReason.CONTENT_FILTER;
      default -> FinishReason.OTHER;
    };
  }

  /**
   * Horae's finish reason as LangChain4j's.
   *
   * @param reason the reason
   * @return the LangChain4j reason
   */
  public static dev.langchain4j.model.output.FinishReason toLangChain4j(FinishReason reason) {
    return switch (reason) {
      case STOP -> dev.langchain4j.model.output.FinishReason.STOP;
      case MAX_TOKENS -> dev.langchain4j.model.output.FinishReason.LENGTH;
      case TOOL_CALLS -> dev.langchain4j.model.output.FinishReason.TOOL_EXECUTION;
      case CONTENT_FILTER -> dev.langchain4j.model.output.FinishReason.CONTENT_FILTER;
      case OTHER -> dev.langchain4j.model.output.FinishReason.OTHER;
    };
  }

  /**
   * LangChain4j token usage as Horae's.
   *
   * @param usage the usage; null or a missing count is unknown (-1)
   * @return the Horae usage
   */
  public static TokenUsage toHorae(dev.langchain4j.model.output.@Nullable TokenUsage usage) {
    if (usage == null) {
      return TokenUsage.UNKNOWN;
    }
    return new TokenUsage(count(usage.inputTokenCount()), count(usage.outputTokenCount()));
  }

  /**
   * Horae's token usage as LangChain4j's.
   *
   * @param usage the usage
   * @return the LangChain4j usage; unknown counts are null
   */
  public static dev.langchain4j.model.output.TokenUsage toLangChain4j(TokenUsage usage) {
    return new dev.langchain4j.model.output.TokenUsage(
        usage.inputTokens() < 0 ? null : Math.toIntExact(usage.inputTokens()),
        usage.outputTokens() < 0 ? null : Math.toIntExact(usage.outputTokens()));
  }

  private static long count(@Nullable Integer n) {
    return n == null || n < 0 ? -1 : n;
  }
}

package dev.horae.spi.model;

import dev.horae.spi.gate.ToolCall;
import java.util.List;
import java.util.Objects;

/**
 * A model's answer to one step.
 *
 * @param text the assistant text (may be empty when it only calls tools)
 * @param toolCalls the tools to call, in order; empty concludes the step
 * @param finish why the model stopped
 * @param usage the tokens the call consumed
 */
public record ModelResponse(String text, List<ToolCall> toolCalls, FinishReason finish, TokenUsage usage) {

  /**
   * Validates and copies the response.
   *
   * @param text the text
   * @param toolCalls the calls
   * @param finish the finish reason
   * @param usage the usage
   */
  public ModelResponse {
    Objects.requireNonNull(text, "text");
    toolCalls = List.copyOf(toolCalls);
    Objects.requireNonNull(finish, "finish");
    Objects.requireNonNull(usage, "usage");
  }

  /**
   * A plain text answer that concludes the step.
   *
   * @param text the answer
   * @return the response
   */
  public static ModelResponse text(String text) {
    return new ModelResponse(text, List.of(), FinishReason.STOP, TokenUsage.UNKNOWN);
  }

  /**
   * A response that only calls tools.
   *
   * @param calls the calls, in order
   * @return the response
   */
  public static ModelResponse calls(ToolCall... calls) {
    return new ModelResponse("", List.of(calls), FinishReason.TOOL_CALLS, TokenUsage.UNKNOWN);
  }

  /**
   * The same response with the usage the provider reported.
   *
   * @param reported the usage
   * @return a new response
   */
  public ModelResponse withUsage(TokenUsage reported) {
    return new ModelResponse(text, toolCalls, finish, reported);
  }
}

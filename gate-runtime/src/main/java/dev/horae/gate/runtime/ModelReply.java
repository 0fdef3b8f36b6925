package dev.horae.gate.runtime;

import dev.horae.spi.gate.ToolCall;
import java.util.List;
import java.util.Objects;

/**
 * The model's answer for one step: text and tool calls. No tool calls ends the Run naturally.
 *
 * @param text the assistant text (may be empty)
 * @param toolCalls the calls, in model order
 */
public record ModelReply(String text, List<ToolCall> toolCalls) {
  /** Copies the list. */
  public ModelReply {
    Objects.requireNonNull(text, "text");
    toolCalls = List.copyOf(toolCalls);
  }

  /**
   * A final answer without tool calls.
   *
   * @param text the answer
   * @return the reply
   */
  public static ModelReply answer(String text) {
    return new ModelReply(text, List.of());
  }

  /**
   * A reply asking for tool calls.
   *
   * @param calls the calls
   * @return the reply
   */
  public static ModelReply calls(ToolCall... calls) {
    return new ModelReply("", List.of(calls));
  }
}

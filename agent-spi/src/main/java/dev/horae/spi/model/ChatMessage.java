package dev.horae.spi.model;

import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.message.MessageSource;
import java.util.List;
import java.util.Objects;

/**
 * One message of the model-visible history, as a chat model API takes it. Built from the session
 * log by {@link History}; never written to it.
 */
public sealed interface ChatMessage permits ChatMessage.User, ChatMessage.Assistant, ChatMessage.ToolOutcome {

  /**
   * A user-role message: a prompt, a reminder follow-up, a time reading, a job notice.
   *
   * @param text the message text (its content blocks joined by newlines)
   * @param source who produced it: a user, or a plugin with its form (host contract §7.2)
   */
  record User(String text, MessageSource source) implements ChatMessage {
    /**
     * Validates the message.
     *
     * @param text the text
     * @param source the source
     */
    public User {
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(source, "source");
    }
  }

  /**
   * What the model said in an earlier step: text, tool calls, or both.
   *
   * @param text the assistant text (may be empty when it only called tools)
   * @param toolCalls the calls it made, in order
   */
  record Assistant(String text, List<ToolCall> toolCalls) implements ChatMessage {
    /**
     * Validates and copies the message.
     *
     * @param text the text
     * @param toolCalls the calls
     */
    public Assistant {
      Objects.requireNonNull(text, "text");
      toolCalls = List.copyOf(toolCalls);
    }
  }

  /**
   * The result of one tool call, answering the call with the same id.
   *
   * @param callId the call it answers
   * @param tool the tool name
   * @param text the result as the model reads it
   * @param error whether the call failed
   */
  record ToolOutcome(String callId, String tool, String text, boolean error) implements ChatMessage {
    /**
     * Validates the result.
     *
     * @param callId the call id
     * @param tool the tool
     * @param text the text
     * @param error the error flag
     */
    public ToolOutcome {
      Objects.requireNonNull(callId, "callId");
      Objects.requireNonNull(tool, "tool");
      Objects.requireNonNull(text, "text");
    }
  }
}

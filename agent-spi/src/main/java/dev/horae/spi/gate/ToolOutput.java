package dev.horae.spi.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Objects;

/**
 * The result of one tool call as the model receives it. JSON shape: {@code
 * {"callId":"call-1","content":"echoed ping"}}, with {@code "isError":true} added for error
 * results; {@code content} is any JSON value.
 *
 * @param callId the id of the call this result answers
 * @param content the result content, treated as read-only
 * @param isError whether this is an error result
 */
public record ToolOutput(String callId, JsonNode content, boolean isError) {

  /**
   * Validates the output.
   *
   * @throws IllegalArgumentException when the call id is empty
   */
  public ToolOutput {
    Objects.requireNonNull(callId, "callId");
    Objects.requireNonNull(content, "content");
    if (callId.isEmpty()) {
      throw new IllegalArgumentException("tool output call id must be non-empty");
    }
  }

  /**
   * A successful result.
   *
   * @param callId the answered call id
   * @param content the content
   * @return the output
   */
  public static ToolOutput success(String callId, JsonNode content) {
    return new ToolOutput(callId, content, false);
  }

  /**
   * An error result whose content is a text.
   *
   * @param callId the answered call id
   * @param message the error text the model sees
   * @return the output
   */
  public static ToolOutput error(String callId, String message) {
    return new ToolOutput(callId, TextNode.valueOf(message), true);
  }
}

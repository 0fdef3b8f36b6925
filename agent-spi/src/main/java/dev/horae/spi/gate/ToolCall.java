package dev.horae.spi.gate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One complete tool call as the model issued it, with presentation aliases already mapped back to
 * the canonical tool id. JSON shape: {@code {"callId":"call-1","toolId":"echo","arguments":{..}}}.
 * The one record of a tool call: the model port, the gates and resume tickets carry it, and the
 * tool registry runs it wrapped with its agent ({@link dev.horae.spi.tool.ToolInvocation}).
 *
 * @param callId the model's call id; non-empty
 * @param toolId the canonical tool id; non-empty
 * @param arguments the call's arguments, treated as read-only
 */
public record ToolCall(String callId, String toolId, JsonNode arguments) {

  /**
   * Validates the call.
   *
   * @throws IllegalArgumentException when the call id or tool id is empty
   */
  public ToolCall {
    Objects.requireNonNull(callId, "callId");
    Objects.requireNonNull(toolId, "toolId");
    Objects.requireNonNull(arguments, "arguments");
    if (callId.isEmpty()) {
      throw new IllegalArgumentException("tool call id must be non-empty");
    }
    if (toolId.isEmpty()) {
      throw new IllegalArgumentException("tool id must be non-empty");
    }
  }
}

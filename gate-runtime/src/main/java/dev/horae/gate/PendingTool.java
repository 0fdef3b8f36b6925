package dev.horae.gate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * The committed tool request of a tool-call wait: which tool, with exactly which arguments. JSON
 * shape: {@code {"toolId":"echo","arguments":{"text":"ping"}}}.
 *
 * @param toolId the canonical tool id; non-empty
 * @param arguments the arguments, treated as read-only
 */
public record PendingTool(String toolId, JsonNode arguments) {

  /**
   * Validates the request.
   *
   * @throws IllegalArgumentException when the tool id is empty
   */
  public PendingTool {
    Objects.requireNonNull(toolId, "toolId");
    Objects.requireNonNull(arguments, "arguments");
    if (toolId.isEmpty()) {
      throw new IllegalArgumentException("pending tool id must be non-empty");
    }
  }
}

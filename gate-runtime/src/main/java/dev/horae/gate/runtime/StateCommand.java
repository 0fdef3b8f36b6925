package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * Sets one Run-scoped state key in a commit, e.g. the Run's tool batch under {@code
 * runtime.active_tool_batch.v1}. Keys are exclusive: two commands for one key in one commit conflict.
 *
 * @param key the state key
 * @param value the new value
 */
public record StateCommand(String key, JsonNode value) {
  /** Rejects missing parts. */
  public StateCommand {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
  }
}

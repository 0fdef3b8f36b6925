package dev.horae.spi.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import java.util.Objects;

/**
 * A tool as the model is told about it: name, description and the JSON Schema of its arguments.
 *
 * @param name the tool name the model calls
 * @param description what the tool does, for the model
 * @param parameters the JSON Schema of the arguments (a snapshot)
 */
public record ToolSpec(String name, String description, JsonNode parameters) {

  /**
   * Validates and snapshots the schema.
   *
   * @param name the tool name
   * @param description the description
   * @param parameters the schema
   */
  public ToolSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    parameters = Json.snapshot(Objects.requireNonNull(parameters, "parameters"));
  }

  /**
   * The spec of a registered tool.
   *
   * @param tool the definition
   * @return its spec
   */
  public static ToolSpec of(ToolDefinition tool) {
    return new ToolSpec(tool.name(), tool.description(), tool.parameters());
  }
}

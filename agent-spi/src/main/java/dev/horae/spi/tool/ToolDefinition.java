package dev.horae.spi.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.session.Json;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A tool definition (host contract §8.1). Build with {@link #builder(String)}.
 *
 * @param name unique within the registering scope
 * @param description model-facing description
 * @param parameters input JSON Schema (subset §8.3); the root is an open object schema
 * @param output output JSON Schema the canonical value is validated against
 * @param renderer turns the canonical value into content blocks
 * @param presentCall optional display card for a pending call; empty for invalid arguments
 * @param body the tool body
 * @param finalContent optional last-mile content callback, run once on every final result
 */
public record ToolDefinition(
    String name,
    String description,
    JsonNode parameters,
    JsonNode output,
    Function<JsonNode, List<ContentBlock>> renderer,
    Function<JsonNode, Optional<PresentationCard>> presentCall,
    ToolBody body,
    Optional<BiFunction<ToolInvocation, ToolResult, List<ContentBlock>>> finalContent) {

  /** Requires every member. */
  public ToolDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(body, "body");
  }

  /**
   * Starts a builder.
   *
   * @param name the tool name
   * @return a builder
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Builds a {@link ToolDefinition}; defaults: empty description, open schemas, and one text block
   * with the value as {@code JSON.stringify} writes it ({@link EcmaJson}), since that text reaches
   * the model.
   */
  public static final class Builder {
    private final String name;
    private String description = "";
    private JsonNode parameters = Json.parse("{\"type\":\"object\"}");
    private JsonNode output = Json.parse("{}");
    private Function<JsonNode, List<ContentBlock>> renderer = v -> List.of(new ContentBlock(EcmaJson.write(v)));
    private Function<JsonNode, Optional<PresentationCard>> presentCall = a -> Optional.empty();
    private ToolBody body = (a, e) -> {
      throw new IllegalStateException("tool has no body");
    };
    private Optional<BiFunction<ToolInvocation, ToolResult, List<ContentBlock>>> finalContent = Optional.empty();

    private Builder(String name) {
      this.name = name;
    }

    /**
     * Sets the description.
     *
     * @param v the description
     * @return this builder
     */
    public Builder description(String v) {
      description = v;
      return this;
    }

    /**
     * Sets the input schema.
     *
     * @param v the schema
     * @return this builder
     */
    public Builder parameters(JsonNode v) {
      parameters = v;
      return this;
    }

    /**
     * Sets the output schema.
     *
     * @param v the schema
     * @return this builder
     */
    public Builder output(JsonNode v) {
      output = v;
      return this;
    }

    /**
     * Sets the renderer.
     *
     * @param v the renderer
     * @return this builder
     */
    public Builder renderer(Function<JsonNode, List<ContentBlock>> v) {
      renderer = v;
      return this;
    }

    /**
     * Sets the presentation card function.
     *
     * @param v the function
     * @return this builder
     */
    public Builder presentCall(Function<JsonNode, Optional<PresentationCard>> v) {
      presentCall = v;
      return this;
    }

    /**
     * Sets the body.
     *
     * @param v the body
     * @return this builder
     */
    public Builder body(ToolBody v) {
      body = v;
      return this;
    }

    /**
     * Sets the final-content callback.
     *
     * @param v the callback
     * @return this builder
     */
    public Builder finalContent(BiFunction<ToolInvocation, ToolResult, List<ContentBlock>> v) {
      finalContent = Optional.of(v);
      return this;
    }

    /**
     * Builds the definition.
     *
     * @return the definition
     */
    public ToolDefinition build() {
      return new ToolDefinition(name, description, parameters, output, renderer, presentCall, body, finalContent);
    }
  }
}

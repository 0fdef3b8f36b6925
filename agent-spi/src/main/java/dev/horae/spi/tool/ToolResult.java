package dev.horae.spi.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.session.Json;
import java.util.List;
import java.util.Optional;

/**
 * The final result of a tool call (host contract §8.2).
 *
 * @param isError whether the call failed (invalid arguments, body failure, cancellation)
 * @param content the model-facing content
 * @param value the canonical output value of a successful call
 * @param info structured error info, e.g. {@code {"code":"INVALID_ARGS"}} or
 *     {@code {"name":"AbortError","code":"ABORTED"}}
 */
public record ToolResult(boolean isError, List<ContentBlock> content, Optional<JsonNode> value, Optional<JsonNode> info) {

  /** Error code of an argument-validation failure. */
  public static final String INVALID_ARGS = "INVALID_ARGS";
  /** Error code of a call a gate blocked. */
  public static final String BLOCKED = "BLOCKED";
  /** Error code of a cancelled call. */
  public static final String ABORTED = "ABORTED";

  /** Copies the content. */
  public ToolResult {
    content = List.copyOf(content);
  }

  /**
   * A successful result.
   *
   * @param value the canonical value
   * @param content its rendering
   * @return the result
   */
  public static ToolResult success(JsonNode value, List<ContentBlock> content) {
    return new ToolResult(false, content, Optional.of(value), Optional.empty());
  }

  /**
   * An error result with text content.
   *
   * @param text the error text
   * @param code optional error code put in {@code info.code}
   * @return the result
   */
  public static ToolResult error(String text, Optional<String> code) {
    Optional<JsonNode> info = code.map(c -> {
      ObjectNode o = Json.mapper().createObjectNode();
      o.put("code", c);
      return o;
    });
    return new ToolResult(true, List.of(new ContentBlock(text)), Optional.empty(), info);
  }

  /**
   * The result a gate outcome gives the model in place of running the call (gate specification
   * §2, the outcome table): a Block reads {@code Error: blocked: <reason>} with code {@code
   * BLOCKED}; a SetResult is the gate's output — an error reads {@code Error: <text>}, a success is
   * the value with its ECMAScript JSON text. Every loop that runs gates renders them here, so the
   * model reads the same words whichever loop asked.
   *
   * @param outcome a {@link GateOutcome.Block} or {@link GateOutcome.SetResult}
   * @return the result
   * @throws IllegalArgumentException for any other outcome, which does not replace the call
   */
  public static ToolResult ofGate(GateOutcome outcome) {
    if (outcome instanceof GateOutcome.Block b) {
      return blocked(b.reason());
    }
    if (outcome instanceof GateOutcome.SetResult s) {
      JsonNode content = s.output().content();
      return s.output().isError()
          ? error("Error: " + content.asText(EcmaJson.write(content)), Optional.empty())
          : success(content, List.of(new ContentBlock(EcmaJson.write(content))));
    }
    throw new IllegalArgumentException("a " + outcome.auditLabel() + " outcome does not stand in for the call's result");
  }

  /**
   * The error result of a call a gate or the environment refused: {@code Error: blocked:
   * <reason>}, code {@code BLOCKED}.
   *
   * @param reason why
   * @return the result
   */
  public static ToolResult blocked(String reason) {
    return error("Error: blocked: " + reason, Optional.of(BLOCKED));
  }

  /**
   * The cancellation result: info {@code {"name":"AbortError","code":"ABORTED"}}.
   *
   * @return the result
   */
  public static ToolResult aborted() {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("name", "AbortError");
    o.put("code", ABORTED);
    return new ToolResult(true, List.of(new ContentBlock("Error: aborted")), Optional.empty(), Optional.of(o));
  }

  /**
   * The error code, if any.
   *
   * @return {@code info.code}, or empty
   */
  public Optional<String> code() {
    return info.map(i -> i.path("code")).filter(JsonNode::isTextual).map(JsonNode::asText);
  }

  /**
   * The concatenated content text.
   *
   * @return the text
   */
  public String text() {
    StringBuilder sb = new StringBuilder();
    content.forEach(b -> sb.append(b.text()));
    return sb.toString();
  }

  /**
   * A copy with other content (used by final-content callbacks).
   *
   * @param newContent the replacement content
   * @return the result with that content
   */
  public ToolResult withContent(List<ContentBlock> newContent) {
    return new ToolResult(isError, newContent, value, info);
  }
}

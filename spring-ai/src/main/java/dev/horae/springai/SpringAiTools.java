package dev.horae.springai;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.spi.Registration;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;

/**
 * Spring AI {@link ToolCallback}s (from {@code @Tool} methods, {@code FunctionToolCallback}s, MCP
 * clients, …) as Horae tools: registered in a Horae tool registry, they are offered to the model by
 * the runtime and every call goes through the gate chain, argument validation against the
 * callback's input schema, output bounds and the rest of the tool pipeline before the callback
 * runs.
 *
 * <pre>{@code
 * Registration tools = SpringAiTools.register(horae.tools(), ToolCallbacks.from(new WeatherTools()));
 * }</pre>
 *
 * <p>The callback receives the arguments as JSON text and a {@link ToolContext} with {@link
 * #AGENT_ID} and {@link #CALL_ID}; the text it returns is the result the model reads. A callback
 * that throws (a {@code ToolExecutionException} included) gives the error result {@code Error:
 * <message>}.
 */
public final class SpringAiTools {

  /** The {@link ToolContext} key of the calling Horae agent's id. */
  public static final String AGENT_ID = "horae.agentId";
  /** The {@link ToolContext} key of the model's call id. */
  public static final String CALL_ID = "horae.callId";

  private SpringAiTools() {}

  /**
   * The Horae definition of a callback: its name, description and input schema; the result is the
   * callback's text as one content block.
   *
   * @param callback the callback
   * @return the definition
   * @throws SpringAiMappingException when the callback's input schema is not a JSON object
   */
  public static ToolDefinition definition(ToolCallback callback) {
    org.springframework.ai.tool.definition.ToolDefinition spring = callback.getToolDefinition();
    return ToolDefinition.builder(spring.name())
        .description(spring.description())
        .parameters(SpringAiMessages.schema(spring))
        .output(Json.parse("{\"type\":\"string\"}"))
        .renderer(value -> List.of(new ContentBlock(value.asText())))
        .body((args, exec) -> {
          // blocking, like every Spring AI tool; it runs on the agent's driver thread
          String text = callback.call(Json.write(args),
              new ToolContext(Map.of(AGENT_ID, exec.agent().id(), CALL_ID, exec.callId())));
          return CompletableFuture.completedFuture(TextNode.valueOf(text == null ? "" : text));
        })
        .build();
  }

  /**
   * Registers callbacks with a registry, visible to every agent; all or none: when one fails
   * (a duplicate name, a bad schema) the ones registered before it are removed again.
   *
   * @param registry the registry, e.g. {@code horae.tools()}
   * @param callbacks the callbacks
   * @return a handle that removes them all
   * @throws SpringAiMappingException for a bad input schema
   * @throws IllegalArgumentException for a name the registry already has
   */
  public static Registration register(ToolRegistry registry, ToolCallback... callbacks) {
    List<Registration> done = new ArrayList<>();
    try {
      for (ToolCallback c : callbacks) {
        done.add(registry.register(definition(c)));
      }
    } catch (RuntimeException e) {
      done.forEach(Registration::close);
      throw e;
    }
    return () -> done.forEach(Registration::close);
  }
}

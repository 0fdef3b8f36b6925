package dev.horae.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.spi.HoraeException;
import dev.horae.spi.Registration;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolRegistry;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.DefaultToolExecutor;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The application's LangChain4j tools as Horae tools: {@code @Tool}-annotated methods and {@link
 * ToolSpecification} + {@link ToolExecutor} pairs become {@link ToolDefinition}s on a Horae tool
 * registry ({@code horae.tools()}). A call then takes Horae's path: the gate chain (so a gate may
 * block, answer, ask for confirmation or schedule it, and a parked call survives a restart), the
 * argument validation against the mapped schema, the body, the output rendering, and the
 * session log's {@code tool/call} and {@code tool/result}.
 *
 * <p>The body runs the LangChain4j executor with a {@link ToolExecutionRequest} carrying the
 * Horae call id, the tool name and the arguments as JSON text, and the session id as the memory id
 * (so a {@code @MemoryId} parameter receives it). The returned text is the tool's value and what
 * the model reads; an error result of the executor (a method that threw) becomes Horae's error
 * result {@code Error: <message>}.
 */
public final class LangChain4jTools {

  private LangChain4jTools() {}

  /**
   * Registers every {@code @Tool} method of the objects.
   *
   * @param registry the runtime's registry, {@code horae.tools()}
   * @param toolObjects objects with {@code @Tool} methods
   * @return a handle that removes all of them
   * @throws IllegalArgumentException when a name is already registered (nothing of this call
   *     stays registered)
   * @throws LangChain4jMappingException {@code unsupported-schema} for a parameter schema Horae's
   *     subset cannot hold
   */
  public static Registration register(ToolRegistry registry, Object... toolObjects) {
    List<ToolDefinition> all = new ArrayList<>();
    for (Object o : toolObjects) {
      all.addAll(definitions(o));
    }
    return registerAll(registry, all);
  }

  /**
   * Registers one specification with its executor.
   *
   * @param registry the runtime's registry
   * @param specification the tool's specification
   * @param executor runs the tool
   * @return a handle that removes it
   * @throws IllegalArgumentException when the name is already registered
   */
  public static Registration register(ToolRegistry registry, ToolSpecification specification, ToolExecutor executor) {
    return registry.register(definition(specification, executor));
  }

  /**
   * The Horae definitions of an object's {@code @Tool} methods, in name order.
   *
   * @param toolObject an object with {@code @Tool} methods
   * @return the definitions
   * @throws IllegalArgumentException when the object has no {@code @Tool} method
   */
  public static List<ToolDefinition> definitions(Object toolObject) {
    Objects.requireNonNull(toolObject, "toolObject");
    List<Method> methods = new ArrayList<>();
    for (Method m : toolObject.getClass().getDeclaredMethods()) {
      if (m.isAnnotationPresent(Tool.class)) {
        methods.add(m);
      }
    }
    if (methods.isEmpty()) {
      throw new IllegalArgumentException(toolObject.getClass().getName() + " has no @Tool method");
    }
    methods.sort(Comparator.comparing(Method::getName));
    // LangChain4j's own check: no two tools of one object under one name
    ToolSpecifications.validateSpecifications(methods.stream().map(ToolSpecifications::toolSpecificationFrom).toList());
    List<ToolDefinition> out = new ArrayList<>();
    for (Method m : methods) {
      out.add(definition(ToolSpecifications.toolSpecificationFrom(m), new DefaultToolExecutor(toolObject, m)));
    }
    return out;
  }

  /**
   * The Horae definition of a specification and its executor.
   *
   * @param specification the specification
   * @param executor the executor
   * @return the definition
   */
  public static ToolDefinition definition(ToolSpecification specification, ToolExecutor executor) {
    Objects.requireNonNull(executor, "executor");
    JsonNode parameters = JsonSchemas.toHorae(specification.parameters());
    String name = specification.name();
    return ToolDefinition.builder(name)
        .description(specification.description() == null ? "" : specification.description())
        .parameters(parameters)
        // the executor's text is what the model reads, not a JSON rendering of it
        .renderer(value -> List.of(new ContentBlock(value.isTextual() ? value.asText() : EcmaJson.write(value))))
        .body((args, exec) -> {
          ToolExecutionRequest request = ToolExecutionRequest.builder().id(exec.callId()).name(name).arguments(Json.write(args)).build();
          InvocationContext context = InvocationContext.builder().chatMemoryId(exec.agent().session().id()).build();
          ToolExecutionResult result = executor.executeWithContext(request, context);
          String text = result.resultText() == null ? "" : result.resultText();
          if (result.isError()) {
            throw new HoraeException(text);
          }
          return CompletableFuture.completedFuture(TextNode.valueOf(text));
        })
        .build();
  }

  private static Registration registerAll(ToolRegistry registry, List<ToolDefinition> definitions) {
    List<Registration> done = new ArrayList<>();
    try {
      for (ToolDefinition d : definitions) {
        done.add(registry.register(d));
      }
    } catch (RuntimeException e) {
      done.forEach(Registration::close);
      throw e;
    }
    return () -> done.forEach(Registration::close);
  }
}

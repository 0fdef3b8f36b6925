package dev.horae.runtime.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.json.FrozenJson;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.tool.PreExecuteListener;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolExecution;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolRegistry;
import dev.horae.spi.tool.ToolResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The in-memory tool registry. Thread-safe. Every tool runs in exclusive mode: the calls of one
 * agent run one after another, in call order.
 */
public final class RuntimeToolRegistry implements ToolRegistry {

  private final Map<String, Registered> global = new LinkedHashMap<>();
  private final Map<String, Map<String, Registered>> scoped = new HashMap<>();
  private final List<PreExecuteListener> prepended = new ArrayList<>();
  private final List<PreExecuteListener> appended = new ArrayList<>();
  /** Tail of each agent's exclusive call chain. */
  private final Map<String, CompletableFuture<Void>> exclusiveTails = new HashMap<>();
  private final AtomicInteger bodyRuns = new AtomicInteger();
  // identity, not name: a scoped tool of the same name is the agent's own and runs on the host
  private final Set<ToolDefinition> clientExecuted = Collections.newSetFromMap(new IdentityHashMap<>());

  /** The error code of a client-executed tool's call that reached the registry. */
  public static final String CLIENT_EXECUTED = "CLIENT_EXECUTED";

  /** A registered definition with its schemas compiled once, at registration. */
  private record Registered(ToolDefinition tool, SchemaValidator.Schema parameters, SchemaValidator.Schema output) {}

  /** Creates an empty registry. */
  public RuntimeToolRegistry() {}

  @Override
  public synchronized Registration register(ToolDefinition tool) {
    return add(global, tool);
  }

  /**
   * Registers a tool visible only to one agent.
   *
   * @param agentId the agent
   * @param tool the definition
   * @return a handle that removes it
   * @throws IllegalArgumentException when that agent scope already has the name
   */
  public synchronized Registration registerFor(String agentId, ToolDefinition tool) {
    return add(scoped.computeIfAbsent(agentId, k -> new LinkedHashMap<>()), tool);
  }

  /**
   * Registers a client-executed tool (gate specification §8.4): every agent sees it, and the
   * runtime's turn never runs its body — a call of it parks the turn until the client answers with
   * the result for that exact call id. The body stays unused; a loop that cannot park (a
   * framework's own) gets an error result for the call instead of running it.
   *
   * @param tool the definition (its name, description and schemas are what the model sees)
   * @return a handle that removes it
   * @throws IllegalArgumentException when the name is already registered
   */
  public synchronized Registration registerClientExecuted(ToolDefinition tool) {
    Registration added = add(global, tool);
    clientExecuted.add(tool);
    return () -> {
      synchronized (this) {
        clientExecuted.remove(tool);
        added.close();
      }
    };
  }

  /**
   * Whether the tool an agent's call names is client-executed.
   *
   * @param agent the calling agent
   * @param name the tool name
   * @return true when the definition the agent resolves was registered client-executed
   */
  public synchronized boolean isClientExecuted(Agent agent, String name) {
    return find(agent, name).map(clientExecuted::contains).orElse(false);
  }

  private Registration add(Map<String, Registered> target, ToolDefinition tool) {
    if (target.containsKey(tool.name())) {
      throw new IllegalArgumentException("tool \"" + tool.name() + "\" is already registered");
    }
    Registered entry = new Registered(
        tool, SchemaValidator.compile(tool.parameters()), SchemaValidator.compile(tool.output()));
    target.put(tool.name(), entry);
    return () -> {
      synchronized (this) {
        target.remove(tool.name(), entry);
      }
    };
  }

  @Override
  public synchronized List<ToolDefinition> visibleTo(Agent agent) {
    Map<String, Registered> all = new LinkedHashMap<>(global);
    all.putAll(scoped.getOrDefault(agent.id(), Map.of()));
    return all.values().stream().map(Registered::tool).toList();
  }

  @Override
  public synchronized Optional<ToolDefinition> find(Agent agent, String name) {
    return lookup(agent, name).map(Registered::tool);
  }

  private synchronized Optional<Registered> lookup(Agent agent, String name) {
    Registered own = scoped.getOrDefault(agent.id(), Map.of()).get(name);
    return Optional.ofNullable(own != null ? own : global.get(name));
  }

  /**
   * How many times any tool body has started; lets tests prove a body never ran.
   *
   * @return the count
   */
  public int bodyRuns() {
    return bodyRuns.get();
  }

  @Override
  public synchronized Registration onPreExecute(PreExecuteListener listener, boolean prepend) {
    List<PreExecuteListener> target = prepend ? prepended : appended;
    target.add(listener);
    return () -> {
      synchronized (this) {
        target.remove(listener);
      }
    };
  }

  @Override
  public CompletionStage<ToolResult> call(ToolInvocation invocation, AbortSignal signal) {
    CompletableFuture<ToolResult> result = new CompletableFuture<>();
    CompletableFuture<Void> previous;
    synchronized (this) {
      previous = exclusiveTails.getOrDefault(invocation.agent().id(), CompletableFuture.completedFuture(null));
      exclusiveTails.put(invocation.agent().id(), result.handle((r, e) -> null));
    }
    var unused = previous.whenComplete((ignored, e) -> runGuarded(invocation, signal).whenComplete((r, failure) -> {
      if (failure != null) {
        result.complete(ToolResult.error("Error: " + failure.getMessage(), Optional.empty()));
      } else {
        result.complete(r);
      }
    }));
    return result;
  }

  /**
   * A listener or a final-content callback that throws would otherwise escape the completion
   * callback that runs the call, leaving the call's stage, and every later exclusive call of the
   * agent queued behind it, waiting forever; it fails this call instead, as a failed body does
   * (host contract §8.2 step 3), and the body of a call whose listener threw does not run.
   */
  private CompletionStage<ToolResult> runGuarded(ToolInvocation invocation, AbortSignal signal) {
    try {
      return run(invocation, signal);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private CompletionStage<ToolResult> run(ToolInvocation invocation, AbortSignal signal) {
    List<PreExecuteListener> listeners;
    synchronized (this) {
      listeners = new ArrayList<>(prepended);
      listeners.addAll(appended);
    }
    for (PreExecuteListener l : listeners) {
      l.beforeExecute(invocation);
    }
    Optional<Registered> found = lookup(invocation.agent(), invocation.call().toolId());
    if (found.isEmpty()) {
      return CompletableFuture.completedFuture(
          ToolResult.error("Error: unknown tool \"" + invocation.call().toolId() + "\"", Optional.of("UNKNOWN_TOOL")));
    }
    ToolDefinition tool = found.get().tool();
    SchemaValidator.Schema output = found.get().output();
    if (isClientExecuted(invocation.agent(), tool.name())) {
      // the client runs it (gate specification §8.4); only a turn that can park may hand it over
      return CompletableFuture.completedFuture(ToolResult.error(
          "Error: tool \"" + tool.name() + "\" is executed by the client", Optional.of(CLIENT_EXECUTED)));
    }
    List<String> violations = SchemaValidator.validateArguments(found.get().parameters(), invocation.call().arguments());
    if (!violations.isEmpty()) {
      return CompletableFuture.completedFuture(finish(tool, invocation, ToolResult.error(
          "Error: invalid arguments: " + String.join("; ", violations), Optional.of(ToolResult.INVALID_ARGS))));
    }
    if (signal.aborted()) {
      return CompletableFuture.completedFuture(finish(tool, invocation, ToolResult.aborted()));
    }
    CompletionStage<JsonNode> body;
    bodyRuns.incrementAndGet();
    try {
      body = tool.body().execute(invocation.call().arguments(), new ToolExecution(invocation.agent(), invocation.call().callId(), signal));
    } catch (RuntimeException e) {
      body = CompletableFuture.failedFuture(e);
    }
    return body.handle((value, failure) -> {
      // cancellation wins only after the body settled: its placeholder value is discarded
      if (signal.aborted()) {
        return finish(tool, invocation, ToolResult.aborted());
      }
      if (failure != null) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        return finish(tool, invocation, ToolResult.error("Error: " + cause.getMessage(), Optional.empty()));
      }
      List<String> outputViolations = SchemaValidator.validate(output, value);
      if (!outputViolations.isEmpty()) {
        return finish(tool, invocation, ToolResult.error(
            "Error: invalid output: " + String.join("; ", outputViolations), Optional.of("INVALID_OUTPUT")));
      }
      // made immutable (host contract §8.2 step 4): a frozen value (a list of a million lazy
      // rows) is handed on as it is; anything else is copied into a frozen tree the body can no
      // longer change
      JsonNode frozen = FrozenJson.freeze(value);
      List<ContentBlock> content = tool.renderer().apply(frozen);
      return finish(tool, invocation, ToolResult.success(frozen, content));
    });
  }

  private static ToolResult finish(ToolDefinition tool, ToolInvocation invocation, ToolResult result) {
    return tool.finalContent().map(f -> result.withContent(f.apply(invocation, result))).orElse(result);
  }
}

package dev.horae.spi.tool;

import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The host's tool registry (host contract §8). Tools registered here are visible to every agent;
 * tools registered through an agent's {@link dev.horae.spi.plugin.Scope} only to that agent.
 */
public interface ToolRegistry {

  /**
   * Registers a tool for every agent.
   *
   * @param tool the definition
   * @return a handle that removes it
   * @throws IllegalArgumentException when the name is already registered in that scope
   */
  Registration register(ToolDefinition tool);

  /**
   * The tools an agent sees (its own scoped tools and the global ones).
   *
   * @param agent the agent
   * @return the definitions
   */
  List<ToolDefinition> visibleTo(Agent agent);

  /**
   * Finds the tool an agent would call under that name.
   *
   * @param agent the agent
   * @param name the tool name
   * @return the definition, or empty
   */
  Optional<ToolDefinition> find(Agent agent, String name);

  /**
   * Runs the call pipeline (§8.2). Never completes exceptionally: every failure is an error
   * result.
   *
   * @param invocation the agent and its call
   * @param signal the caller's cancellation signal
   * @return the final result
   */
  CompletionStage<ToolResult> call(ToolInvocation invocation, AbortSignal signal);

  /**
   * Adds a pre-execute listener.
   *
   * @param listener the listener
   * @param prepend whether to run it before those registered without it
   * @return a handle that removes it
   */
  Registration onPreExecute(PreExecuteListener listener, boolean prepend);
}

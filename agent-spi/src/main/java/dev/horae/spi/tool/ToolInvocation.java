package dev.horae.spi.tool;

import dev.horae.spi.agent.Agent;
import dev.horae.spi.gate.ToolCall;
import java.util.Objects;

/**
 * One call of a tool by an agent, as the tool registry runs it (host contract §8.2): the model's
 * {@link ToolCall} (call id, tool name, arguments) and the agent that issued it. The call itself is
 * the same record the gates, the model port and resume tickets use, so a call reaches the registry
 * exactly as it passed the gate chain.
 *
 * @param agent the calling agent
 * @param call the call: its {@code toolId} is the registry name the agent calls
 */
public record ToolInvocation(Agent agent, ToolCall call) {

  /** Requires both members. */
  public ToolInvocation {
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(call, "call");
  }
}

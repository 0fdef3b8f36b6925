package dev.horae.spi.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.agent.Agent;

/**
 * One call of a tool by an agent.
 *
 * @param agent the calling agent
 * @param tool the tool name
 * @param callId the call id the model gave
 * @param args the arguments object
 */
public record ToolCall(Agent agent, String tool, String callId, JsonNode args) {}

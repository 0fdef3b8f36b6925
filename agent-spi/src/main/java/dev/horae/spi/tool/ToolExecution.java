package dev.horae.spi.tool;

import dev.horae.spi.AbortSignal;
import dev.horae.spi.agent.Agent;

/**
 * What a tool body receives besides its arguments (host contract §8.1).
 *
 * @param agent the calling agent
 * @param callId the call id
 * @param signal fires when the caller cancels the call
 */
public record ToolExecution(Agent agent, String callId, AbortSignal signal) {}

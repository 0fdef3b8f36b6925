package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What the model sees for one step.
 *
 * @param runId the Run
 * @param threadId its thread
 * @param step the 1-based step number
 * @param messages the transcript so far, an immutable snapshot (not copied): {@code {"role":"user","content":..}}, {@code
 *     {"role":"assistant","content":..,"toolCalls":[..]}} and {@code
 *     {"role":"tool","callId":..,"content":..,"isError"?:true}}
 * @param tools the snapshot's tool catalog
 */
public record InferenceRequest(
    String runId, String threadId, int step, List<JsonNode> messages, List<ToolDescriptor> tools) {
  /** Copies the tool list; the transcript is an immutable snapshot already. */
  public InferenceRequest {
    tools = List.copyOf(tools);
  }
}

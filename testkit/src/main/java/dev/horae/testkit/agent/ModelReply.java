package dev.horae.testkit.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** One scripted model reply. */
public sealed interface ModelReply permits ModelReply.Text, ModelReply.ToolCalls, ModelReply.Failure {

  /**
   * A text reply; concludes the turn.
   *
   * @param text the assistant text
   */
  record Text(String text) implements ModelReply {}

  /**
   * One or more tool calls; the turn continues with another step.
   *
   * @param calls the calls, in order
   */
  record ToolCalls(List<Call> calls) implements ModelReply {
    /** Copies the list. */
    public ToolCalls {
      calls = List.copyOf(calls);
    }
  }

  /**
   * The request fails; the step ends and the turn ends with reason {@code error}.
   *
   * @param message the failure message
   */
  record Failure(String message) implements ModelReply {}

  /**
   * A tool call.
   *
   * @param callId the call id
   * @param tool the tool name
   * @param args the arguments object
   */
  record Call(String callId, String tool, JsonNode args) {}
}

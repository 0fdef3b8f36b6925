package dev.horae.runtime.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.AwaitReason;
import dev.horae.gate.ResumeTicket;
import java.util.Objects;

/**
 * A tool call parked on a committed resume ticket: a person must confirm it ({@link
 * AwaitReason#TOOL_PERMISSION}) or the dispatcher performs it ({@link
 * AwaitReason#SCHEDULED_ACTION}).
 *
 * @param runId the Run, {@code <session>/turn-<n>}
 * @param sessionId the session (the gate's thread)
 * @param callId the model's call id
 * @param toolId the tool
 * @param arguments the exact arguments that will run on approval
 * @param reason why the call waits
 * @param ticket the committed ticket (its identity is what a resume command must carry)
 */
public record AwaitingCall(
    String runId, String sessionId, String callId, String toolId, JsonNode arguments, AwaitReason reason, ResumeTicket ticket) {

  /** Rejects missing parts. */
  public AwaitingCall {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(callId, "callId");
    Objects.requireNonNull(toolId, "toolId");
    Objects.requireNonNull(arguments, "arguments");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(ticket, "ticket");
  }

  /**
   * The parked call of a committed ticket, if the ticket targets a tool call.
   *
   * @param ticket the ticket
   * @return the call
   */
  public static java.util.Optional<AwaitingCall> of(ResumeTicket ticket) {
    return ticket.toolCall().map(c -> new AwaitingCall(ticket.runId(), ticket.threadId(), c.callId(), c.toolId(),
        c.arguments(), ticket.reason(), ticket));
  }
}

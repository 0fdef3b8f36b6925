package dev.horae.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;

/**
 * How a wait surfaces to clients (gate specification §2.3, PROJ-01): only permission waits,
 * client-executed calls and remote input are shown; scheduled actions, delegation and pauses are
 * system-owned and never shown.
 *
 * @param callId the call id the client answers
 * @param toolId the tool to confirm or execute ({@code agent_input} for remote input)
 * @param input the call's arguments ({@code {"reason": <stream token>}} for remote input)
 * @param clientExecuted whether the client executes the call (false for a permission wait)
 */
public record RequiredAction(String callId, String toolId, JsonNode input, boolean clientExecuted) {

  /** The synthetic tool id under which remote input is requested. */
  public static final String AGENT_INPUT = "agent_input";

  /** Rejects missing parts. */
  public RequiredAction {
    Objects.requireNonNull(callId, "callId");
    Objects.requireNonNull(toolId, "toolId");
    Objects.requireNonNull(input, "input");
  }

  /**
   * Projects a committed ticket to the action a client must take, if any.
   *
   * @param ticket the committed ticket
   * @return the required action, or empty for system-owned waits
   */
  public static Optional<RequiredAction> of(ResumeTicket ticket) {
    AwaitTarget target = ticket.target();
    if (target instanceof AwaitTarget.ToolCallTarget t) {
      return switch (t.kind()) {
        case PERMISSION -> Optional.of(new RequiredAction(t.id(), t.tool().toolId(), t.tool().arguments(), false));
        case CLIENT_EXECUTION -> Optional.of(new RequiredAction(t.id(), t.tool().toolId(), t.tool().arguments(), true));
        case SCHEDULED_ACTION, DELEGATION -> Optional.empty();
      };
    }
    if (target instanceof AwaitTarget.RemoteInputTarget r) {
      ObjectNode input = JsonNodeFactory.instance.objectNode();
      input.put("reason", r.reason().streamToken());
      return Optional.of(new RequiredAction(r.id(), AGENT_INPUT, input, true));
    }
    return Optional.empty();
  }
}

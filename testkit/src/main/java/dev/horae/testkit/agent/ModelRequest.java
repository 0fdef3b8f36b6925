package dev.horae.testkit.agent;

import dev.horae.spi.message.UserMessage;
import java.util.List;

/**
 * What the scripted model was asked: the step's entered user messages.
 *
 * @param agentId the agent
 * @param turn the turn
 * @param step the step
 * @param messages the user messages entered for the step
 */
public record ModelRequest(String agentId, long turn, long step, List<UserMessage> messages) {
  /** Copies the list. */
  public ModelRequest {
    messages = List.copyOf(messages);
  }
}

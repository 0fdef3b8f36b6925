package dev.horae.spi.agent;

import dev.horae.spi.message.UserMessage;
import java.util.List;

/** The pre-step waterfall's decision (host contract §6.2). */
public sealed interface StepDecision permits StepDecision.Enter, StepDecision.Reject {

  /**
   * Enter the step with these user messages.
   *
   * @param messages the final list of user messages for the step, in order
   */
  record Enter(List<UserMessage> messages) implements StepDecision {
    /** Copies the list. */
    public Enter {
      messages = List.copyOf(messages);
    }
  }

  /**
   * Do not enter the step; the turn ends with reason {@code blocked}.
   *
   * @param reason why, for logs and the transcript
   */
  record Reject(String reason) implements StepDecision {}
}

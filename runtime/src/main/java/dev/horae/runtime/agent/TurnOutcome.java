package dev.horae.runtime.agent;

import dev.horae.spi.message.UserMessage;
import java.util.Objects;
import java.util.Optional;

/**
 * How a turn ended, as the turn engine reports it after {@code turn/end} was appended.
 *
 * @param agentId the agent
 * @param sessionId its session
 * @param turn the turn number
 * @param reason the end reason ({@code completed}, {@code blocked}, {@code aborted}, {@code error},
 *     {@code max-tokens})
 * @param trigger the message that opened the turn: a prompt, a reminder follow-up, a job notice;
 *     empty when the turn opened on next-step input only
 * @param finalText the last assistant text of the turn, or empty
 */
public record TurnOutcome(
    String agentId, String sessionId, long turn, String reason, Optional<UserMessage> trigger, String finalText) {

  /**
   * Validates the outcome.
   *
   * @param agentId the agent
   * @param sessionId the session
   * @param turn the turn
   * @param reason the reason
   * @param trigger the trigger
   * @param finalText the final text
   */
  public TurnOutcome {
    Objects.requireNonNull(agentId, "agentId");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(trigger, "trigger");
    Objects.requireNonNull(finalText, "finalText");
  }

  /**
   * Whether no user asked for this turn: a library component (a reminder coming due, a job
   * notice) woke the agent, so whatever it answered reaches nobody unless the embedder passes it
   * on.
   *
   * @return true for a turn a plugin message opened
   */
  public boolean unprompted() {
    return trigger.map(m -> m.source().kind().equals("plugin")).orElse(false);
  }
}

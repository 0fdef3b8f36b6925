package dev.horae.spring.boot;

import dev.horae.runtime.agent.TurnOutcome;
import java.util.Objects;

/**
 * Published (as a payload event) for every unprompted reply of the runtime: a turn that a reminder
 * or a job notice opened on an idle agent ended {@code completed} with text. Nobody asked for it,
 * so it reaches a user only through a listener:
 *
 * <pre>{@code
 * @EventListener
 * void push(UnpromptedReplyEvent event) {
 *   chat.send(event.outcome().sessionId(), event.outcome().finalText());
 * }
 * }</pre>
 *
 * <p>Listeners run on the agent's driver thread, synchronously, as Spring's default multicaster
 * calls them; hand slow work to an executor.
 *
 * @param outcome the turn, with its session and final text
 */
public record UnpromptedReplyEvent(TurnOutcome outcome) {

  /**
   * Validates the event.
   *
   * @param outcome the turn
   */
  public UnpromptedReplyEvent {
    Objects.requireNonNull(outcome, "outcome");
  }
}

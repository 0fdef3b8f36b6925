package dev.horae.spi.agent;

import dev.horae.spi.AbortSignal;
import dev.horae.spi.message.UserMessage;
import java.util.List;
import java.util.concurrent.CompletionStage;

/** What a pre-step listener receives (host contract §6.2). */
public interface PreStep {

  /**
   * The agent about to step.
   *
   * @return the agent
   */
  Agent agent();

  /**
   * The proposed messages (claimed messages plus any runtime context the host adds).
   *
   * @return the proposal
   */
  List<UserMessage> messages();

  /**
   * The turn number (positive, continues across resume).
   *
   * @return the turn
   */
  long turn();

  /**
   * The step number within the turn, from 1.
   *
   * @return the step
   */
  long step();

  /**
   * The turn's cancellation signal.
   *
   * @return the signal
   */
  AbortSignal signal();

  /**
   * Runs the downstream listeners; the innermost default is Enter with the proposal.
   *
   * @return the downstream decision
   */
  CompletionStage<StepDecision> next();
}

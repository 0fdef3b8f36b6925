package dev.horae.spi.agent;

import java.util.concurrent.CompletionStage;

/** One link of the pre-step waterfall (host contract §6.2). */
@FunctionalInterface
public interface PreStepListener {

  /**
   * Decides the step, usually by calling {@link PreStep#next()} and returning that decision or a
   * modified one. A throw or failed stage means the step is not entered.
   *
   * @param step the pre-step context
   * @return the decision
   */
  CompletionStage<StepDecision> onPreStep(PreStep step);
}

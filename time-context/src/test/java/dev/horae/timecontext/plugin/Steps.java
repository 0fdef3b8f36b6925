package dev.horae.timecontext.plugin;

import dev.horae.spi.AbortSignal;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.PreStep;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.message.UserMessage;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** A hand-made pre-step whose downstream decision is fixed, to drive the listener alone. */
record Steps(Agent agent, List<UserMessage> messages, long turn, long step, AbortSignal signal, StepDecision downstream)
    implements PreStep {

  static Steps entering(Agent agent, long turn, long step) {
    return new Steps(agent, List.of(), turn, step, AbortSignal.never(), new StepDecision.Enter(List.of()));
  }

  @Override
  public CompletionStage<StepDecision> next() {
    return CompletableFuture.completedFuture(downstream);
  }
}

package dev.horae.spi.model;

import java.util.concurrent.CompletionStage;

/**
 * A chat model as the turn engine sees it. One call per model step; the engine never calls it
 * twice at once for one agent.
 */
@FunctionalInterface
public interface ModelPort {

  /**
   * Answers one step. The stage may complete on any thread. A failed stage ends the turn with
   * reason {@code error} (the step's messages stay in history, host contract §6.3); when the
   * request's signal fires the engine ends the turn {@code aborted} whatever the stage does later.
   *
   * @param request the step's request
   * @return the model's response
   */
  CompletionStage<ModelResponse> complete(ModelRequest request);
}

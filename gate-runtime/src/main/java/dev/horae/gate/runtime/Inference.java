package dev.horae.gate.runtime;

import java.util.concurrent.CompletionStage;

/**
 * The host-supplied model port: one inference step. A stage that fails with {@link
 * InferenceException} ends the Run with that classified failure; any other failure ends it with
 * code {@code inference_error}.
 */
@FunctionalInterface
public interface Inference {

  /**
   * Runs one model step.
   *
   * @param request the Run, the step and the committed transcript
   * @return a stage with the model's reply
   */
  CompletionStage<ModelReply> infer(InferenceRequest request);
}

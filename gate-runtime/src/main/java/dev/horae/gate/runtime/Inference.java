package dev.horae.gate.runtime;

import dev.horae.spi.model.ModelResponse;
import java.util.concurrent.CompletionStage;

/**
 * The host-supplied model port: one inference step. A stage that fails with {@link
 * InferenceException} ends the Run with that classified failure; any other failure ends it with
 * code {@code inference_error}.
 *
 * <p>The reply is the production model port's {@link ModelResponse}. A response without tool calls
 * ends the Run {@code naturalEnd}. A response whose finish reason is {@link
 * dev.horae.spi.model.FinishReason#MAX_TOKENS} was cut at the token limit, so its calls may be
 * incomplete: the engine commits it to the transcript as given, runs none of its calls and ends the
 * Run {@code error(inference{code: "max_tokens"})} ({@link #MAX_TOKENS_CODE}) — the same rule by
 * which the runtime's turn engine ends such a turn {@code max-tokens} (a running Run ends only
 * naturally, at max steps, in failure or indeterminate: gate specification §4.2).
 */
@FunctionalInterface
public interface Inference {

  /** The failure code of a Run whose model output reached its token limit. */
  String MAX_TOKENS_CODE = "max_tokens";

  /**
   * Runs one model step.
   *
   * @param request the Run, the step and the committed transcript
   * @return a stage with the model's response
   */
  CompletionStage<ModelResponse> infer(InferenceRequest request);
}

package dev.horae.spi.model;

/** Why the model stopped producing output for a step. */
public enum FinishReason {
  /** The model finished its answer. */
  STOP,
  /** The model stopped to have tools called. */
  TOOL_CALLS,
  /** The output reached the model's token limit: the turn ends with reason {@code max-tokens}. */
  MAX_TOKENS,
  /** The provider filtered the output. */
  CONTENT_FILTER,
  /** Any other reason the provider gave. */
  OTHER
}

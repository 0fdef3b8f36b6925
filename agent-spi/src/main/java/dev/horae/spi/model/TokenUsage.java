package dev.horae.spi.model;

/**
 * Tokens a model call consumed, as the provider reported them.
 *
 * @param inputTokens tokens of the request, or -1 when unknown
 * @param outputTokens tokens of the response, or -1 when unknown
 */
public record TokenUsage(long inputTokens, long outputTokens) {

  /** Usage the provider did not report. */
  public static final TokenUsage UNKNOWN = new TokenUsage(-1, -1);

  /**
   * Validates the counts.
   *
   * @param inputTokens request tokens, or -1
   * @param outputTokens response tokens, or -1
   */
  public TokenUsage {
    if (inputTokens < -1 || outputTokens < -1) {
      throw new IllegalArgumentException("token counts must be >= 0 (or -1 for unknown), got "
          + inputTokens + " and " + outputTokens);
    }
  }

  /**
   * Whether the provider reported the counts.
   *
   * @return true when both counts are known
   */
  public boolean known() {
    return inputTokens >= 0 && outputTokens >= 0;
  }
}

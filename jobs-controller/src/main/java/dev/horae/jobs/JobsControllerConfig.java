package dev.horae.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.jobs.internal.ConfigValidation;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.plugin.OnceSettings;
import java.util.Objects;

/**
 * The {@code tool-jobs} controller configuration (jobs spec §3.2), typed: build it with {@link
 * #builder()}, take the {@link #defaults()}, or read a configuration file's object with {@link
 * #fromJson}. Every path validates with the spec's exact load-time messages ({@link
 * JobsException}, code {@code invalid_config}).
 *
 * @param waitTimeoutMs wait used when {@code wait: true} has no {@code timeout_ms}
 * @param maxWaitTimeoutMs cap of any single wait
 * @param completionDelivery idle-owner lane
 * @param maxConsecutiveWakes turns one owner may have opened by completion wakes before notices
 *     degrade to injection
 */
public record JobsControllerConfig(
    long waitTimeoutMs,
    long maxWaitTimeoutMs,
    CompletionDelivery completionDelivery,
    long maxConsecutiveWakes) {

  /** Default {@code waitTimeoutMs}. */
  public static final long DEFAULT_WAIT_TIMEOUT_MS = 30_000;
  /** Default {@code maxWaitTimeoutMs}. */
  public static final long DEFAULT_MAX_WAIT_TIMEOUT_MS = 600_000;
  /** Default {@code maxConsecutiveWakes}. */
  public static final long DEFAULT_MAX_CONSECUTIVE_WAKES = 3;

  /**
   * Validates the configuration with the load-time rules of §3.2.
   *
   * @throws JobsException with code {@code invalid_config} and the exact load-time message
   */
  public JobsControllerConfig {
    Objects.requireNonNull(completionDelivery, "completionDelivery");
    ConfigValidation.checkRanges(waitTimeoutMs, maxWaitTimeoutMs, maxConsecutiveWakes);
  }

  /**
   * The defaults: 30000, 600000, {@code wakeup}, 3.
   *
   * @return the default configuration
   */
  public static JobsControllerConfig defaults() {
    return new JobsControllerConfig(
        DEFAULT_WAIT_TIMEOUT_MS,
        DEFAULT_MAX_WAIT_TIMEOUT_MS,
        CompletionDelivery.WAKEUP,
        DEFAULT_MAX_CONSECUTIVE_WAKES);
  }

  /**
   * Starts a builder holding the defaults; each setting may be given once.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Validates a raw JSON configuration (conformance {@code jobs.validateConfig}): unknown keys
   * first, then each key in table order, then the cross checks.
   *
   * @param config the raw configuration object; a JSON {@code null} or missing node means {@code
   *     {}}
   * @return the normalized configuration, equal to the one the builder makes from the same
   *     settings
   * @throws JobsException with code {@code invalid_config} and the exact load-time message
   */
  public static JobsControllerConfig fromJson(JsonNode config) {
    return ConfigValidation.validate(config);
  }

  /**
   * Writes the normalized object with all four keys.
   *
   * @return {@code {"waitTimeoutMs","maxWaitTimeoutMs","completionDelivery","maxConsecutiveWakes"}}
   */
  public ObjectNode toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("waitTimeoutMs", waitTimeoutMs);
    node.put("maxWaitTimeoutMs", maxWaitTimeoutMs);
    node.put("completionDelivery", completionDelivery.wire());
    node.put("maxConsecutiveWakes", maxConsecutiveWakes);
    return node;
  }

  /**
   * Builds a {@link JobsControllerConfig}. Each setting may be given once; a second call throws
   * {@code IllegalStateException: <setting> was already set for this tool-jobs configuration}.
   * {@link #build()} validates every setting.
   */
  public static final class Builder {
    private final OnceSettings given = new OnceSettings("tool-jobs configuration");
    private long waitTimeoutMs = DEFAULT_WAIT_TIMEOUT_MS;
    private long maxWaitTimeoutMs = DEFAULT_MAX_WAIT_TIMEOUT_MS;
    private CompletionDelivery completionDelivery = CompletionDelivery.WAKEUP;
    private long maxConsecutiveWakes = DEFAULT_MAX_CONSECUTIVE_WAKES;

    private Builder() {}

    /**
     * Sets the wait used when {@code job_output} has {@code wait: true} and no {@code
     * timeout_ms}. Default 30000.
     *
     * @param value milliseconds, 1 … 9007199254740991, at most {@code maxWaitTimeoutMs}
     * @return this builder
     */
    public Builder waitTimeoutMs(long value) {
      given.mark("waitTimeoutMs");
      waitTimeoutMs = value;
      return this;
    }

    /**
     * Sets the cap of any single wait. Default 600000.
     *
     * @param value milliseconds, 1 … 9007199254740991
     * @return this builder
     */
    public Builder maxWaitTimeoutMs(long value) {
      given.mark("maxWaitTimeoutMs");
      maxWaitTimeoutMs = value;
      return this;
    }

    /**
     * Sets how a completion notice reaches an idle owner (§4). Default {@link
     * CompletionDelivery#WAKEUP}.
     *
     * @param value the lane
     * @return this builder
     */
    public Builder completionDelivery(CompletionDelivery value) {
      given.mark("completionDelivery");
      completionDelivery = Objects.requireNonNull(value, "completionDelivery");
      return this;
    }

    /**
     * Sets how many turns in a row completion wakes may open for one owner before notices
     * degrade to injection (§4.4). Default 3.
     *
     * @param value turns, 1 … 9007199254740991
     * @return this builder
     */
    public Builder maxConsecutiveWakes(long value) {
      given.mark("maxConsecutiveWakes");
      maxConsecutiveWakes = value;
      return this;
    }

    /**
     * Builds and validates the configuration.
     *
     * @return the configuration
     * @throws JobsException with code {@code invalid_config} and the exact load-time message of
     *     the first invalid setting, e.g. {@code tool-jobs: waitTimeoutMs (100) exceeds
     *     maxWaitTimeoutMs (50)}
     */
    public JobsControllerConfig build() {
      return new JobsControllerConfig(waitTimeoutMs, maxWaitTimeoutMs, completionDelivery, maxConsecutiveWakes);
    }
  }
}

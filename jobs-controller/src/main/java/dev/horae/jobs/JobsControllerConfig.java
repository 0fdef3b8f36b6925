package dev.horae.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.jobs.internal.ConfigValidation;
import dev.horae.spi.jobs.JobsException;
import java.util.Objects;

/**
 * The {@code tool-jobs} controller configuration (jobs spec §3.2).
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
   * Validates a raw JSON configuration (conformance {@code jobs.validateConfig}): unknown keys
   * first, then each key in table order, then the cross checks.
   *
   * @param config the raw configuration object; a JSON {@code null} or missing node means {@code
   *     {}}
   * @return the normalized configuration
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
}

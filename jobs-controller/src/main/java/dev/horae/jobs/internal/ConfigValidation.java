package dev.horae.jobs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.jobs.CompletionDelivery;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.json.EcmaNumbers;
import java.util.Iterator;
import java.util.List;

/** Load-time validation of the controller configuration (jobs spec §3.2). Pure. */
public final class ConfigValidation {

  private static final List<String> KEYS =
      List.of("waitTimeoutMs", "maxWaitTimeoutMs", "completionDelivery", "maxConsecutiveWakes");

  private ConfigValidation() {}

  /**
   * Validates a raw configuration object.
   *
   * @param config the raw object; JSON null or missing means empty
   * @return the normalized configuration
   * @throws JobsException with code {@code invalid_config}
   */
  public static JobsControllerConfig validate(JsonNode config) {
    if (config.isNull() || config.isMissingNode()) {
      return JobsControllerConfig.defaults();
    }
    if (!config.isObject()) {
      throw fail("tool-jobs: config must be an object, got " + EcmaJson.write(config));
    }
    for (Iterator<String> names = config.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      if (!KEYS.contains(key)) {
        throw fail("tool-jobs: unknown config key " + EcmaJson.write(textNode(key)));
      }
    }
    long wait = wholeTimeout(config, "waitTimeoutMs", JobsControllerConfig.DEFAULT_WAIT_TIMEOUT_MS);
    long max =
        wholeTimeout(config, "maxWaitTimeoutMs", JobsControllerConfig.DEFAULT_MAX_WAIT_TIMEOUT_MS);
    CompletionDelivery delivery = CompletionDelivery.WAKEUP;
    JsonNode lane = config.get("completionDelivery");
    if (lane != null) {
      if (lane.isTextual() && lane.textValue().equals("quiet")) {
        delivery = CompletionDelivery.QUIET;
      } else if (!(lane.isTextual() && lane.textValue().equals("wakeup"))) {
        throw fail(
            "tool-jobs: completionDelivery must be \"quiet\" or \"wakeup\", got "
                + EcmaJson.write(lane));
      }
    }
    double wakes = JobsControllerConfig.DEFAULT_MAX_CONSECUTIVE_WAKES;
    JsonNode wakesNode = config.get("maxConsecutiveWakes");
    if (wakesNode != null) {
      // NaN fails ">= 1" as in the original's comparison
      if (!wakesNode.isNumber() || !(wakesNode.doubleValue() >= 1)) {
        throw fail(
            "tool-jobs: maxConsecutiveWakes must be a number of at least 1, got "
                + EcmaJson.write(wakesNode));
      }
      wakes = wakesNode.doubleValue();
    }
    if (wait > max) {
      throw fail(
          "tool-jobs: waitTimeoutMs ("
              + wait
              + ") exceeds maxWaitTimeoutMs ("
              + max
              + ")");
    }
    if (!EcmaNumbers.isSafeInteger(wakes)) {
      throw fail(
          "tool-jobs: maxConsecutiveWakes ("
              + EcmaNumbers.toString(wakes)
              + ") must be a whole number of turns");
    }
    return new JobsControllerConfig(wait, max, delivery, (long) wakes);
  }

  /**
   * Checks the ranges of an already typed configuration (the record constructor).
   *
   * @param wait {@code waitTimeoutMs}
   * @param max {@code maxWaitTimeoutMs}
   * @param wakes {@code maxConsecutiveWakes}
   * @throws JobsException with code {@code invalid_config}
   */
  public static void checkRanges(long wait, long max, long wakes) {
    if (wait < 1 || wait > EcmaNumbers.MAX_SAFE_INTEGER) {
      throw fail(
          "tool-jobs: waitTimeoutMs must be a whole number from 1 to 9007199254740991, got "
              + wait);
    }
    if (max < 1 || max > EcmaNumbers.MAX_SAFE_INTEGER) {
      throw fail(
          "tool-jobs: maxWaitTimeoutMs must be a whole number from 1 to 9007199254740991, got "
              + max);
    }
    if (wakes < 1) {
      throw fail("tool-jobs: maxConsecutiveWakes must be a number of at least 1, got " + wakes);
    }
    if (wait > max) {
      throw fail("tool-jobs: waitTimeoutMs (" + wait + ") exceeds maxWaitTimeoutMs (" + max + ")");
    }
    if (wakes > EcmaNumbers.MAX_SAFE_INTEGER) {
      throw fail("tool-jobs: maxConsecutiveWakes (" + wakes + ") must be a whole number of turns");
    }
  }

  private static long wholeTimeout(JsonNode config, String key, long fallback) {
    JsonNode value = config.get(key);
    if (value == null) {
      return fallback;
    }
    double d = value.isNumber() ? value.doubleValue() : Double.NaN;
    if (!value.isNumber() || !EcmaNumbers.isSafeInteger(d) || d < 1) {
      throw fail(
          "tool-jobs: "
              + key
              + " must be a whole number from 1 to 9007199254740991, got "
              + EcmaJson.write(value));
    }
    return (long) d;
  }

  private static JsonNode textNode(String text) {
    return com.fasterxml.jackson.databind.node.TextNode.valueOf(text);
  }

  private static JobsException fail(String message) {
    return new JobsException(JobsException.INVALID_CONFIG, message);
  }
}

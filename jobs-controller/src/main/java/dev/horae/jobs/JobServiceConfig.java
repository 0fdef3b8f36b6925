package dev.horae.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.json.EcmaNumbers;

/**
 * Configuration of the local job registry (jobs spec §2.5).
 *
 * @param maxConcurrentJobsPerOwner live jobs one owner object may hold at once (all unowned jobs
 *     share one bucket)
 */
public record JobServiceConfig(long maxConcurrentJobsPerOwner) {

  /** Default admission limit. */
  public static final long DEFAULT_MAX_CONCURRENT_JOBS_PER_OWNER = 10;

  /**
   * Validates the limit.
   *
   * @throws JobsException {@code invalid_config} unless 1 … 9007199254740991
   */
  public JobServiceConfig {
    if (maxConcurrentJobsPerOwner < 1
        || maxConcurrentJobsPerOwner > EcmaNumbers.MAX_SAFE_INTEGER) {
      throw invalid(Long.toString(maxConcurrentJobsPerOwner));
    }
  }

  /**
   * The default configuration (limit 10).
   *
   * @return the defaults
   */
  public static JobServiceConfig defaults() {
    return new JobServiceConfig(DEFAULT_MAX_CONCURRENT_JOBS_PER_OWNER);
  }

  /**
   * Reads {@code {"maxConcurrentJobsPerOwner": n}}; a missing member takes the default.
   *
   * @param config the raw configuration; JSON null or missing means the defaults
   * @return the configuration
   * @throws JobsException {@code invalid_config} with the exact construction message
   */
  public static JobServiceConfig fromJson(JsonNode config) {
    JsonNode value = config.path("maxConcurrentJobsPerOwner");
    if (value.isMissingNode()) {
      return defaults();
    }
    double d = value.isNumber() ? value.doubleValue() : Double.NaN;
    if (!value.isNumber()
        || !Double.isFinite(d)
        || d != Math.rint(d)
        || d < 1
        || d > EcmaNumbers.MAX_SAFE_INTEGER) {
      throw invalid(EcmaJson.write(value));
    }
    return new JobServiceConfig((long) d);
  }

  private static JobsException invalid(String json) {
    return new JobsException(
        JobsException.INVALID_CONFIG,
        "jobs: maxConcurrentJobsPerOwner must be a whole number from 1 to 9007199254740991, got "
            + json);
  }
}

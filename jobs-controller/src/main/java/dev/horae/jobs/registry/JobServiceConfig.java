package dev.horae.jobs.registry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.spi.plugin.OnceSettings;

/**
 * Configuration of the local job registry (jobs spec §2.5), typed: build it with {@link
 * #builder()}, take the {@link #defaults()}, or read a configuration file's object with {@link
 * #fromJson}. Every path validates with the spec's exact construction message.
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
   * Starts a builder holding the defaults; each setting may be given once.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
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

  /**
   * Builds a {@link JobServiceConfig}. Each setting may be given once; a second call throws
   * {@code IllegalStateException: <setting> was already set for this job service configuration}.
   */
  public static final class Builder {
    private final OnceSettings given = new OnceSettings("job service configuration");
    private long maxConcurrentJobsPerOwner = DEFAULT_MAX_CONCURRENT_JOBS_PER_OWNER;

    private Builder() {}

    /**
     * Sets how many live jobs one owner object may hold at once (all unowned jobs share one
     * bucket). Default 10.
     *
     * @param value 1 … 9007199254740991
     * @return this builder
     */
    public Builder maxConcurrentJobsPerOwner(long value) {
      given.mark("maxConcurrentJobsPerOwner");
      maxConcurrentJobsPerOwner = value;
      return this;
    }

    /**
     * Builds and validates the configuration.
     *
     * @return the configuration
     * @throws JobsException {@code invalid_config} unless the limit is 1 … 9007199254740991
     */
    public JobServiceConfig build() {
      return new JobServiceConfig(maxConcurrentJobsPerOwner);
    }
  }
}

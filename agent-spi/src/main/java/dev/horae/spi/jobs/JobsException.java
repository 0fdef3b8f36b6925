package dev.horae.spi.jobs;

import dev.horae.spi.HoraeException;

import java.util.Objects;

/**
 * The one unchecked failure of the job seam: a stable {@code code} plus the exact message of the
 * jobs specification (e.g. {@code unknown_job} / {@code unknown job bash-9}).
 */
public class JobsException extends HoraeException {

  private static final long serialVersionUID = 1L;

  /** No controller serves the owner (start step 1). */
  public static final String CONTROLLER_UNAVAILABLE = "controller_unavailable";
  /** Empty kind. */
  public static final String INVALID_KIND = "invalid_kind";
  /** Empty label. */
  public static final String INVALID_LABEL = "invalid_label";
  /** {@code outputLimitBytes} out of range. */
  public static final String INVALID_OUTPUT_LIMIT = "invalid_output_limit";
  /** The host offers no agent registry. */
  public static final String OWNER_REGISTRY_MISSING = "owner_registry_missing";
  /** The owner is not the registered agent instance. */
  public static final String OWNER_NOT_LIVE = "owner_not_live";
  /** The owner's admission bucket is full. */
  public static final String ADMISSION_LIMIT = "admission_limit";
  /** No job with that id. */
  public static final String UNKNOWN_JOB = "unknown_job";
  /** The job belongs to another session. */
  public static final String FOREIGN_JOB = "foreign_job";
  /** A wait timeout that is not a positive, finite number of milliseconds. */
  public static final String INVALID_WAIT_TIMEOUT = "invalid_wait_timeout";
  /** The wait's abort signal fired. */
  public static final String WAIT_ABORTED = "wait_aborted";
  /** A configuration failed validation. */
  public static final String INVALID_CONFIG = "invalid_config";
  /** A tool argument failed the tool's own validation. */
  public static final String INVALID_ARGUMENT = "invalid_argument";
  /** A producer could not start its work (e.g. the shell could not be spawned). */
  public static final String SPAWN_FAILED = "spawn_failed";
  /** The service is closed. */
  public static final String SERVICE_CLOSED = "service_closed";

  private final String code;

  /**
   * Creates the failure.
   *
   * @param code stable error code
   * @param message exact spec message
   */
  public JobsException(String code, String message) {
    super(message);
    this.code = Objects.requireNonNull(code, "code");
  }

  /**
   * Creates the failure with a cause.
   *
   * @param code stable error code
   * @param message exact spec message
   * @param cause the underlying failure
   */
  public JobsException(String code, String message, Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
  }

  /**
   * Returns the stable error code.
   *
   * @return the code, e.g. {@code unknown_job}
   */
  public String code() {
    return code;
  }
}

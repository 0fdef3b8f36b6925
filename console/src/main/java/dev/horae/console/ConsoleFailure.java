package dev.horae.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.HoraeException;
import org.jspecify.annotations.Nullable;

/**
 * A refused or failed console request: what kind of failure it is (which fixes its HTTP status
 * and the error code the JSON names, docs/operations.md, "Web console"), its message, and for an
 * answer whose durability is uncertain, the answer's outcome.
 */
public final class ConsoleFailure extends HoraeException {
  private static final long serialVersionUID = 1L;

  /** The kinds of failure, each with its HTTP status and error code. */
  public enum Kind {
    /** A malformed request: a missing argument, an unusable setup. */
    USAGE(400, "usage"),
    /** The session or run named does not exist, or the run is not awaiting. */
    NOT_FOUND(404, "notFound"),
    /** The session is held by another process: nothing was written. */
    HELD(409, "held"),
    /** The gate's resume rules refused the answer: nothing was written. */
    REJECTED(409, "rejected"),
    /** Answering needs the application's tools and model, which this console lacks. */
    NEEDS_SETUP(501, "needsSetup"),
    /** The store cannot be read. */
    UNREADABLE(503, "unreadable"),
    /** The answer was committed but its durability could not be confirmed. */
    UNCERTAIN(500, "uncertain"),
    /** Anything else. */
    FAILED(500, "failed");

    private final int status;
    private final String code;

    Kind(int status, String code) {
      this.status = status;
      this.code = code;
    }

    /**
     * The HTTP status the console answers with.
     *
     * @return the status
     */
    public int status() {
      return status;
    }

    /**
     * The error code the JSON names.
     *
     * @return the code
     */
    public String code() {
      return code;
    }
  }

  private final Kind kind;
  private final transient @Nullable JsonNode outcome;

  /**
   * A failure.
   *
   * @param kind what kind of failure
   * @param message what the operator is told
   * @param outcome the answer's outcome when it was given but is not confirmed durable
   */
  public ConsoleFailure(Kind kind, String message, @Nullable JsonNode outcome) {
    super(message);
    this.kind = kind;
    this.outcome = outcome;
  }

  /**
   * A failure without an outcome.
   *
   * @param kind what kind of failure
   * @param message what the operator is told
   */
  public ConsoleFailure(Kind kind, String message) {
    this(kind, message, (JsonNode) null);
  }

  /**
   * A failure with a cause.
   *
   * @param kind what kind of failure
   * @param message what the operator is told
   * @param cause what failed
   */
  public ConsoleFailure(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
    this.outcome = null;
  }

  /**
   * The kind of failure.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }

  /**
   * The answer's outcome, when it was given.
   *
   * @return the outcome or null
   */
  public @Nullable JsonNode outcome() {
    return outcome;
  }
}

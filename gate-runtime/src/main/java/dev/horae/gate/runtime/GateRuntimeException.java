package dev.horae.gate.runtime;

import dev.horae.spi.HoraeException;

import org.jspecify.annotations.Nullable;

/**
 * An unexpected runtime failure (gate specification §13), with its category. Expected rejections
 * are values ({@link ResumeOutcome.Rejected}), never this exception.
 */
public abstract sealed class GateRuntimeException extends HoraeException
    permits CommitRejectedException, CommitStoreException, GateRuntimeException.Resolution,
        GateRuntimeException.Execution {

  private static final long serialVersionUID = 1L;

  private final Category category;

  GateRuntimeException(Category category, String message, @Nullable Throwable cause) {
    super(message, cause);
    this.category = category;
  }

  /** The error categories and their display prefixes. */
  public enum Category {
    /** {@code runtime resolution failed: } */
    RESOLUTION("runtime resolution failed: "),
    /** {@code runtime execution failed: } */
    EXECUTION("runtime execution failed: "),
    /** {@code runtime commit failed: } */
    COMMIT("runtime commit failed: ");

    private final String prefix;

    Category(String prefix) {
      this.prefix = prefix;
    }

    /**
     * The display prefix.
     *
     * @return e.g. {@code runtime execution failed: }
     */
    public String prefix() {
      return prefix;
    }
  }

  /**
   * The category.
   *
   * @return the category
   */
  public Category category() {
    return category;
  }

  /**
   * The displayed form: the category prefix and the message.
   *
   * @return e.g. {@code runtime commit failed: run r has already ended; later commits are rejected}
   */
  public String display() {
    return category.prefix() + getMessage();
  }

  /** Resolution failed (snapshot, environment). */
  public static final class Resolution extends GateRuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the error.
     *
     * @param message the message
     */
    public Resolution(String message) {
      super(Category.RESOLUTION, message, null);
    }
  }

  /** Execution failed (e.g. a gate or the inference port threw unexpectedly). */
  public static final class Execution extends GateRuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the error.
     *
     * @param message the message
     * @param cause the underlying failure, if any
     */
    public Execution(String message, @Nullable Throwable cause) {
      super(Category.EXECUTION, message, cause);
    }
  }
}

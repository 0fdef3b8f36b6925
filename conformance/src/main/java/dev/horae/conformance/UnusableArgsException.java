package dev.horae.conformance;

/**
 * A case's {@code args} cannot be mapped onto the function (a missing or mistyped argument). The
 * runner reports the case as failed and goes on.
 */
public final class UnusableArgsException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what is wrong, naming the argument (for example {@code args.now must be an
   *     RFC 3339 string})
   */
  public UnusableArgsException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what is wrong, naming the argument
   * @param cause the parse failure behind it
   */
  public UnusableArgsException(String message, Throwable cause) {
    super(message, cause);
  }
}

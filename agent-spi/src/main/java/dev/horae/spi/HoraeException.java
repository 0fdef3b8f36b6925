package dev.horae.spi;

import org.jspecify.annotations.Nullable;

/**
 * The root of every exception Horae's library modules define, so an embedder can catch "anything
 * Horae reported" in one clause and still tell the kinds apart by their own types: a corrupt
 * Schedule log, an invalid configuration, a composition error, an invariant violation, a refused
 * commit, a store failure and so on.
 *
 * <p>Two argument errors stay {@link IllegalArgumentException}s for their callers'
 * sake: {@code PromptRejectedException} and the gate's {@code GateJsonException} (both are what a
 * caller passing a bad value catches as such).
 */
public class HoraeException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * An exception with a message.
   *
   * @param message what went wrong, in the library's stable words
   */
  public HoraeException(String message) {
    super(message);
  }

  /**
   * An exception with a message and a cause.
   *
   * @param message what went wrong
   * @param cause what caused it, if known
   */
  public HoraeException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }

  /**
   * An exception whose stack trace and suppression can be turned off, for errors that are values
   * (a corrupt log reported to a model) rather than programming faults.
   *
   * @param message what went wrong
   * @param cause what caused it, if known
   * @param enableSuppression whether suppressed exceptions are recorded
   * @param writableStackTrace whether the stack trace is filled in
   */
  protected HoraeException(
      String message, @Nullable Throwable cause, boolean enableSuppression, boolean writableStackTrace) {
    super(message, cause, enableSuppression, writableStackTrace);
  }
}

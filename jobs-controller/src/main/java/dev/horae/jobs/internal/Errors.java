package dev.horae.jobs.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The {@code <error>} rendering of the jobs spec §0. Pure. */
public final class Errors {

  private Errors() {}

  /**
   * Unwraps {@link CompletionException} and {@link ExecutionException} layers.
   *
   * @param failure any failure
   * @return the innermost non-wrapper failure
   */
  public static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    for (Throwable c = t.getCause();
        (t instanceof CompletionException || t instanceof ExecutionException) && c != null;
        c = t.getCause()) {
      t = c;
    }
    return t;
  }

  /**
   * Renders a failure as {@code SimpleName: message}, or {@code SimpleName} without a message.
   *
   * @param failure any failure
   * @return the rendering
   */
  public static String render(Throwable failure) {
    Throwable t = unwrap(failure);
    String message = t.getMessage();
    return message == null
        ? t.getClass().getSimpleName()
        : t.getClass().getSimpleName() + ": " + message;
  }
}

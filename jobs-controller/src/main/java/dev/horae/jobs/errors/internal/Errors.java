package dev.horae.jobs.errors.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The {@code <error>} rendering of the jobs spec §0. Pure. */
public final class Errors {

  /** Longest job id an error text repeats in full (jobs spec §2.6). */
  public static final int MAX_ECHOED_ID = 64;

  private Errors() {}

  /**
   * A job id as an error text repeats it: in full up to {@link #MAX_ECHOED_ID} UTF-16 units,
   * otherwise its first 64 (one fewer when the 64th would split a surrogate pair) and {@code …},
   * so a model that sends a megabyte id does not get a megabyte error back.
   *
   * @param id the id as the caller gave it
   * @return the text to put in the error
   */
  public static String echoedId(String id) {
    if (id.length() <= MAX_ECHOED_ID) {
      return id;
    }
    int end = Character.isHighSurrogate(id.charAt(MAX_ECHOED_ID - 1)) ? MAX_ECHOED_ID - 1 : MAX_ECHOED_ID;
    return id.substring(0, end) + "…";
  }

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

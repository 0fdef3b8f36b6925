package dev.horae.store;

import dev.horae.spi.HoraeException;

/** A session store failure that is not a bug in the caller: unreadable, corrupt or locked data. */
public class SessionStoreException extends HoraeException {

  /**
   * Creates the exception.
   *
   * @param message the error text
   */
  public SessionStoreException(String message) {
    super(message);
  }

  /**
   * Creates the exception with a cause.
   *
   * @param message the error text
   * @param cause the underlying failure
   */
  public SessionStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}

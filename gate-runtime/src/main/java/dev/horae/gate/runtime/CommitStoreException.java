package dev.horae.gate.runtime;

import org.jspecify.annotations.Nullable;

/** A store failed to write or prove durability; displayed as a commit failure. */
public final class CommitStoreException extends GateRuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the error.
   *
   * @param message what failed
   * @param cause the underlying failure, if any
   */
  public CommitStoreException(String message, @Nullable Throwable cause) {
    super(Category.COMMIT, message, cause);
  }
}

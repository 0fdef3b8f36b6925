package dev.horae.spi;

import java.util.Optional;

/**
 * A cancellation signal handed across seams (a turn's signal, a tool call's signal, a maintenance
 * task's signal). Once aborted it stays aborted.
 */
public interface AbortSignal {

  /**
   * Whether the signal has fired.
   *
   * @return true once aborted
   */
  boolean aborted();

  /**
   * The cause given when the signal fired.
   *
   * @return the cause, or empty while not aborted or when none was given
   */
  Optional<Throwable> reason();

  /**
   * Runs {@code listener} once when the signal fires, on the aborting thread; immediately (on the
   * caller's thread) when it already has.
   *
   * @param listener a short, non-blocking callback
   * @return a handle that removes the listener
   */
  Registration onAbort(Runnable listener);

  /**
   * A signal that never fires.
   *
   * @return a never-aborted signal
   */
  static AbortSignal never() {
    return AbortController.NEVER;
  }
}

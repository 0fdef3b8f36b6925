package dev.horae.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The owner side of an {@link AbortSignal}: whoever holds the controller can fire the signal.
 * Thread-safe.
 */
public final class AbortController implements AbortSignal {

  static final AbortSignal NEVER = new AbortController();

  private final List<Runnable> listeners = new ArrayList<>();
  private boolean aborted;
  private @Nullable Throwable reason;

  /** Creates a controller whose signal has not fired. */
  public AbortController() {}

  /**
   * The signal view of this controller.
   *
   * @return this controller as a signal
   */
  public AbortSignal signal() {
    return this;
  }

  /**
   * Fires the signal with no cause. Idempotent.
   */
  public void abort() {
    abort(null);
  }

  /**
   * Fires the signal. Idempotent: only the first call records its cause and runs the listeners.
   *
   * @param cause the cause, or {@code null} for none
   */
  public void abort(@Nullable Throwable cause) {
    List<Runnable> toRun;
    synchronized (this) {
      if (aborted || this == NEVER) {
        return;
      }
      aborted = true;
      reason = cause;
      toRun = List.copyOf(listeners);
      listeners.clear();
    }
    for (Runnable r : toRun) {
      r.run();
    }
  }

  @Override
  public synchronized boolean aborted() {
    return aborted;
  }

  @Override
  public synchronized Optional<Throwable> reason() {
    return Optional.ofNullable(reason);
  }

  @Override
  public Registration onAbort(Runnable listener) {
    synchronized (this) {
      if (!aborted) {
        listeners.add(listener);
        return () -> {
          synchronized (this) {
            listeners.remove(listener);
          }
        };
      }
    }
    listener.run();
    return Registration.noop();
  }
}

package dev.horae.spi.time;

/** A scheduled timer. Cancelling is idempotent; a cancelled timer never runs its task. */
@FunctionalInterface
public interface Cancellable {
  /** Cancels the timer if it has not run yet. */
  void cancel();
}

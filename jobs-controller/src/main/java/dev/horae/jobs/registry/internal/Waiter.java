package dev.horae.jobs.registry.internal;

import dev.horae.spi.Registration;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.time.Cancellable;
import java.util.concurrent.CompletableFuture;

/**
 * One pending {@code await}. Whoever removes it from its record under the registry lock (the
 * settlement, the timer or the abort handler) is the only one that completes it.
 */
public final class Waiter {

  /** The caller's stage. */
  public final CompletableFuture<JobSnapshot> result = new CompletableFuture<>();

  private Cancellable timer = () -> {};
  private Registration abortHook = Registration.noop();

  /**
   * Remembers the timeout timer and the abort hook, so the winner can release both.
   *
   * @param timer the timeout timer
   * @param abortHook the abort listener handle
   */
  public void arm(Cancellable timer, Registration abortHook) {
    synchronized (this) {
      this.timer = timer;
      this.abortHook = abortHook;
    }
    // the wait may have ended before it was armed; nothing else would release these then
    if (result.isDone()) {
      release();
    }
  }

  /** Cancels the timer and removes the abort hook; repeated waits accumulate nothing. */
  public void release() {
    Cancellable t;
    Registration a;
    synchronized (this) {
      t = timer;
      a = abortHook;
    }
    t.cancel();
    a.close();
  }
}

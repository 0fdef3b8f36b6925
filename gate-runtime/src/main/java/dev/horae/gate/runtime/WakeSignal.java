package dev.horae.gate.runtime;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The dispatcher's wake hint port (gate specification §12.5.7): a lost hint only delays work to
 * the next poll.
 */
public interface WakeSignal {

  /** Publishes a hint; succeeds with nobody waiting. */
  void publish();

  /**
   * The next hint.
   *
   * @return a stage completing at the next publish, or at once when a hint was published since the
   *     last one was taken
   */
  CompletionStage<Void> next();

  /**
   * The in-process signal: a hint published before anyone waits is kept as one permit (WAKE-01);
   * further hints before it is taken add nothing.
   *
   * @return a new signal
   */
  static WakeSignal inProcess() {
    return new InProcess();
  }

  /** The one-permit in-process signal. */
  final class InProcess implements WakeSignal {
    private boolean permit;
    private CompletableFuture<Void> waiter = new CompletableFuture<>();
    private boolean waiting;

    private InProcess() {}

    @Override
    public void publish() {
      CompletableFuture<Void> wake;
      synchronized (this) {
        if (!waiting) {
          permit = true;
          return;
        }
        wake = waiter;
        waiter = new CompletableFuture<>();
        waiting = false;
      }
      // completed outside the lock: the waiter's continuation may publish or wait again
      wake.complete(null);
    }

    @Override
    public synchronized CompletionStage<Void> next() {
      if (permit) {
        permit = false;
        return CompletableFuture.completedFuture(null);
      }
      waiting = true;
      return waiter;
    }
  }
}

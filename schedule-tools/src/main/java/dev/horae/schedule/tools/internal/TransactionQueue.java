package dev.horae.schedule.tools.internal;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The per-agent FIFO (spec §9.1, §16.9). A transaction starts only after the previous one
 * settled, and spans everything its stage covers (preflight to last barrier). A failed
 * transaction does not break the queue. Nothing blocks a thread: a transaction starts on the
 * thread that submitted it or on the thread that completed its predecessor.
 *
 * <p>Transactions that complete synchronously are run from a loop rather than from each other's
 * completion callbacks, so a long queue of quick transactions never builds a deep stack.
 */
public final class TransactionQueue {

  private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
  /** A transaction has started and its stage has not completed yet. */
  private boolean inFlight;
  /** Some thread is inside {@link #drain()}; others leave the starting to it. */
  private boolean draining;

  /**
   * Runs {@code transaction} after every earlier transaction has settled.
   *
   * @param <T> the result type
   * @param transaction the transaction; a synchronous throw becomes a failed stage
   * @return a stage completing like the transaction's
   */
  public <T> CompletionStage<T> submit(Supplier<CompletionStage<T>> transaction) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Runnable start =
        () -> {
          CompletionStage<T> stage;
          try {
            stage = transaction.get();
          } catch (RuntimeException e) {
            stage = CompletableFuture.failedFuture(e);
          }
          var unused =
              stage.whenComplete(
                  (value, failure) -> {
                    synchronized (this) {
                      inFlight = false;
                    }
                    if (failure != null) {
                      result.completeExceptionally(failure);
                    } else {
                      result.complete(value);
                    }
                    drain();
                  });
        };
    synchronized (this) {
      pending.addLast(start);
    }
    drain();
    return result;
  }

  private void drain() {
    while (true) {
      Runnable next;
      synchronized (this) {
        if (draining || inFlight || pending.isEmpty()) {
          return;
        }
        draining = true;
        inFlight = true;
        next = pending.pollFirst();
      }
      try {
        next.run();
      } finally {
        synchronized (this) {
          draining = false;
        }
      }
    }
  }
}

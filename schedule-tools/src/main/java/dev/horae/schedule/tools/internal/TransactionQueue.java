package dev.horae.schedule.tools.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The per-agent FIFO (spec §9.1, §16.9): a chain of stages. A transaction starts only after the
 * previous one settled, and spans everything its stage covers (preflight to last barrier). A
 * failed link does not break the chain. Nothing blocks a thread: waiting is stage composition.
 */
public final class TransactionQueue {

  private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);

  /**
   * Runs {@code transaction} after every earlier transaction has settled.
   *
   * @param <T> the result type
   * @param transaction the transaction; a synchronous throw becomes a failed stage
   * @return a stage completing like the transaction's
   */
  public <T> CompletionStage<T> submit(Supplier<CompletionStage<T>> transaction) {
    CompletableFuture<T> result = new CompletableFuture<>();
    CompletableFuture<Void> previous;
    synchronized (this) {
      // the new tail is published before the transaction can start, so a transaction that
      // submits another one (the owner recompute from a preflight) queues it behind itself
      previous = tail;
      tail = result.handle((v, e) -> null);
    }
    var unused =
        previous.whenComplete(
            (ignored, before) -> {
              CompletionStage<T> stage;
              try {
                stage = transaction.get();
              } catch (RuntimeException e) {
                stage = CompletableFuture.failedFuture(e);
              }
              stage.whenComplete(
                  (value, failure) -> {
                    if (failure != null) {
                      result.completeExceptionally(failure);
                    } else {
                      result.complete(value);
                    }
                  });
            });
    return result;
  }

}

package dev.horae.testkit.session;

import java.util.concurrent.CompletableFuture;

/**
 * A scripted persist outcome that stays pending until the test settles it. Obtained from
 * {@link FlushScript#thenHold()}; it takes effect on the persist call that consumes it.
 * Thread-safe.
 */
public final class HeldFlush {

  private final CompletableFuture<Void> gate = new CompletableFuture<>();
  private volatile boolean reached;

  HeldFlush() {}

  /**
   * Completes the held persist normally: the store keeps the log it was asked to persist, then the
   * flush stage completes. Releasing twice, or after {@link #fail}, has no effect.
   */
  public void release() {
    gate.complete(null);
  }

  /**
   * Completes the held persist with a failure: the store keeps nothing and the flush stage fails
   * with {@code error}.
   *
   * @param error the failure
   */
  public void fail(Throwable error) {
    gate.completeExceptionally(error);
  }

  /**
   * Whether a persist call has consumed this outcome (the flush is now waiting on it).
   *
   * @return true once the persist call arrived
   */
  public boolean reached() {
    return reached;
  }

  /**
   * Whether the test has released or failed it.
   *
   * @return true once settled
   */
  public boolean settled() {
    return gate.isDone();
  }

  CompletableFuture<Void> gate() {
    reached = true;
    return gate;
  }
}

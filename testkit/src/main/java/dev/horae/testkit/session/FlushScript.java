package dev.horae.testkit.session;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The scripted outcomes of an {@link InMemorySessionStore}'s persist calls (host contract §14,
 * "flush scripting"). Outcomes are consumed one per persist call, in order, whatever the session;
 * once the queue is empty every persist completes normally. Thread-safe.
 */
public final class FlushScript {

  /** One scripted outcome. */
  sealed interface Outcome {}

  /** Complete normally: the store keeps the log. */
  record Complete() implements Outcome {}

  /** Complete exceptionally: the store keeps nothing. */
  record Fail(Throwable error) implements Outcome {}

  /** Throw synchronously from {@code persist}: the store keeps nothing. */
  record Throw(RuntimeException error) implements Outcome {}

  /** Stay pending until the handle settles it. */
  record Hold(HeldFlush handle) implements Outcome {}

  private final Deque<Outcome> queue = new ArrayDeque<>();

  FlushScript() {}

  /**
   * The next persist completes normally (useful before a later scripted failure).
   *
   * @return this script
   */
  public FlushScript thenComplete() {
    return enqueue(new Complete());
  }

  /**
   * The next persist completes with {@code error}.
   *
   * @param error the failure the flush stage completes with
   * @return this script
   */
  public FlushScript thenFail(Throwable error) {
    return enqueue(new Fail(error));
  }

  /**
   * The next persist throws {@code error} synchronously, so {@code flush} itself throws.
   *
   * @param error the exception to throw
   * @return this script
   */
  public FlushScript thenThrow(RuntimeException error) {
    return enqueue(new Throw(error));
  }

  /**
   * The next persist stays pending until the returned handle is released or failed.
   *
   * @return the handle
   */
  public HeldFlush thenHold() {
    HeldFlush handle = new HeldFlush();
    enqueue(new Hold(handle));
    return handle;
  }

  /**
   * The n-th persist from here on (after the outcomes already queued) completes with {@code error};
   * the ones before it complete normally.
   *
   * @param n one-based position, counted after the outcomes already queued
   * @param error the failure
   * @return this script
   * @throws IllegalArgumentException when {@code n < 1}
   */
  public FlushScript failOnNth(int n, Throwable error) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1, got " + n);
    }
    synchronized (queue) {
      for (int i = 1; i < n; i++) {
        queue.add(new Complete());
      }
      queue.add(new Fail(error));
    }
    return this;
  }

  /**
   * How many scripted outcomes are still queued.
   *
   * @return the count
   */
  public int remaining() {
    synchronized (queue) {
      return queue.size();
    }
  }

  /** Drops every queued outcome: later persists complete normally. */
  public void clear() {
    synchronized (queue) {
      queue.clear();
    }
  }

  Optional<Outcome> next() {
    synchronized (queue) {
      return Optional.ofNullable(queue.poll());
    }
  }

  private FlushScript enqueue(Outcome outcome) {
    synchronized (queue) {
      queue.add(outcome);
    }
    return this;
  }
}

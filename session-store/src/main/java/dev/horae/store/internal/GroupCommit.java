package dev.horae.store.internal;

import java.io.IOException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Group commit of one session's event file: one fsync runs at a time, and every persist that wrote
 * while it ran is covered by the next one, so concurrent persists share a single fsync. All state
 * is guarded by the folder's mutex, which is released only while an fsync runs.
 */
final class GroupCommit {

  /** The fsync itself. */
  @FunctionalInterface
  interface Force {
    void run() throws IOException;
  }

  private final ReentrantLock mutex;
  private final Condition forced;
  private long durable;
  private boolean forcing;

  /**
   * Starts with a durable prefix.
   *
   * @param mutex the folder's mutex
   * @param durable events already durable
   */
  GroupCommit(ReentrantLock mutex, long durable) {
    this.mutex = mutex;
    this.forced = mutex.newCondition();
    this.durable = durable;
  }

  /**
   * Events known to be durable. Call with the mutex held.
   *
   * @return the count
   */
  long durable() {
    return durable;
  }

  /**
   * Records events made durable outside the group (the creating persist). Call with the mutex held.
   *
   * @param count the durable count
   */
  void markDurable(long count) {
    durable = Math.max(durable, count);
  }

  /**
   * Returns once an fsync that started after {@code target} events were written has completed.
   * Call with the mutex held; it is released while this thread's fsync runs or while it waits for
   * another thread's.
   *
   * @param target events that must be durable
   * @param written events written so far (read under the mutex when an fsync starts)
   * @param check run before every attempt; throws when the folder closed or failed meanwhile
   * @param force the fsync
   * @throws IOException the fsync's failure
   */
  void await(long target, LongSupplier written, Runnable check, Force force) throws IOException {
    while (durable < target) {
      check.run();
      if (forcing) {
        forced.awaitUninterruptibly();
        continue;
      }
      forcing = true;
      long covers = written.getAsLong();
      mutex.unlock();
      try {
        force.run();
      } finally {
        mutex.lock();
        forcing = false;
        forced.signalAll();
      }
      durable = Math.max(durable, covers);
    }
  }
}

package dev.horae.testkit.agent;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;

/**
 * A manual executor: tasks queue up and run only when a test drains the queue, on the draining
 * thread. Thread-safe.
 */
public final class DriverQueue implements Executor {

  private final Deque<Runnable> tasks = new ArrayDeque<>();

  /** Creates an empty queue. */
  public DriverQueue() {}

  @Override
  public synchronized void execute(Runnable task) {
    tasks.addLast(task);
  }

  /**
   * Runs queued tasks, including tasks they queue, until none is left.
   *
   * @return how many tasks ran
   */
  public int drain() {
    int ran = 0;
    while (true) {
      Runnable next;
      synchronized (this) {
        next = tasks.pollFirst();
      }
      if (next == null) {
        return ran;
      }
      next.run();
      ran++;
    }
  }

  /**
   * How many tasks wait.
   *
   * @return the count
   */
  public synchronized int pending() {
    return tasks.size();
  }
}

package dev.horae.testkit.agent;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A manual executor: tasks queue up and run only when a test drains the queue, on the draining
 * thread. Thread-safe.
 */
public final class DriverQueue implements Executor {

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition queued = lock.newCondition();
  private final Deque<Runnable> tasks = new ArrayDeque<>();

  /** Creates an empty queue. */
  public DriverQueue() {}

  @Override
  public void execute(Runnable task) {
    lock.lock();
    try {
      tasks.addLast(task);
      queued.signalAll();
    } finally {
      lock.unlock();
    }
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
      lock.lock();
      try {
        next = tasks.pollFirst();
      } finally {
        lock.unlock();
      }
      if (next == null) {
        return ran;
      }
      next.run();
      ran++;
    }
  }

  /**
   * Waits until at least one task is queued, for work that another thread (a job's settlement, a
   * real timer) hands to a driver.
   *
   * @param timeout the longest wait
   * @return true when a task is queued, false when the timeout passed first
   * @throws InterruptedException when interrupted while waiting
   */
  public boolean awaitTask(Duration timeout) throws InterruptedException {
    lock.lock();
    try {
      // awaitNanos measures the remaining time itself, so the testkit reads no clock here
      long left = timeout.toNanos();
      while (tasks.isEmpty()) {
        if (left <= 0) {
          return false;
        }
        left = queued.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * How many tasks wait.
   *
   * @return the count
   */
  public int pending() {
    lock.lock();
    try {
      return tasks.size();
    } finally {
      lock.unlock();
    }
  }
}

package dev.horae.jobs.fakes;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;

/** A serial executor that runs queued tasks only when the test says so. */
public final class ManualExecutor implements Executor {

  private final Deque<Runnable> queue = new ArrayDeque<>();

  @Override
  public synchronized void execute(Runnable command) {
    queue.add(command);
  }

  /**
   * Number of queued tasks.
   *
   * @return the count
   */
  public synchronized int pending() {
    return queue.size();
  }

  /** Runs queued tasks, including those queued while running, until none is left. */
  public void runAll() {
    while (true) {
      Runnable next;
      synchronized (this) {
        next = queue.poll();
      }
      if (next == null) {
        return;
      }
      next.run();
    }
  }
}

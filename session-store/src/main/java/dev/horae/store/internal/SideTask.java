package dev.horae.store.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * One piece of a load's work on a short-lived daemon thread of its own, while the caller does the
 * rest (the second half of a long event file, the decoding of a long JDBC load). The caller always
 * waits for it before it answers, also when its own part failed, so no reader outlives the load;
 * the wait ignores interrupts and restores the caller's interrupt flag afterwards, as the stores'
 * other waits do, because an interrupted load would leave the other thread reading alone.
 *
 * @param <T> what the work answers
 */
public final class SideTask<T> {

  private final FutureTask<T> task;

  private SideTask(FutureTask<T> task) {
    this.task = task;
  }

  /**
   * Starts the work on a new daemon thread.
   *
   * @param name the thread's name
   * @param work the work
   * @param <T> what the work answers
   * @return the started task
   */
  public static <T> SideTask<T> start(String name, Callable<T> work) {
    FutureTask<T> task = new FutureTask<>(work);
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return new SideTask<>(task);
  }

  /**
   * Waits for the work, through interrupts, and answers it.
   *
   * @return what the work answered
   * @throws IOException when the work threw one
   * @throws RuntimeException when the work threw one (an {@link Error} is thrown as it is)
   */
  public T await() throws IOException {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return task.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof IOException io) {
            throw io;
          }
          if (cause instanceof RuntimeException runtime) {
            throw runtime;
          }
          if (cause instanceof Error error) {
            throw error;
          }
          throw new UncheckedIOException(new IOException(cause));
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Waits for the work and ignores how it ended: the caller already reports a failure of its own. */
  public void awaitQuietly() {
    try {
      await();
    } catch (IOException | RuntimeException | Error ignored) {
      // the caller's failure is the one reported
    }
  }
}

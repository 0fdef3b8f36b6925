package dev.horae.runtime;

import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A manual wall clock and monotonic timers that run due tasks on the advancing thread: the
 * due-sessions tests drive every pass with it, never waiting on wall time.
 */
final class ManualTimers implements InstantSource, Timers {
  private long nowMs;
  private final List<long[]> dues = new ArrayList<>();
  private final List<Runnable> tasks = new ArrayList<>();

  ManualTimers(Instant start) {
    this.nowMs = start.toEpochMilli();
  }

  @Override
  public synchronized Instant instant() {
    return Instant.ofEpochMilli(nowMs);
  }

  @Override
  public synchronized Cancellable schedule(Duration delay, Runnable task) {
    long[] due = {nowMs + Math.max(0, delay.toMillis())};
    dues.add(due);
    tasks.add(task);
    return () -> {
      synchronized (this) {
        int i = dues.indexOf(due);
        if (i >= 0) {
          dues.remove(i);
          tasks.remove(i);
        }
      }
    };
  }

  /** Moves the clock and runs, on this thread, every task that came due. */
  void advance(Duration by) {
    List<Runnable> run = new ArrayList<>();
    synchronized (this) {
      nowMs += by.toMillis();
      Iterator<long[]> d = dues.iterator();
      Iterator<Runnable> t = tasks.iterator();
      while (d.hasNext()) {
        long[] due = d.next();
        Runnable task = t.next();
        if (due[0] <= nowMs) {
          d.remove();
          t.remove();
          run.add(task);
        }
      }
    }
    run.forEach(Runnable::run);
  }
}

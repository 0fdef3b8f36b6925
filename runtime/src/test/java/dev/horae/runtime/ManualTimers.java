package dev.horae.runtime;

import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The runtime suites' manual time: a settable wall clock and timers on it. {@link #advance} moves
 * the clock and runs every timer that falls due, each at its own due time and in due order, on the
 * calling thread — a task that re-arms itself within the window runs again in the same advance
 * (so a test counts the lease renewals of a long attempt), and a task sees the clock at its own
 * due time. No suite waits on wall time.
 */
public final class ManualTimers implements InstantSource, Timers {

  private long nowMs;
  private final List<Entry> entries = new ArrayList<>();
  private long order;

  private final class Entry implements Cancellable {
    final long due;
    final long seq;
    final Runnable task;

    Entry(long due, long seq, Runnable task) {
      this.due = due;
      this.seq = seq;
      this.task = task;
    }

    @Override
    public void cancel() {
      synchronized (ManualTimers.this) {
        entries.remove(this);
      }
    }
  }

  /**
   * Manual time starting at {@code start}.
   *
   * @param start the clock's first reading
   */
  public ManualTimers(Instant start) {
    this.nowMs = start.toEpochMilli();
  }

  @Override
  public synchronized Instant instant() {
    return Instant.ofEpochMilli(nowMs);
  }

  @Override
  public synchronized Cancellable schedule(Duration delay, Runnable task) {
    Entry e = new Entry(nowMs + Math.max(0, delay.toMillis()), order++, task);
    entries.add(e);
    return e;
  }

  /**
   * How many timers are armed and not yet run or cancelled.
   *
   * @return the count
   */
  public synchronized int armed() {
    return entries.size();
  }

  /**
   * Moves the clock without running any timer: a step that simply takes that long.
   *
   * @param ms milliseconds
   */
  public synchronized void skip(long ms) {
    nowMs += ms;
  }

  /**
   * Moves the clock by {@code by}, running due timers at their due times.
   *
   * @param by how far
   */
  public void advance(Duration by) {
    advance(by.toMillis());
  }

  /**
   * Moves the clock by {@code ms}, running due timers at their due times.
   *
   * @param ms milliseconds
   */
  public void advance(long ms) {
    long target;
    synchronized (this) {
      target = nowMs + ms;
    }
    while (true) {
      Optional<Entry> next;
      synchronized (this) {
        next = entries.stream().filter(e -> e.due <= target)
            .min(Comparator.<Entry>comparingLong(e -> e.due).thenComparingLong(e -> e.seq));
        next.ifPresent(e -> {
          entries.remove(e);
          nowMs = Math.max(nowMs, e.due);
        });
      }
      if (next.isEmpty()) {
        break;
      }
      next.get().task.run();
    }
    synchronized (this) {
      nowMs = Math.max(nowMs, target);
    }
  }
}

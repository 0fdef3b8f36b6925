package dev.horae.gate.runtime;

import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Timers on a {@link LogHost}'s settable clock: {@link #advance} moves the clock and runs every
 * timer that falls due, in due order, on the calling thread — so a test drives renewals, polls and
 * reconciliation without waiting on wall time.
 */
final class ManualTimers implements Timers {

  private final LogHost host;
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

  ManualTimers(LogHost host) {
    this.host = host;
  }

  @Override
  public synchronized Cancellable schedule(Duration delay, Runnable task) {
    Entry e = new Entry(host.clock().millis() + Math.max(0, delay.toMillis()), order++, task);
    entries.add(e);
    return e;
  }

  /** How many timers are armed. */
  synchronized int armed() {
    return entries.size();
  }

  /** Moves the clock by {@code ms}, running due timers at their due times. */
  void advance(long ms) {
    long target = host.clock().millis() + ms;
    while (true) {
      Optional<Entry> next;
      synchronized (this) {
        next = entries.stream().filter(e -> e.due <= target)
            .min(Comparator.<Entry>comparingLong(e -> e.due).thenComparingLong(e -> e.seq));
        next.ifPresent(entries::remove);
      }
      if (next.isEmpty()) {
        break;
      }
      long now = host.clock().millis();
      if (next.get().due > now) {
        host.advance(Duration.ofMillis(next.get().due - now));
      }
      next.get().task.run();
    }
    long now = host.clock().millis();
    if (target > now) {
      host.advance(Duration.ofMillis(target - now));
    }
  }
}

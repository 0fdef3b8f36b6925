package dev.horae.store;

import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A wall clock the test moves by hand, shared by every simulated node, and per-node timers on it
 * ({@link #timers()}) that run only when the test says that node is awake ({@link
 * NodeTimers#runDue}): a paused node is one whose timers the test does not run. (The testkit's
 * {@code ManualTime} cannot be used here: the testkit depends on this module.)
 */
final class ManualClock implements InstantSource {

  private Instant now;

  ManualClock(Instant start) {
    this.now = start;
  }

  @Override
  public synchronized Instant instant() {
    return now;
  }

  synchronized void advance(Duration by) {
    now = now.plus(by);
  }

  NodeTimers timers() {
    return new NodeTimers(this);
  }

  /** One node's timers: due on the shared clock, run by {@link #runDue} on the test's thread. */
  static final class NodeTimers implements Timers {
    private final ManualClock clock;
    private final List<Timer> pending = new ArrayList<>();
    private long scheduled;

    NodeTimers(ManualClock clock) {
      this.clock = clock;
    }

    @Override
    public synchronized Cancellable schedule(Duration delay, Runnable task) {
      Timer t = new Timer(clock.instant().plus(delay.isNegative() ? Duration.ZERO : delay), scheduled++, task);
      pending.add(t);
      return () -> {
        synchronized (this) {
          pending.remove(t);
        }
      };
    }

    /** Runs every timer due at the clock's reading, in due order, including those they schedule. */
    void runDue() {
      while (true) {
        @Nullable Timer next;
        synchronized (this) {
          next = pending.stream()
              .filter(t -> !t.due.isAfter(clock.instant()))
              .min(Comparator.comparing((Timer t) -> t.due).thenComparingLong(t -> t.order))
              .orElse(null);
          if (next == null) {
            return;
          }
          pending.remove(next);
        }
        next.task.run();
      }
    }

    /** When the pending timers are due, in due order. */
    synchronized List<Instant> dues() {
      return pending.stream().map(t -> t.due).sorted().toList();
    }
  }

  private record Timer(Instant due, long order, Runnable task) {}
}

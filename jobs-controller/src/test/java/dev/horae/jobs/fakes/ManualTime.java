package dev.horae.jobs.fakes;

import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** A manual wall clock and monotonic timers; {@link #advance} runs due timers in due order. */
public final class ManualTime implements InstantSource, Timers {

  private record Timer(long due, long seq, Runnable task, AtomicBoolean cancelled) {}

  private long wallMs;
  private long monoMs;
  private long seq;
  private final List<Timer> timers = new ArrayList<>();

  /**
   * Creates a clock at {@code wallMs}.
   *
   * @param wallMs epoch milliseconds
   */
  public ManualTime(long wallMs) {
    this.wallMs = wallMs;
  }

  @Override
  public synchronized Instant instant() {
    return Instant.ofEpochMilli(wallMs);
  }

  @Override
  public synchronized Cancellable schedule(Duration delay, Runnable task) {
    AtomicBoolean cancelled = new AtomicBoolean();
    timers.add(new Timer(monoMs + Math.max(0, delay.toMillis()), seq++, task, cancelled));
    return () -> cancelled.set(true);
  }

  /**
   * Sets the wall clock alone, as an NTP correction would; the monotonic clock does not move.
   *
   * @param ms epoch milliseconds, possibly earlier than now
   */
  public synchronized void setWall(long ms) {
    wallMs = ms;
  }

  /**
   * Number of timers neither run nor cancelled.
   *
   * @return the count
   */
  public synchronized long pendingTimers() {
    return timers.stream().filter(t -> !t.cancelled().get()).count();
  }

  /**
   * Moves both clocks and runs every timer that became due.
   *
   * @param ms milliseconds
   */
  public void advance(long ms) {
    long target;
    synchronized (this) {
      target = monoMs + ms;
      wallMs += ms;
    }
    while (true) {
      Timer next;
      synchronized (this) {
        next =
            timers.stream()
                .filter(t -> t.due() <= target)
                .min(Comparator.comparingLong(Timer::due).thenComparingLong(Timer::seq))
                .orElse(null);
        if (next == null) {
          monoMs = target;
          return;
        }
        timers.remove(next);
        monoMs = Math.max(monoMs, next.due());
        if (next.cancelled().get()) {
          continue;
        }
      }
      next.task().run();
    }
  }
}

package dev.horae.spi.time;

import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Production time: the system wall clock and monotonic timers on one daemon thread. This is the
 * only class of the library that reads the system clock; everything else receives an
 * {@link InstantSource} and a {@link Timers}.
 */
public final class SystemTime implements Timers, AutoCloseable {

  private final ScheduledThreadPoolExecutor executor;

  /** Starts the timer thread. */
  public SystemTime() {
    executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "horae-timers");
      t.setDaemon(true);
      return t;
    });
    // cancelled reminders must not pin memory until their (possibly years-away) deadline
    executor.setRemoveOnCancelPolicy(true);
  }

  /**
   * The system wall clock.
   *
   * @return the UTC system clock
   */
  public static InstantSource wallClock() {
    return Clock.systemUTC();
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    // ScheduledThreadPoolExecutor measures delays with System.nanoTime, a monotonic clock
    long nanos = delay.isNegative() ? 0 : saturatedNanos(delay);
    ScheduledFuture<?> f = executor.schedule(task, nanos, TimeUnit.NANOSECONDS);
    return () -> f.cancel(false);
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE / 2;
    }
  }

  /** Stops the timer thread; pending timers never run. */
  @Override
  public void close() {
    executor.shutdownNow();
  }
}

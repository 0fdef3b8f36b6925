package dev.horae.spi.time;

import java.time.Duration;

/**
 * Schedules callbacks after a delay measured on a monotonic clock (host contract §12.2). A
 * wall-clock jump makes no timer fire earlier or later. Delays of any length up to many years are
 * accepted; a zero or negative delay means "as soon as possible".
 */
@FunctionalInterface
public interface Timers {

  /**
   * Schedules {@code task} to run once after {@code delay}.
   *
   * @param delay monotonic delay
   * @param task short, non-blocking callback
   * @return a handle that cancels the timer
   */
  Cancellable schedule(Duration delay, Runnable task);
}

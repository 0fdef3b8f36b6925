package dev.horae.springai;

import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import dev.horae.testkit.time.ManualTime;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The manual clock's timers, telling the test each delay they are armed with: a test waits until
 * the timer it means to fire is armed, then advances the clock once, instead of advancing in steps
 * while it polls for the effect.
 */
final class ArmedTimers implements Timers {

  private final ManualTime time;
  private final BlockingQueue<Duration> armed = new LinkedBlockingQueue<>();

  ArmedTimers(ManualTime time) {
    this.time = time;
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    Cancellable c = time.schedule(delay, task);
    armed.add(delay);
    return c;
  }

  /**
   * Waits until a timer with exactly this delay is armed; armings with other delays are passed
   * over. Each wait for the next arming is bounded.
   *
   * @param delay the delay
   * @throws InterruptedException when interrupted
   * @throws AssertionError when no further timer is armed within 20 seconds
   */
  void awaitArmed(Duration delay) throws InterruptedException {
    for (int seen = 0; seen < 10_000; seen++) {
      Duration d = armed.poll(20, TimeUnit.SECONDS);
      if (d == null) {
        throw new AssertionError("no timer of " + delay + " was armed (none at all within 20 s)");
      }
      if (d.equals(delay)) {
        return;
      }
    }
    throw new AssertionError("no timer of " + delay + " among 10000 armed");
  }
}

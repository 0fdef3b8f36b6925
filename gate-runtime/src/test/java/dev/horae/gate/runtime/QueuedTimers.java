package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Timers whose tasks a test takes and runs itself; nothing fires on its own, so a dispatcher's
 * poll, renewal and reconcile timers, or a wake signal's reconnect backoff, run only when the test
 * says (and a suite that never runs them sees none).
 */
final class QueuedTimers implements Timers {
  /** One scheduled task. */
  static final class Scheduled implements Cancellable {
    final Duration delay;
    final Runnable task;
    final AtomicBoolean cancelled = new AtomicBoolean();

    Scheduled(Duration delay, Runnable task) {
      this.delay = delay;
      this.task = task;
    }

    @Override
    public void cancel() {
      cancelled.set(true);
    }
  }

  final BlockingQueue<Scheduled> scheduled = new LinkedBlockingQueue<>();

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    Scheduled s = new Scheduled(delay, task);
    scheduled.add(s);
    return s;
  }

  Scheduled take() throws InterruptedException {
    Scheduled s = scheduled.poll(30, TimeUnit.SECONDS);
    assertThat(s).as("a timer was scheduled").isNotNull();
    return s;
  }
}

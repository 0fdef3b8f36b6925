package dev.horae.testkit.time;

import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A manual time source with two separately controllable readings (host contract §12.5): a wall
 * clock ({@link #instant()}) and a monotonic clock ({@link #monotonicNanos()}) on which timers are
 * scheduled.
 *
 * <ul>
 *   <li>{@link #advance} moves both clocks together and runs every timer that became due, in due
 *       order (ties in scheduling order). Each task runs at its own due point: while it runs, both
 *       readings equal the due point, exactly as if time had stopped there. A task that schedules a
 *       timer due within the advanced window sees it run within the same advance.
 *   <li>{@link #setWall} moves only the wall clock, forwards or backwards; no timer runs.
 *   <li>{@link #runDueTimers} runs the timers already due at the current monotonic reading, such as
 *       those scheduled with a zero or negative delay.
 * </ul>
 *
 * <p>Thread-safe. Timer tasks run outside the internal lock, on the thread that advances time, so a
 * task may schedule, cancel, read the clocks or set the wall clock. A task never runs inside
 * {@link #schedule}.
 */
public final class ManualTime implements InstantSource, Timers {

  private static final Comparator<Timer> DUE_ORDER =
      Comparator.comparingLong((Timer t) -> t.due).thenComparingLong(t -> t.order);

  private final Object lock = new Object();
  /**
   * Serializes whole advances, so two threads advancing at once move time by the sum of their
   * amounts; reentrant because a task may itself advance time.
   */
  private final ReentrantLock advancing = new ReentrantLock();
  private final PriorityQueue<Timer> queue = new PriorityQueue<>(DUE_ORDER);
  private Instant wall;
  private long mono;
  private long scheduled;

  /**
   * Creates a manual time source whose wall clock reads {@code start} and whose monotonic clock
   * reads zero.
   *
   * @param start the initial wall-clock reading
   */
  public ManualTime(Instant start) {
    this.wall = start;
  }

  /**
   * The current wall-clock reading.
   *
   * @return the wall-clock instant
   */
  @Override
  public Instant instant() {
    synchronized (lock) {
      return wall;
    }
  }

  /**
   * The current monotonic reading in nanoseconds since this source was created. Only
   * {@link #advance} moves it.
   *
   * @return the monotonic reading
   */
  public long monotonicNanos() {
    synchronized (lock) {
      return mono;
    }
  }

  /**
   * Schedules {@code task} after {@code delay} on the monotonic clock. A zero or negative delay
   * means due now: the task runs on the next {@link #advance} or {@link #runDueTimers}, never
   * inside this call. A delay beyond the monotonic range saturates (the timer is due at the end of
   * time) instead of overflowing.
   *
   * @param delay monotonic delay
   * @param task the callback
   * @return a handle whose idempotent {@code cancel()} keeps the task from ever running
   */
  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    synchronized (lock) {
      Timer timer = new Timer(saturatedAdd(mono, nonNegativeNanos(delay)), scheduled++, task);
      queue.add(timer);
      return () -> cancel(timer);
    }
  }

  /**
   * Moves the wall and monotonic clocks forward together by {@code amount}, running every timer
   * that becomes due on the way, each at its own due point.
   *
   * <p>If timer tasks throw, the advance still completes and every due task still runs; the first
   * failure is then rethrown with the later ones attached as suppressed exceptions, so a broken
   * task cannot pass unnoticed in a test.
   *
   * @param amount how far to move; zero runs the timers already due
   * @throws IllegalArgumentException when {@code amount} is negative
   * @throws RuntimeException the first failure of a timer task
   */
  public void advance(Duration amount) {
    if (amount.isNegative()) {
      throw new IllegalArgumentException("cannot advance time by a negative amount: " + amount);
    }
    List<RuntimeException> failures = new ArrayList<>();
    advancing.lock();
    try {
      Duration remaining = amount;
      long target;
      synchronized (lock) {
        target = saturatedAdd(mono, nonNegativeNanos(amount));
      }
      while (true) {
        Timer next;
        synchronized (lock) {
          Timer head = queue.peek();
          if (head == null || head.due > target) {
            // no more due timers in this window: move the rest of the way in one step
            wall = wall.plus(remaining);
            mono = Math.max(mono, target);
            break;
          }
          queue.poll();
          long step = Math.max(0, head.due - mono);
          wall = wall.plusNanos(step);
          remaining = remaining.minusNanos(step);
          mono = Math.max(mono, head.due);
          head.ran = true;
          next = head;
        }
        runContained(next, failures);
      }
    } finally {
      advancing.unlock();
    }
    rethrow(failures);
  }

  /**
   * Runs the timers due at the current monotonic reading (including ones those tasks schedule with
   * a zero delay), without moving either clock.
   *
   * @throws RuntimeException the first failure of a timer task, after every due task ran
   */
  public void runDueTimers() {
    advance(Duration.ZERO);
  }

  /**
   * Sets the wall clock alone, forwards or backwards. The monotonic clock does not move and no timer
   * runs.
   *
   * @param newWall the new wall-clock reading
   */
  public void setWall(Instant newWall) {
    synchronized (lock) {
      wall = newWall;
    }
  }

  /**
   * The number of timers scheduled, not cancelled and not yet run.
   *
   * @return the pending timer count
   */
  public int pendingTimers() {
    synchronized (lock) {
      return queue.size();
    }
  }

  /**
   * How long until the earliest pending timer is due on the monotonic clock.
   *
   * @return the remaining delay (zero when a timer is already due), or empty when no timer is
   *     pending
   */
  public Optional<Duration> nextTimerIn() {
    synchronized (lock) {
      Timer head = queue.peek();
      return head == null ? Optional.empty() : Optional.of(Duration.ofNanos(Math.max(0, head.due - mono)));
    }
  }

  private void cancel(Timer timer) {
    synchronized (lock) {
      if (!timer.ran) {
        queue.remove(timer);
      }
    }
  }

  private static void runContained(Timer timer, List<RuntimeException> failures) {
    try {
      timer.task.run();
    } catch (RuntimeException e) {
      failures.add(e);
    }
  }

  private static void rethrow(List<RuntimeException> failures) {
    if (failures.isEmpty()) {
      return;
    }
    RuntimeException first = failures.get(0);
    for (int i = 1; i < failures.size(); i++) {
      first.addSuppressed(failures.get(i));
    }
    throw first;
  }

  private static long nonNegativeNanos(Duration d) {
    if (d.isNegative()) {
      return 0;
    }
    try {
      return d.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    // both operands are non-negative, so overflow shows as a negative sum
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  /** One scheduled task; ordered by due point, then by scheduling order. */
  private static final class Timer {
    final long due;
    final long order;
    final Runnable task;
    boolean ran;

    Timer(long due, long order, Runnable task) {
      this.due = due;
      this.order = order;
      this.task = task;
    }
  }
}

package dev.horae.benchmarks;

import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.SystemTime;
import dev.horae.spi.time.Timers;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Timers at scale on the production timer service {@link SystemTime}: {@code timers} reminders
 * scheduled at once, then all cancelled (a session deleting its reminders, or an owner closing) or
 * all fired. The testkit's manual clock is test infrastructure and is not measured here.
 *
 * <p>Each operation handles all {@code timers} timers; divide by {@code timers} for the cost of one.
 */
@SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class TimersBenchmark {

  /** Number of timers per operation. */
  @Param({"100000"})
  public int timers;

  private Duration[] delays;
  private int[] shuffled;
  private SystemTime system;

  /** Spreads the delays over an hour onwards and fixes one random cancel order. */
  @Setup(Level.Trial)
  public void prepare() {
    delays = new Duration[timers];
    shuffled = new int[timers];
    for (int i = 0; i < timers; i++) {
      // distinct, increasing deadlines, none due while the benchmark runs
      delays[i] = Duration.ofHours(1).plusMillis(i);
      shuffled[i] = i;
    }
    Random random = new Random(42);
    for (int i = timers - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = shuffled[i];
      shuffled[i] = shuffled[j];
      shuffled[j] = t;
    }
    system = new SystemTime();
  }

  /** Stops the system timer thread. */
  @TearDown(Level.Trial)
  public void stop() {
    system.close();
  }

  /**
   * Schedules {@code timers} timers an hour or more ahead on {@link SystemTime}, then cancels them
   * in random order (a cancelled timer is removed from the queue at once).
   *
   * @return the number of timers handled
   */
  @Benchmark
  public int systemTimeScheduleCancel() {
    return scheduleThenCancel(system, shuffled);
  }

  /**
   * Schedules {@code timers} due-now timers on {@link SystemTime} and waits until its timer thread
   * has run them all.
   *
   * @return the number of timers run
   * @throws InterruptedException when interrupted while waiting
   */
  @Benchmark
  public long systemTimeScheduleFire() throws InterruptedException {
    CountDownLatch ran = new CountDownLatch(timers);
    for (int i = 0; i < timers; i++) {
      var unused = system.schedule(Duration.ZERO, ran::countDown);
    }
    ran.await();
    return ran.getCount() + timers;
  }

  private static void nothing() {
    // the timers under test are cancelled before they are due
  }

  private int scheduleThenCancel(Timers service, int[] order) {
    Cancellable[] handles = new Cancellable[timers];
    for (int i = 0; i < timers; i++) {
      handles[i] = service.schedule(delays[i], TimersBenchmark::nothing);
    }
    for (int i : order) {
      handles[i].cancel();
    }
    return handles.length;
  }
}

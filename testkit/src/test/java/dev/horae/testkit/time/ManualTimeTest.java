package dev.horae.testkit.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.time.Cancellable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ManualTimeTest {

  private static final Instant START = Instant.parse("2026-03-01T12:00:00Z");
  private final ManualTime time = new ManualTime(START);
  private final List<String> fired = new ArrayList<>();

  @Test
  void startsAtTheGivenWallTimeAndZeroMonotonic() {
    assertThat(time.instant()).isEqualTo(START);
    assertThat(time.millis()).isEqualTo(START.toEpochMilli());
    assertThat(time.monotonicNanos()).isZero();
    assertThat(time.pendingTimers()).isZero();
    assertThat(time.nextTimerIn()).isEmpty();
  }

  @Test
  void aWallJumpAloneFiresNothing() {
    time.schedule(Duration.ofMinutes(5), () -> fired.add("t"));

    time.setWall(START.plus(Duration.ofDays(3)));
    time.setWall(START.minus(Duration.ofDays(3)));

    assertThat(fired).isEmpty();
    assertThat(time.instant()).isEqualTo(START.minus(Duration.ofDays(3)));
    assertThat(time.monotonicNanos()).isZero();
    assertThat(time.pendingTimers()).isEqualTo(1);
  }

  @Test
  void timersFireOnlyWhenMonotonicTimeReachesThem() {
    time.schedule(Duration.ofMinutes(5), () -> fired.add("t"));

    time.advance(Duration.ofMinutes(5).minusNanos(1));
    assertThat(fired).isEmpty();

    time.advance(Duration.ofNanos(1));
    assertThat(fired).containsExactly("t");
    assertThat(time.pendingTimers()).isZero();
  }

  @Test
  void advanceMovesWallAndMonotonicTogetherEvenAfterAWallJump() {
    time.setWall(START.minusSeconds(3600));
    time.advance(Duration.ofSeconds(10));

    assertThat(time.instant()).isEqualTo(START.minusSeconds(3590));
    assertThat(time.monotonicNanos()).isEqualTo(Duration.ofSeconds(10).toNanos());
  }

  @Test
  void dueTimersRunInDueOrderAndTiesInSchedulingOrder() {
    time.schedule(Duration.ofSeconds(30), () -> fired.add("c"));
    time.schedule(Duration.ofSeconds(10), () -> fired.add("a1"));
    time.schedule(Duration.ofSeconds(20), () -> fired.add("b"));
    time.schedule(Duration.ofSeconds(10), () -> fired.add("a2"));

    time.advance(Duration.ofMinutes(1));

    assertThat(fired).containsExactly("a1", "a2", "b", "c");
  }

  @Test
  void eachTaskSeesBothClocksAtItsOwnDuePoint() {
    List<Instant> walls = new ArrayList<>();
    List<Long> monos = new ArrayList<>();
    Runnable record = () -> {
      walls.add(time.instant());
      monos.add(time.monotonicNanos());
    };
    time.schedule(Duration.ofSeconds(10), record);
    time.schedule(Duration.ofSeconds(25), record);

    time.advance(Duration.ofMinutes(1));

    assertThat(walls).containsExactly(START.plusSeconds(10), START.plusSeconds(25));
    assertThat(monos).containsExactly(Duration.ofSeconds(10).toNanos(), Duration.ofSeconds(25).toNanos());
    assertThat(time.instant()).isEqualTo(START.plusSeconds(60));
  }

  @Test
  void aTaskThatSchedulesWithinTheWindowSeesItRunInTheSameAdvance() {
    time.schedule(Duration.ofSeconds(10), () -> {
      fired.add("first");
      time.schedule(Duration.ofSeconds(5), () -> fired.add("inside window"));
      time.schedule(Duration.ofSeconds(100), () -> fired.add("beyond window"));
    });

    time.advance(Duration.ofSeconds(20));

    assertThat(fired).containsExactly("first", "inside window");
    assertThat(time.pendingTimers()).isEqualTo(1);
    assertThat(time.nextTimerIn()).contains(Duration.ofSeconds(90));
  }

  @Test
  void zeroAndNegativeDelaysAreDueNowButNeverRunInsideSchedule() {
    time.schedule(Duration.ZERO, () -> fired.add("zero"));
    time.schedule(Duration.ofSeconds(-5), () -> fired.add("negative"));
    assertThat(fired).isEmpty();
    assertThat(time.nextTimerIn()).contains(Duration.ZERO);

    time.runDueTimers();

    assertThat(fired).containsExactly("zero", "negative");
    assertThat(time.monotonicNanos()).isZero();
    assertThat(time.instant()).isEqualTo(START);
  }

  @Test
  void runDueTimersRunsTimersThatDueTasksScheduleWithZeroDelay() {
    time.schedule(Duration.ZERO, () -> time.schedule(Duration.ZERO, () -> fired.add("second")));
    time.schedule(Duration.ofSeconds(1), () -> fired.add("later"));

    time.runDueTimers();

    assertThat(fired).containsExactly("second");
  }

  @Test
  void advancingByZeroRunsTheTimersAlreadyDue() {
    time.schedule(Duration.ZERO, () -> fired.add("now"));
    time.advance(Duration.ZERO);
    assertThat(fired).containsExactly("now");
  }

  @Test
  void aCancelledTimerNeverRunsAndCancelIsIdempotent() {
    Cancellable a = time.schedule(Duration.ofSeconds(1), () -> fired.add("a"));
    time.schedule(Duration.ofSeconds(2), () -> fired.add("b"));
    assertThat(time.pendingTimers()).isEqualTo(2);

    a.cancel();
    a.cancel();
    assertThat(time.pendingTimers()).isEqualTo(1);

    time.advance(Duration.ofSeconds(5));
    assertThat(fired).containsExactly("b");
    a.cancel();
    assertThat(time.pendingTimers()).isZero();
  }

  @Test
  void cancellingAfterTheTaskRanChangesNothing() {
    Cancellable a = time.schedule(Duration.ofSeconds(1), () -> fired.add("a"));
    time.advance(Duration.ofSeconds(1));
    a.cancel();
    assertThat(fired).containsExactly("a");
    assertThat(time.pendingTimers()).isZero();
  }

  @Test
  void aTaskCanCancelALaterTimerOfTheSameAdvance() {
    Cancellable[] later = new Cancellable[1];
    time.schedule(Duration.ofSeconds(1), () -> later[0].cancel());
    later[0] = time.schedule(Duration.ofSeconds(2), () -> fired.add("later"));

    time.advance(Duration.ofSeconds(3));

    assertThat(fired).isEmpty();
  }

  @Test
  void delaysOfManyYearsAreAcceptedAndFireOnTime() {
    Duration hundredYears = Duration.ofDays(36_525);
    time.schedule(hundredYears, () -> fired.add("century"));

    time.advance(hundredYears.minusSeconds(1));
    assertThat(fired).isEmpty();
    time.advance(Duration.ofSeconds(1));
    assertThat(fired).containsExactly("century");
    assertThat(time.instant()).isEqualTo(START.plus(hundredYears));
  }

  @Test
  void delaysBeyondTheMonotonicRangeSaturateInsteadOfOverflowing() {
    time.advance(Duration.ofDays(1));
    time.schedule(Duration.ofDays(365L * 10_000), () -> fired.add("far"));
    time.schedule(Duration.ofSeconds(Long.MAX_VALUE), () -> fired.add("farther"));

    time.advance(Duration.ofDays(365L * 200));

    assertThat(fired).isEmpty();
    assertThat(time.pendingTimers()).isEqualTo(2);
    assertThat(time.nextTimerIn()).hasValueSatisfying(d -> assertThat(d).isPositive());
  }

  @Test
  void negativeAdvanceIsRejected() {
    assertThatThrownBy(() -> time.advance(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void failingTasksDoNotStopTheAdvanceAndTheFirstFailureIsRethrown() {
    IllegalStateException first = new IllegalStateException("first");
    IllegalStateException second = new IllegalStateException("second");
    time.schedule(Duration.ofSeconds(1), () -> {
      throw first;
    });
    time.schedule(Duration.ofSeconds(2), () -> fired.add("ran"));
    time.schedule(Duration.ofSeconds(3), () -> {
      throw second;
    });

    assertThatThrownBy(() -> time.advance(Duration.ofSeconds(10)))
        .isSameAs(first)
        .satisfies(e -> assertThat(e.getSuppressed()).containsExactly(second));
    assertThat(fired).containsExactly("ran");
    assertThat(time.instant()).isEqualTo(START.plusSeconds(10));
  }

  @Test
  void schedulingFromManyThreadsIsSafe() throws InterruptedException {
    int threads = 8;
    int perThread = 200;
    AtomicInteger runs = new AtomicInteger();
    List<Integer> order = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch done = new CountDownLatch(threads);
    try {
      for (int t = 0; t < threads; t++) {
        pool.execute(() -> {
          for (int i = 0; i < perThread; i++) {
            int ms = i;
            time.schedule(Duration.ofMillis(ms), () -> {
              runs.incrementAndGet();
              order.add(ms);
            });
          }
          done.countDown();
        });
      }
      assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      pool.shutdownNow();
    }
    assertThat(time.pendingTimers()).isEqualTo(threads * perThread);

    time.advance(Duration.ofSeconds(1));

    assertThat(runs.get()).isEqualTo(threads * perThread);
    assertThat(order).isSorted();
  }

  @Test
  void concurrentAdvancesAddUp() throws InterruptedException {
    int threads = 4;
    AtomicInteger runs = new AtomicInteger();
    for (int i = 1; i <= 40; i++) {
      time.schedule(Duration.ofSeconds(i), runs::incrementAndGet);
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(threads);
    try {
      for (int t = 0; t < threads; t++) {
        pool.execute(() -> {
          try {
            start.await();
            time.advance(Duration.ofSeconds(10));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            done.countDown();
          }
        });
      }
      start.countDown();
      assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      pool.shutdownNow();
    }
    assertThat(time.monotonicNanos()).isEqualTo(Duration.ofSeconds(40).toNanos());
    assertThat(time.instant()).isEqualTo(START.plusSeconds(40));
    assertThat(runs.get()).isEqualTo(40);
  }
}

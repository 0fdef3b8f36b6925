package dev.horae.spi.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class SystemTimeTest {

  @Test
  void runsDueTimersOnItsOwnThreadAndNeverRunsCancelledOnes() throws InterruptedException {
    try (SystemTime time = new SystemTime()) {
      CountDownLatch ran = new CountDownLatch(1);
      AtomicBoolean cancelledRan = new AtomicBoolean();
      Cancellable far = time.schedule(Duration.ofDays(365 * 200), () -> cancelledRan.set(true));
      far.cancel();
      far.cancel();
      time.schedule(Duration.ofMillis(-5), ran::countDown);

      assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(cancelledRan).isFalse();
    }
  }

  @Test
  void wallClockAndIdsAreUsable() {
    assertThat(SystemTime.wallClock().instant()).isAfter(Instant.parse("2020-01-01T00:00:00Z"));
    assertThat(IdSource.random().next()).isNotEqualTo(IdSource.random().next());
  }
}

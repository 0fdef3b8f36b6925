package dev.horae.testkit.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CapturingWarningsTest {

  private final CapturingWarnings warnings = new CapturingWarnings();

  @Test
  void capturesMessagesAndCausesInOrder() {
    IllegalStateException cause = new IllegalStateException("x");
    warnings.warn("first", Optional.empty());
    warnings.warn("second", Optional.of(cause));

    assertThat(warnings.messages()).containsExactly("first", "second");
    assertThat(warnings.causes()).containsExactly(cause);
    assertThat(warnings.warnings()).containsExactly(
        new CapturingWarnings.Warning("first", Optional.empty()),
        new CapturingWarnings.Warning("second", Optional.of(cause)));
    assertThat(warnings.size()).isEqualTo(2);
  }

  @Test
  void clearForgetsEverythingAndSnapshotsStayIntact() {
    warnings.warn("kept in snapshot", Optional.empty());
    var snapshot = warnings.messages();

    warnings.clear();

    assertThat(warnings.size()).isZero();
    assertThat(warnings.messages()).isEmpty();
    assertThat(snapshot).containsExactly("kept in snapshot");
  }

  @Test
  void warningsFromManyThreadsAreAllCaptured() throws InterruptedException {
    int threads = 8;
    int perThread = 500;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch done = new CountDownLatch(threads);
    try {
      for (int t = 0; t < threads; t++) {
        pool.execute(() -> {
          for (int i = 0; i < perThread; i++) {
            warnings.warn("w", Optional.empty());
          }
          done.countDown();
        });
      }
      assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      pool.shutdownNow();
    }
    assertThat(warnings.size()).isEqualTo(threads * perThread);
  }
}

package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.AbortSignal;
import dev.horae.spi.tool.ToolResult;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.testkit.session.HeldFlush;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Spec §6.2 steps 9 and 14: the record is built from the first wall-clock sample, the returned
 * view from a second one taken after the barrier. A clock that moves while the barrier is slow
 * must show in the view.
 */
// a separate thread, so a join that never completes fails the test instead of hanging the run
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CreateViewClockTest {

  @Test
  void theViewUsesASecondSampleTakenAfterTheBarrier() {
    Fixture f = new Fixture();
    TestAgent a = f.agent();
    // the preflight completes; the barrier (the second flush) is held
    HeldFlush barrier = f.host.store().script().thenComplete().thenHold();
    CompletableFuture<ToolResult> created =
        f.callAsync(a, "schedule_create", "{\"prompt\":\"x\",\"after_seconds\":30}", AbortSignal.never())
            .toCompletableFuture();
    assertThat(barrier.reached()).isTrue();
    assertThat(created).isNotDone();
    // the wall clock passes the due time while the barrier is slow; no timer is fired
    f.host.time().setWall(Fixture.START.plus(Duration.ofSeconds(31)));
    barrier.release();

    ToolResult result = created.join();
    assertThat(result.isError()).isFalse();
    // scheduledAt comes from the first sample, the state from the second
    assertThat(result.text())
        .isEqualTo(
            "{\"id\":\"schedule-1\",\"kind\":\"after\",\"prompt\":\"x\",\"afterSeconds\":30,"
                + "\"scheduledAt\":\"2026-08-05T12:00:30.000Z\",\"state\":\"overdue\","
                + "\"deliveryMode\":\"session-local\"}");
  }
}

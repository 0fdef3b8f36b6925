package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.AbortSignal;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolResult;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.testkit.session.HeldFlush;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The owner's flush rule for consecutive due reminders (docs/schedule.md, "Bursts"): a drive
 * started by the previous drive's own step-9 request (spec §12.3) takes that drive's confirmed
 * dispatch barrier as its preflight when nothing was appended or requested since; otherwise it
 * flushes as step 2 says.
 */
class BarrierAsPreflightTest {

  private Fixture f;
  private TestAgent a;

  @BeforeEach
  void setUp() {
    f = new Fixture();
    a = f.agent();
    f.create(a, "{\"prompt\":\"one\",\"after_seconds\":10}");
    f.create(a, "{\"prompt\":\"two\",\"after_seconds\":10}");
    f.create(a, "{\"prompt\":\"three\",\"after_seconds\":10}");
  }

  @Test
  void threeRemindersDueAtOnceCostOnePreflightAndThreeBarriers() {
    long before = f.owner(a).flushes();
    int storeFlushes = f.flushes(a);

    f.host.advance(Duration.ofSeconds(10));

    assertThat(dispatched()).containsExactly("schedule-1", "schedule-2", "schedule-3");
    // the timer's drive flushes; each barrier then serves the next drive, the last one included
    assertThat(f.owner(a).flushes() - before).isEqualTo(4);
    assertThat(f.flushes(a) - storeFlushes).isEqualTo(4);
    assertThat(f.owner(a).faulted()).isFalse();
  }

  @Test
  void anEventAppendedAfterTheBarrierMakesTheNextDriveFlushFirst() {
    long before = f.owner(a).flushes();
    // the preflight completes; the first dispatch barrier is held
    HeldFlush barrier = f.host.store().script().thenComplete().thenHold();
    f.host.advance(Duration.ofSeconds(10));
    assertThat(barrier.reached()).isTrue();
    // appended after the barrier's flush began: the barrier does not cover it
    a.session().append("test/marker", Json.parse("{}"));
    barrier.release();
    f.host.settle();

    assertThat(dispatched()).containsExactly("schedule-1", "schedule-2", "schedule-3");
    // the second drive flushes the grown log before deciding; the rest carry
    assertThat(f.owner(a).flushes() - before).isEqualTo(5);
    assertThat(f.host.store().load(a.id()).orElseThrow().events())
        .anyMatch(e -> e.type().equals("test/marker"));
  }

  @Test
  void aRequestFromAToolBetweenTheDrivesMakesTheNextDriveFlush() {
    long before = f.owner(a).flushes();
    HeldFlush barrier = f.host.store().script().thenComplete().thenHold();
    f.host.advance(Duration.ofSeconds(10));
    assertThat(barrier.reached()).isTrue();
    // queued behind the drive: its preflight asks the owner again (spec §12.2) and appends nothing
    CompletableFuture<ToolResult> list =
        f.callAsync(a, "schedule_list", "{}", AbortSignal.never()).toCompletableFuture();
    barrier.release();
    f.host.settle();

    assertThat(list.join().isError()).isFalse();
    assertThat(dispatched()).containsExactly("schedule-1", "schedule-2", "schedule-3");
    // the second drive was asked for by the tool too, so it flushes although the log did not grow
    assertThat(f.owner(a).flushes() - before).isEqualTo(5);
  }

  private List<String> dispatched() {
    return Burst.dispatched(a.session().events());
  }
}

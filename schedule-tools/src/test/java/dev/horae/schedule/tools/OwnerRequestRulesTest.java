package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.AbortController;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolExecution;
import dev.horae.spi.tool.ToolResult;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.testkit.session.HeldFlush;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rules of the owner's requests and of the FIFO that the other owner tests leave implicit: a
 * request cancels the armed timer at once (spec §12.2), a drive queued behind a tool does nothing
 * once the owner stops (§12.3 step 1) and a drive whose preflight outlived the owner's stop takes
 * no claim (§12.3 step 2), a vetoed dispatch ends the drive without a barrier (§12.4 row 5), an
 * uncertain barrier is logged (§12.3 step 8), a finished idle wait asks for a recompute (§12.3
 * step 5), every successful preflight asks the owner (§9.3), a call aborted while queued is checked
 * when it reaches the head (§9.2), and disposal removes the tools (§11).
 */
class OwnerRequestRulesTest {

  private Fixture f;
  private TestAgent a;

  @BeforeEach
  void setUp() {
    f = new Fixture();
    a = f.agent();
  }

  private long dispatches() {
    return f.changes(a).stream().filter(e -> e.data().path("operation").asText().equals("dispatch")).count();
  }

  @Test
  void aRequestCancelsTheArmedTimerBeforeItsDriveRuns() {
    f.create(a, "{\"prompt\":\"later\",\"after_seconds\":600}");
    assertThat(f.owner(a).timerArmed()).isTrue();
    // the second create's barrier is held: its preflight has asked the owner, whose drive waits in the FIFO
    HeldFlush barrier = f.host.store().script().thenComplete().thenHold();
    CompletableFuture<ToolResult> second =
        f.callAsync(a, "schedule_create", "{\"prompt\":\"sooner\",\"after_seconds\":60}", AbortSignal.never())
            .toCompletableFuture();
    assertThat(barrier.reached()).isTrue();
    assertThat(f.owner(a).timerArmed()).isFalse();
    assertThat(f.host.time().pendingTimers()).isZero();
    barrier.release();
    assertThat(second.join().isError()).isFalse();
    f.host.settle();
    assertThat(f.host.time().nextTimerIn()).contains(Duration.ofSeconds(60));
  }

  @Test
  void aDriveQueuedBehindAToolDoesNothingOnceTheOwnerStops() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":600}");
    HeldFlush barrier = f.host.store().script().thenComplete().thenHold();
    CompletableFuture<ToolResult> second =
        f.callAsync(a, "schedule_create", "{\"prompt\":\"y\",\"after_seconds\":60}", AbortSignal.never())
            .toCompletableFuture();
    assertThat(barrier.reached()).isTrue();
    long ownerFlushes = f.owner(a).flushes();
    CompletableFuture<Void> closed = f.installation.close().toCompletableFuture();
    barrier.release();
    second.join();
    f.host.settle();
    closed.join();
    assertThat(f.owner(a).flushes()).isEqualTo(ownerFlushes);
    assertThat(f.host.time().pendingTimers()).isZero();
  }

  @Test
  void aStopDuringTheDuePreflightTakesNoClaim() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    HeldFlush preflight = f.host.store().script().thenHold();
    f.host.advance(Duration.ofSeconds(10));
    assertThat(preflight.reached()).isTrue();
    CompletableFuture<Void> closed = f.installation.close().toCompletableFuture();
    assertThat(closed).isNotDone();
    preflight.release();
    closed.join();
    assertThat(a.maintenanceCalls()).isZero();
    assertThat(a.followups()).isEmpty();
    assertThat(dispatches()).isZero();
  }

  @Test
  void aVetoedDispatchEndsTheDriveWithoutABarrierFlush() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    f.host.sessions().vetoNext(EventTypes.SCHEDULE_CHANGE, new IllegalStateException("veto"));
    long ownerFlushes = f.owner(a).flushes();
    f.host.advance(Duration.ofSeconds(10));
    assertThat(f.owner(a).faulted()).isTrue();
    // the preflight only: no dispatch barrier follows a dispatch that was never appended
    assertThat(f.owner(a).flushes() - ownerFlushes).isEqualTo(1);
    assertThat(f.host.warnings().messages()).anyMatch(m -> m.contains("schedule dispatch of schedule-1 could not be appended"));
  }

  @Test
  void anUncertainDispatchBarrierIsLogged() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    f.host.store().script().thenComplete().thenFail(new IOException("barrier"));
    f.host.advance(Duration.ofSeconds(10));
    assertThat(dispatches()).isEqualTo(1);
    assertThat(f.host.warnings().messages()).anyMatch(m -> m.contains("schedule dispatch barrier flush was not confirmed"));
  }

  @Test
  void aFinishedIdleWaitAsksForARecompute() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    a.setBusy();
    a.holdIdle();
    f.host.advance(Duration.ofSeconds(10));
    assertThat(f.owner(a).idleWaiting()).isTrue();
    // the idle status delivers the reminder; the held wait finishes afterwards
    a.setIdle();
    f.host.settle();
    assertThat(dispatches()).isEqualTo(1);
    long requests = f.owner(a).requests();
    a.releaseIdle();
    f.host.settle();
    assertThat(f.owner(a).idleWaiting()).isFalse();
    assertThat(f.owner(a).requests()).isEqualTo(requests + 1);
  }

  @Test
  void aDeleteOfAnUnknownIdStillAsksTheOwnerAfterItsPreflight() {
    long requests = f.owner(a).requests();
    assertThat(f.delete(a, "schedule-9")).contains("schedule_not_found");
    assertThat(f.owner(a).requests()).isEqualTo(requests + 1);
  }

  @Test
  void aCallAbortedWhileQueuedIsStoppedAtTheHeadWithoutAFlush() {
    long toolFlushes = f.toolFlushes(a);
    HeldFlush held = f.host.store().script().thenHold();
    ToolDefinition create = f.host.tools().find(a, "schedule_create").orElseThrow();
    ToolExecution first = new ToolExecution(a, "c1", AbortSignal.never());
    CompletableFuture<JsonNode> created =
        create.body().execute(Fixture.json("{\"prompt\":\"x\",\"after_seconds\":30}"), first).toCompletableFuture();
    assertThat(held.reached()).isTrue();
    AbortController c = Fixture.controller();
    CompletableFuture<JsonNode> queued = create.body()
        .execute(Fixture.json("{\"prompt\":\"y\",\"after_seconds\":30}"), new ToolExecution(a, "c2", c.signal()))
        .toCompletableFuture();
    c.abort();
    held.release();
    assertThat(created.join().path("id").asText()).isEqualTo("schedule-1");
    assertThat(queued.join().path("code").asText()).isEqualTo("internal_error");
    f.host.settle();
    assertThat(f.changes(a)).hasSize(1);
    // the first create's preflight and barrier; the aborted call flushed nothing
    assertThat(f.toolFlushes(a) - toolFlushes).isEqualTo(2);
  }

  @Test
  void aCreateForAnotherAgentIsAnInternalErrorThatCostsNothing() {
    TestAgent other = f.agent();
    ToolDefinition create = f.host.tools().find(a, "schedule_create").orElseThrow();
    int flushes = f.flushes(a);
    JsonNode value = create.body()
        .execute(Fixture.json("{\"prompt\":\"x\",\"after_seconds\":30}"), new ToolExecution(other, "c", AbortSignal.never()))
        .toCompletableFuture().join();
    assertThat(value.path("code").asText()).isEqualTo("internal_error");
    assertThat(f.flushes(a)).isEqualTo(flushes);
    assertThat(f.changes(a)).isEmpty();
    assertThat(f.changes(other)).isEmpty();
  }

  @Test
  void closingTheInstallationRemovesTheToolsOfEveryAdoptedAgent() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":60}");
    assertThat(f.host.tools().visibleTo(a)).isNotEmpty();
    f.installation.close().toCompletableFuture().join();
    assertThat(f.host.tools().visibleTo(a)).isEmpty();
  }
}

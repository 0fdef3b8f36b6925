package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.schedule.ReminderFraming;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.testkit.session.HeldFlush;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Spec §12: the live owner — dispatch order, clock cases, busy agents, failures, disposal. */
class OwnerTest {

  private Fixture f;
  private TestAgent a;

  @BeforeEach
  void setUp() {
    f = new Fixture();
    a = f.agent();
  }

  private List<String> dispatched() {
    List<String> ids = new ArrayList<>();
    for (SessionEvent e : f.changes(a)) {
      if (e.data().path("operation").asText().equals("dispatch")) {
        ids.add(e.data().path("id").asText());
      }
    }
    return ids;
  }

  @Test
  void dueReminderIsQueuedThenDispatchedInsideOneClaim() {
    f.create(a, "{\"prompt\":\"check logs\",\"after_seconds\":30}");
    f.host.advance(Duration.ofSeconds(29));
    assertThat(a.followups()).isEmpty();
    List<String> order = new ArrayList<>();
    f.host.sessions().onEvent((s, e) -> {
      if (s == a.session()) {
        order.add(e.type() + ":" + a.followups().size());
      }
    });
    int flushes = f.flushes(a);
    f.host.advance(Duration.ofSeconds(1));
    assertThat(a.followups()).hasSize(1);
    var message = a.followups().get(0);
    assertThat(message.text()).isEqualTo(ReminderFraming.text(new ScheduleRecord.After(
        "schedule-1", "check logs", 30, Instant.parse("2026-08-05T12:00:30Z").toEpochMilli())));
    assertThat(message.source().toJson().toString()).isEqualTo("{\"kind\":\"plugin\",\"plugin\":\"tool-schedule\"}");
    // the followup was queued before the dispatch append, inside the claim
    assertThat(order).containsExactly(EventTypes.SCHEDULE_CHANGE + ":1");
    assertThat(f.changeTexts(a)).last().isEqualTo("{\"version\":1,\"operation\":\"dispatch\",\"id\":\"schedule-1\"}");
    assertThat(a.maintenanceCalls()).isEqualTo(1);
    // preflight, dispatch barrier, and the follow-up recompute's preflight
    assertThat(f.flushes(a) - flushes).isEqualTo(3);
    assertThat(f.list(a)).isEqualTo("[]");
    f.host.advance(Duration.ofHours(1));
    assertThat(a.followups()).hasSize(1);
  }

  @Test
  void reminderTurnStartsAfterTheDispatchIsInTheLog() {
    ScriptedModel model = new ScriptedModel().thenText("reminded");
    a.useModel(model);
    f.create(a, "{\"prompt\":\"stand up\",\"after_seconds\":5}");
    f.host.advance(Duration.ofSeconds(5));
    List<String> types = new ArrayList<>();
    boolean seen = false;
    for (SessionEvent e : a.session().events()) {
      if (e.type().equals(EventTypes.SCHEDULE_CHANGE) && e.data().path("operation").asText().equals("dispatch")) {
        seen = true;
      }
      if (seen) {
        types.add(e.type());
      }
    }
    assertThat(types).startsWith(EventTypes.SCHEDULE_CHANGE, EventTypes.TURN_START, EventTypes.STEP_START,
        EventTypes.USER_MESSAGE);
    assertThat(types).contains(EventTypes.TURN_END);
    assertThat(model.requests()).hasSize(1);
  }

  @Test
  void neverEarlyAfterAWallClockRollback() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":60}");
    f.host.time().setWall(Fixture.START.minus(Duration.ofHours(1)));
    f.host.advance(Duration.ofSeconds(60));
    assertThat(a.followups()).isEmpty();
    assertThat(f.owner(a).timerArmed()).isTrue();
    assertThat(f.host.time().nextTimerIn()).contains(Duration.ofHours(1));
    f.host.advance(Duration.ofHours(1));
    assertThat(dispatched()).containsExactly("schedule-1");
  }

  @Test
  void forwardJumpMakesTheRecordOverdueAtTheNextWakeAndDispatchesOnce() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":3600}");
    f.host.time().setWall(Fixture.START.plus(Duration.ofHours(2)));
    f.host.settle();
    assertThat(a.followups()).isEmpty();
    assertThat(f.list(a)).contains("\"state\":\"overdue\"");
    assertThat(dispatched()).containsExactly("schedule-1");
    f.list(a);
    f.host.advance(Duration.ofHours(2));
    assertThat(a.followups()).hasSize(1);
  }

  @Test
  void longWaitFiresAtTheWallClockTargetNotBefore() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":2147486}");
    f.host.advance(Duration.ofMillis(2147483647L));
    assertThat(a.followups()).isEmpty();
    f.host.advance(Duration.ofMillis(2352));
    assertThat(a.followups()).isEmpty();
    f.host.advance(Duration.ofMillis(1));
    assertThat(a.followups()).hasSize(1);
  }

  @Test
  void busyAgentGetsOneIdleWaitAndTheReminderAfterIdle() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    a.setBusy();
    f.host.advance(Duration.ofSeconds(10));
    assertThat(a.maintenanceRejections()).isEqualTo(1);
    assertThat(f.owner(a).idleWaiting()).isTrue();
    f.list(a); // another recompute while busy: still one idle wait
    assertThat(a.whenIdleCalls()).isEqualTo(1);
    assertThat(dispatched()).isEmpty();
    a.setIdle();
    f.host.settle();
    assertThat(dispatched()).containsExactly("schedule-1");
    assertThat(f.owner(a).idleWaiting()).isFalse();
  }

  @Test
  void tiedTargetsDispatchInCreationOrderOneClaimEach() {
    f.create(a, "{\"prompt\":\"first\",\"at\":\"2026-08-05T12:01:00Z\"}");
    f.create(a, "{\"prompt\":\"second\",\"at\":\"2026-08-05T12:01:00Z\"}");
    f.create(a, "{\"prompt\":\"earlier\",\"at\":\"2026-08-05T12:00:30Z\"}");
    f.host.advance(Duration.ofMinutes(2));
    assertThat(dispatched()).containsExactly("schedule-3", "schedule-1", "schedule-2");
    assertThat(a.maintenanceCalls()).isEqualTo(3);
  }

  @Test
  void preflightUncertainLeavesTheRecordPendingWithoutARetryTimer() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    f.host.store().script().thenFail(new IOException("disk"));
    f.host.advance(Duration.ofSeconds(10));
    assertThat(dispatched()).isEmpty();
    assertThat(f.host.time().pendingTimers()).isZero();
    assertThat(f.owner(a).faulted()).isFalse();
    assertThat(f.host.warnings().messages()).anyMatch(m -> m.contains("preflight"));
    f.list(a); // a successful management preflight asks the owner to recompute
    assertThat(dispatched()).containsExactly("schedule-1");
  }

  @Test
  void vetoedDispatchFaultsTheOwnerAfterTheFollowupWasQueued() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    f.host.sessions().vetoNext(EventTypes.SCHEDULE_CHANGE, new IllegalStateException("veto"));
    f.host.advance(Duration.ofSeconds(10));
    assertThat(a.followups()).hasSize(1);
    assertThat(dispatched()).isEmpty();
    assertThat(f.owner(a).faulted()).isTrue();
    f.list(a);
    f.host.advance(Duration.ofMinutes(1));
    assertThat(a.followups()).hasSize(1);
    assertThat(f.list(a)).contains("\"overdue\"");
  }

  @Test
  void failedMaintenanceStageFaultsTheOwnerWithoutQueueingOrDispatching() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    a.failNextMaintenance(new IllegalStateException("maintenance stage lost"));
    f.host.advance(Duration.ofSeconds(10));
    assertThat(a.followups()).isEmpty();
    assertThat(dispatched()).isEmpty();
    assertThat(f.owner(a).faulted()).isTrue();
    f.host.advance(Duration.ofMinutes(1));
    assertThat(a.followups()).isEmpty();
    assertThat(dispatched()).isEmpty();
  }

  @Test
  void dispatchBarrierUncertainLeavesTheDispatchInTheLog() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    f.host.store().script().thenComplete().thenFail(new IOException("barrier"));
    int flushes = f.flushes(a);
    f.host.advance(Duration.ofSeconds(10));
    assertThat(dispatched()).containsExactly("schedule-1");
    assertThat(f.flushes(a) - flushes).isEqualTo(2);
    assertThat(f.host.time().pendingTimers()).isZero();
    assertThat(f.owner(a).faulted()).isFalse();
    assertThat(f.list(a)).isEqualTo("[]");
  }

  @Test
  void corruptFoldFaultsTheOwner() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    a.session().append(EventTypes.SCHEDULE_CHANGE, Json.parse("{\"version\":1,\"operation\":\"delete\",\"id\":\"nope\"}"));
    assertThat(f.list(a)).contains("corrupt_schedule_log");
    assertThat(f.owner(a).faulted()).isTrue();
    assertThat(f.host.warnings().messages()).anyMatch(m -> m.contains("schedule delete targets inactive id \"nope\""));
    f.host.advance(Duration.ofMinutes(1));
    assertThat(a.followups()).isEmpty();
  }

  @Test
  void failedIdleWaitIsLoggedAndNotRetried() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    a.setBusy();
    a.failNextIdle(new IllegalStateException("no idle"));
    f.host.advance(Duration.ofSeconds(10));
    assertThat(f.owner(a).idleWaiting()).isFalse();
    assertThat(f.owner(a).faulted()).isFalse();
    assertThat(f.host.warnings().messages()).anyMatch(m -> m.contains("idle wait"));
    a.setIdle(); // the idle status listener is the next external trigger
    f.host.settle();
    assertThat(dispatched()).containsExactly("schedule-1");
  }

  @Test
  void disposalDuringPreflightWaitsForTheFlushThenDoesNothing() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    HeldFlush held = f.host.store().script().thenHold();
    f.host.advance(Duration.ofSeconds(10));
    assertThat(held.reached()).isTrue();
    CompletableFuture<Void> disposed = f.host.dispose(a).toCompletableFuture();
    assertThat(disposed).isNotDone();
    held.release();
    disposed.join();
    assertThat(a.followups()).isEmpty();
    assertThat(dispatched()).isEmpty();
  }

  @Test
  void disposalDuringAnIdleWaitCompletesWithoutIdle() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    a.setBusy();
    a.holdIdle();
    f.host.advance(Duration.ofSeconds(10));
    assertThat(f.owner(a).idleWaiting()).isTrue();
    f.installation.close().toCompletableFuture().join();
    assertThat(f.owner(a).idleWaiting()).isFalse();
    assertThat(dispatched()).isEmpty();
    assertThat(f.changes(a)).hasSize(1);
  }

  @Test
  void disposalDuringTheDispatchBarrierDoesNotRearm() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    f.create(a, "{\"prompt\":\"y\",\"after_seconds\":20}");
    HeldFlush barrier = f.host.store().script().thenComplete().thenHold();
    f.host.advance(Duration.ofSeconds(10));
    assertThat(barrier.reached()).isTrue();
    CompletableFuture<Void> disposed = f.installation.close().toCompletableFuture();
    barrier.release();
    disposed.join();
    f.host.advance(Duration.ofMinutes(1));
    assertThat(dispatched()).containsExactly("schedule-1");
    assertThat(f.host.time().pendingTimers()).isZero();
  }

  @Test
  void idleStatusAsksForARecomputeOnlyWhenTheLogHasScheduleChanges() {
    long requests = f.owner(a).requests();
    a.setBusy();
    a.setIdle();
    assertThat(f.owner(a).requests()).isEqualTo(requests);
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":600}");
    requests = f.owner(a).requests();
    a.setBusy();
    a.setIdle();
    f.host.settle();
    assertThat(f.owner(a).requests()).isEqualTo(requests + 1);
  }

  @Test
  void aForkWhoseInheritedPrefixHoldsChangesAlsoRecomputesOnIdle() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":600}");
    TestAgent child = f.host.agentFor(f.host.sessions().fork(a.session(), a.session().length(), true));
    long requests = f.owner(child).requests();
    child.setBusy();
    child.setIdle();
    assertThat(f.owner(child).requests()).isEqualTo(requests + 1);
    assertThat(f.list(child)).isEqualTo("[]");
  }

  @Test
  void aRecordDeletedWhileWaitingForIdleIsNeverDispatched() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    a.setBusy();
    f.host.advance(Duration.ofSeconds(10));
    assertThat(f.owner(a).idleWaiting()).isTrue();
    assertThat(f.delete(a, "schedule-1")).contains("\"deleted\":true");
    a.setIdle();
    f.host.settle();
    assertThat(a.followups()).isEmpty();
    assertThat(dispatched()).isEmpty();
    assertThat(f.owner(a).faulted()).isFalse();
    assertThat(f.host.time().pendingTimers()).isZero();
  }

  @Test
  void aCrashBeforeTheDispatchIsDurableDeliversAgainAfterRestart() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    f.host.store().script().thenComplete().thenFail(new IOException("barrier lost"));
    f.host.advance(Duration.ofSeconds(10));
    assertThat(a.followups()).hasSize(1);
    assertThat(dispatched()).containsExactly("schedule-1");
    // the process dies before any later flush persisted the dispatch
    var restarted = f.host.restart();
    Fixture g = new Fixture(restarted);
    TestAgent resumed = restarted.agentFor(restarted.sessions().get(a.id()).orElseThrow());
    restarted.settle();
    assertThat(resumed.followups()).hasSize(1);
    assertThat(g.list(resumed)).isEqualTo("[]");
  }
}

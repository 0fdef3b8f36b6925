package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.schedule.tools.LivenessHost.Seen;
import dev.horae.schedule.tools.LivenessHost.Standing;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.session.HeldFlush;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The live owner acts only while its agent is live (spec §12.1: {@code agents.get(id)} is this
 * exact agent and {@code roots()} contains it), and re-checks at every point the spec names: when a
 * drive starts (§12.3 step 1, no flush for a gone agent), after the preflight (§12.3 step 2), first
 * thing inside the maintenance claim (§12.4 row 1) and before an idle wait (§12.3 step 5). The claim
 * also re-folds and re-reads the clock (§12.4 rows 2 and 3). The registry's answers are changed
 * through {@link LivenessHost}.
 */
class OwnerLivenessTest {

  private static final AtomicInteger CALLS = new AtomicInteger();

  private LivenessHost h;
  private SchedulePlugin.ScheduleInstallation installation;
  private Seen a;

  @BeforeEach
  void setUp() {
    h = new LivenessHost(TestHost.builder().start(Fixture.START).build());
    installation = SchedulePlugin.create().install(h);
    a = h.createAgent();
  }

  private String create(String args) {
    ToolResult r = h.d.tools()
        .call(new ToolInvocation(a, new ToolCall("call-" + CALLS.incrementAndGet(), "schedule_create", Json.parse(args))), AbortSignal.never())
        .toCompletableFuture().join();
    h.d.settle();
    assertThat(r.isError()).as("tool error: %s", r.text()).isFalse();
    return r.text();
  }

  private OwnerState owner() {
    return installation.ownerState(a).orElseThrow();
  }

  private int flushes() {
    return h.d.sessions().flushCount(a.session());
  }

  private List<String> dispatched() {
    List<String> ids = new ArrayList<>();
    for (SessionEvent e : a.session().events()) {
      if (e.type().equals(EventTypes.SCHEDULE_CHANGE) && e.data().path("operation").asText().equals("dispatch")) {
        ids.add(e.data().path("id").asText());
      }
    }
    return ids;
  }

  @Test
  void anAgentTheRegistryNoLongerHoldsIsNotDrivenAndCostsNoFlush() {
    create("{\"prompt\":\"x\",\"after_seconds\":10}");
    a.standing = Standing.GONE;
    int before = flushes();
    h.d.advance(Duration.ofSeconds(10));
    assertThat(flushes()).isEqualTo(before);
    assertThat(a.t.maintenanceCalls()).isZero();
    assertThat(a.t.followups()).isEmpty();
    assertThat(h.d.time().pendingTimers()).isZero();
    assertThat(h.d.warnings().messages()).isEmpty();
  }

  @Test
  void anotherAgentUnderTheSameIdIsNotThisOwnersAgent() {
    create("{\"prompt\":\"x\",\"after_seconds\":10}");
    a.standing = Standing.REPLACED;
    int before = flushes();
    h.d.advance(Duration.ofSeconds(10));
    assertThat(flushes()).isEqualTo(before);
    assertThat(a.t.followups()).isEmpty();
  }

  @Test
  void anAgentThatIsNoLongerARootIsNotDriven() {
    create("{\"prompt\":\"x\",\"after_seconds\":10}");
    a.standing = Standing.NOT_A_ROOT;
    int before = flushes();
    h.d.advance(Duration.ofSeconds(10));
    assertThat(flushes()).isEqualTo(before);
    assertThat(a.t.followups()).isEmpty();
    assertThat(dispatched()).isEmpty();
  }

  @Test
  void livenessLostDuringThePreflightEndsTheDriveAfterTheFlush() {
    create("{\"prompt\":\"x\",\"after_seconds\":10}");
    HeldFlush preflight = h.d.store().script().thenHold();
    int before = flushes();
    h.d.advance(Duration.ofSeconds(10));
    assertThat(preflight.reached()).isTrue();
    a.standing = Standing.GONE;
    preflight.release();
    h.d.settle();
    assertThat(flushes()).isEqualTo(before + 1);
    assertThat(a.t.maintenanceCalls()).isZero();
    assertThat(a.t.followups()).isEmpty();
    assertThat(h.d.time().pendingTimers()).isZero();
  }

  @Test
  void livenessLostWhenTheClaimIsTakenDispatchesNothing() {
    create("{\"prompt\":\"x\",\"after_seconds\":10}");
    a.beforeClaim = () -> a.standing = Standing.GONE;
    int before = flushes();
    h.d.advance(Duration.ofSeconds(10));
    assertThat(a.t.maintenanceCalls()).isEqualTo(1);
    assertThat(a.t.followups()).isEmpty();
    assertThat(dispatched()).isEmpty();
    assertThat(owner().faulted()).isFalse();
    // the preflight only: a claim that dispatched nothing is not followed by a barrier
    assertThat(flushes()).isEqualTo(before + 1);
  }

  @Test
  void stoppingWhenTheClaimIsTakenDispatchesNothing() {
    create("{\"prompt\":\"x\",\"after_seconds\":10}");
    List<java.util.concurrent.CompletableFuture<Void>> closed = new ArrayList<>();
    a.beforeClaim = () -> closed.add(installation.close().toCompletableFuture());
    h.d.advance(Duration.ofSeconds(10));
    assertThat(a.t.maintenanceCalls()).isEqualTo(1);
    assertThat(a.t.followups()).isEmpty();
    assertThat(dispatched()).isEmpty();
    assertThat(closed).singleElement().satisfies(c -> assertThat(c).isCompleted());
  }

  @Test
  void aRecordDeletedBeforeTheClaimIsNotDispatched() {
    create("{\"prompt\":\"x\",\"after_seconds\":10}");
    a.beforeClaim = () -> a.session().append(EventTypes.SCHEDULE_CHANGE,
        Json.parse("{\"version\":1,\"operation\":\"delete\",\"id\":\"schedule-1\"}"));
    int before = flushes();
    h.d.advance(Duration.ofSeconds(10));
    assertThat(flushes()).isEqualTo(before + 1);
    assertThat(a.t.maintenanceCalls()).isEqualTo(1);
    assertThat(a.t.followups()).isEmpty();
    assertThat(dispatched()).isEmpty();
    assertThat(owner().faulted()).isFalse();
    assertThat(h.d.time().pendingTimers()).isZero();
  }

  @Test
  void aCorruptReFoldInsideTheClaimFaultsTheOwner() {
    create("{\"prompt\":\"x\",\"after_seconds\":10}");
    a.beforeClaim = () -> a.session().append(EventTypes.SCHEDULE_CHANGE,
        Json.parse("{\"version\":1,\"operation\":\"delete\",\"id\":\"nope\"}"));
    int before = flushes();
    h.d.advance(Duration.ofSeconds(10));
    assertThat(flushes()).isEqualTo(before + 1);
    assertThat(a.t.followups()).isEmpty();
    assertThat(owner().faulted()).isTrue();
    assertThat(h.d.warnings().messages()).anyMatch(m -> m.contains("schedule delete targets inactive id \"nope\""));
    h.d.advance(Duration.ofMinutes(5));
    assertThat(a.t.followups()).isEmpty();
  }

  @Test
  void notYetDueAtTheClaimsOwnClockSampleReArmsForTheRemainder() {
    create("{\"prompt\":\"x\",\"after_seconds\":10}");
    // the wall clock steps back between the drive's sample and the claim's
    a.beforeClaim = () -> h.d.time().setWall(Fixture.START.plusSeconds(7));
    int before = flushes();
    h.d.advance(Duration.ofSeconds(10));
    assertThat(flushes()).isEqualTo(before + 1);
    assertThat(a.t.maintenanceCalls()).isEqualTo(1);
    assertThat(a.t.followups()).isEmpty();
    assertThat(owner().timerArmed()).isTrue();
    assertThat(h.d.time().nextTimerIn()).contains(Duration.ofSeconds(3));
    h.d.advance(Duration.ofSeconds(2));
    assertThat(a.t.followups()).isEmpty();
    h.d.advance(Duration.ofSeconds(1));
    assertThat(a.t.followups()).hasSize(1);
    assertThat(dispatched()).containsExactly("schedule-1");
  }

  @Test
  void aBusyAgentThatIsNoLongerLiveGetsNoIdleWait() {
    create("{\"prompt\":\"x\",\"after_seconds\":10}");
    a.t.setBusy();
    a.beforeClaim = () -> a.standing = Standing.GONE;
    h.d.advance(Duration.ofSeconds(10));
    assertThat(a.t.maintenanceRejections()).isEqualTo(1);
    assertThat(a.t.whenIdleCalls()).isZero();
    assertThat(owner().idleWaiting()).isFalse();
  }
}

package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent's own rules (host contract §5): busy while an external turn runs and idle after it,
 * input latched meanwhile and driven afterwards, the inbox queues and withdrawal, and what a
 * disposed agent still accepts.
 */
@Timeout(30)
class RuntimeAgentRulesTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z"));
  private static final ModelPort OK = r -> CompletableFuture.completedFuture(ModelResponse.text("ok"));

  private static long turns(RuntimeAgent agent) {
    return agent.session().events().stream().filter(e -> e.type().equals(EventTypes.TURN_END)).count();
  }

  @Test
  void anExternalTurnHoldsTheAgentBusyAndInputLatchedMeanwhileRunsWhenItEnds() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(OK).build()) {
      RuntimeAgent agent = horae.openAgent("s-ext");
      List<AgentStatus> statuses = Collections.synchronizedList(new ArrayList<>());
      CountDownLatch turnEnded = new CountDownLatch(1);
      var unusedStatus = horae.agents().onStatus((a, s) -> statuses.add(s));
      var unusedEnd = horae.agents().onTurnEnd(outcome -> turnEnded.countDown());
      RuntimeAgent.ExternalTurn external = agent.beginExternalTurn();
      assertThat(agent.status()).isEqualTo(AgentStatus.RUNNING);
      assertThatThrownBy(agent::beginExternalTurn).isInstanceOf(IllegalStateException.class)
          .hasMessage("agent \"" + agent.id() + "\" already has active work");
      CompletableFuture<Void> idle = agent.whenIdle().toCompletableFuture();
      horae.prompt(agent, "while busy");
      assertThat(idle).isNotDone();
      assertThat(agent.pendingNextTurn()).extracting(UserMessage::text).containsExactly("while busy");
      assertThat(turns(agent)).isZero();
      external.close();
      external.close();
      assertThatThrownBy(() -> external.preStep(List.of(), 1, 1)).isInstanceOf(IllegalStateException.class)
          .hasMessage("the external turn of agent \"" + agent.id() + "\" has ended");
      // the latched prompt starts a driver the moment the external turn ends
      assertThat(turnEnded.await(20, TimeUnit.SECONDS)).isTrue();
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(turns(agent)).isEqualTo(1);
      assertThat(statuses).startsWith(AgentStatus.RUNNING, AgentStatus.IDLE);
      List<AgentStatus> seen = List.copyOf(statuses);
      for (int i = 1; i < seen.size(); i++) {
        // the second close reports nothing: statuses alternate
        assertThat(seen.get(i)).as("status %d of %s", i, seen).isNotEqualTo(seen.get(i - 1));
      }
    }
  }

  @Test
  void injectedAndFollowupMessagesQueueOnTheirLanesAndCanBeWithdrawn() {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      // no model: input stays queued, so the queues can be read
      RuntimeAgent agent = horae.openAgent("s-inbox");
      UserMessage next = horae.messages().text("for the next turn", MessageSource.user());
      UserMessage step = horae.messages().text("for the next step", MessageSource.user());
      UserMessage steer = horae.messages().text("steer", MessageSource.user());
      agent.followup(next);
      agent.inject(step);
      agent.steer(steer);
      assertThat(agent.pendingNextTurn()).containsExactly(next);
      assertThat(agent.pendingNextStep()).containsExactly(step, steer);
      assertThat(agent.withdraw(step.id())).isTrue();
      assertThat(agent.withdraw(step.id())).isFalse();
      assertThat(agent.withdraw(next.id())).isTrue();
      assertThat(agent.withdraw("no-such-message")).isFalse();
      assertThat(agent.pendingNextTurn()).isEmpty();
      assertThat(agent.pendingNextStep()).containsExactly(steer);
      assertThat(agent.session().events()).extracting(SessionEvent::type).doesNotContain(EventTypes.TURN_START);
    }
  }

  @Test
  void aDisposedAgentTakesNoInputAndItsIdleWaitFails() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      RuntimeAgent agent = horae.openAgent("s-disposed");
      CompletableFuture<Void> pending = agent.whenIdle().toCompletableFuture();
      assertThat(agent.disposed()).isFalse();
      horae.agents().dispose(agent).toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(agent.disposed()).isTrue();
      assertThat(pending).isDone();
      agent.followup(horae.messages().text("late", MessageSource.user()));
      agent.inject(horae.messages().text("late", MessageSource.user()));
      agent.prompt(horae.messages().text("late", MessageSource.user()));
      assertThat(agent.pendingNextTurn()).isEmpty();
      assertThat(agent.pendingNextStep()).isEmpty();
      assertThatThrownBy(() -> agent.whenIdle().toCompletableFuture().get(5, TimeUnit.SECONDS))
          .hasRootCauseMessage("agent \"" + agent.id() + "\" is disposed");
      assertThatThrownBy(agent::beginExternalTurn).isInstanceOf(IllegalStateException.class);
      assertThat(agent.toString()).contains(agent.id());
    }
  }

  @Test
  void aModelAttachedLaterDrivesTheInputThatWaitedForIt() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      RuntimeAgent agent = horae.openAgent("s-late-model");
      horae.prompt(agent, "hello");
      assertThat(agent.status()).isEqualTo(AgentStatus.IDLE);
      assertThat(turns(agent)).isZero();
      agent.useModel(OK);
      // listening before the prompt: the turn may end before the next line runs
      CountDownLatch ended = new CountDownLatch(1);
      var unused = horae.agents().onTurnEnd(o -> ended.countDown());
      horae.prompt(agent, "again");
      assertThat(ended.await(20, TimeUnit.SECONDS)).isTrue();
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      // both prompts opened the one turn the model answered
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals(EventTypes.USER_MESSAGE)).hasSize(2);
      assertThat(agent.pendingNextTurn()).isEmpty();
    }
  }

  @Test
  @DisplayName("status stays idle through maintenance (§5.3 item 3); a turn is one running then one idle (§5.1 onStatus)")
  void statusStaysIdleThroughMaintenanceAndATurnIsOneRunningThenOneIdle() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(OK).build()) {
      RuntimeAgent agent = horae.openAgent("s-status");
      List<AgentStatus> statuses = Collections.synchronizedList(new ArrayList<>());
      var unused = horae.agents().onStatus((a, s) -> statuses.add(s));
      CompletableFuture<Void> task = new CompletableFuture<>();
      CompletableFuture<Void> maintenance = agent.runMaintenance(signal -> task).toCompletableFuture();
      assertThat(agent.status()).isEqualTo(AgentStatus.IDLE);
      task.complete(null);
      maintenance.get(5, TimeUnit.SECONDS);
      assertThat(statuses).isEmpty();
      horae.prompt(agent, "hello");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      // the idle status is reported before the idle wait completes
      assertThat(statuses).containsExactly(AgentStatus.RUNNING, AgentStatus.IDLE);
      assertThat(agent.status()).isEqualTo(AgentStatus.IDLE);
    }
  }

  @Test
  @DisplayName("an idle wait asked while the idle status is being told completes only after it (§5.1 onStatus, §5.4)")
  void anIdleWaitAskedWhileTheIdleStatusIsToldCompletesOnlyAfterIt() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(OK).build()) {
      RuntimeAgent agent = horae.openAgent("s-announcing");
      CountDownLatch telling = new CountDownLatch(1);
      CountDownLatch told = new CountDownLatch(1);
      var unused = horae.agents().onStatus((a, s) -> {
        if (s == AgentStatus.IDLE) {
          telling.countDown();
          try {
            // the driver's thread holds the idle status here until the test lets it go
            told.await(20, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      });
      horae.prompt(agent, "hello");
      assertThat(telling.await(20, TimeUnit.SECONDS)).isTrue();
      // the turn has ended and the phase is idle, but the listeners have not all heard it yet
      CompletableFuture<Void> idle = agent.whenIdle().toCompletableFuture();
      assertThat(idle).isNotDone();
      told.countDown();
      idle.get(20, TimeUnit.SECONDS);
    }
  }

  @Test
  @DisplayName("an idle wait asked during maintenance also waits for the turn its latched input starts (§5.4)")
  void anIdleWaitAskedDuringMaintenanceWaitsForTheTurnItsLatchedInputStarts() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(OK).build()) {
      RuntimeAgent agent = horae.openAgent("s-idle-latched");
      CompletableFuture<Void> task = new CompletableFuture<>();
      var unused = agent.runMaintenance(signal -> task);
      horae.prompt(agent, "latched");
      // what the log holds at the moment the wait completes, read on the completing thread
      CompletableFuture<Long> turnsWhenIdle = agent.whenIdle().toCompletableFuture().thenApply(v -> turns(agent));
      assertThat(turnsWhenIdle).isNotDone();
      task.complete(null);
      assertThat(turnsWhenIdle.get(20, TimeUnit.SECONDS)).isEqualTo(1);
    }
  }

  @Test
  @DisplayName("a wake whose only input was withdrawn starts no turn, and no stale wake drives a later inject (§5.5)")
  void aWakeWhoseOnlyInputWasWithdrawnStartsNoTurnAndLeavesNoStaleWake() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(OK).build()) {
      RuntimeAgent agent = horae.openAgent("s-withdrawn-wake");
      CompletableFuture<Void> first = new CompletableFuture<>();
      var unused = agent.runMaintenance(signal -> first);
      UserMessage prompt = horae.prompt(agent, "never mind");
      assertThat(agent.withdraw(prompt.id())).isTrue();
      first.complete(null);
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(agent.session().events()).extracting(SessionEvent::type).doesNotContain(EventTypes.TURN_START);
      // an inject does not wake: it waits on the idle agent even across a later phase change
      agent.inject(horae.messages().text("waits", MessageSource.user()));
      CompletableFuture<Void> second = new CompletableFuture<>();
      var unusedSecond = agent.runMaintenance(signal -> second);
      second.complete(null);
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(agent.session().events()).extracting(SessionEvent::type).doesNotContain(EventTypes.TURN_START);
      assertThat(agent.pendingNextStep()).extracting(UserMessage::text).containsExactly("waits");
      // the same during an external turn: a prompt withdrawn before it ends starts nothing
      RuntimeAgent.ExternalTurn external = agent.beginExternalTurn();
      UserMessage during = horae.prompt(agent, "also never mind");
      assertThat(agent.withdraw(during.id())).isTrue();
      assertThat(agent.withdraw(agent.pendingNextStep().get(0).id())).isTrue();
      external.close();
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(turns(agent)).isZero();
      assertThat(agent.session().events()).extracting(SessionEvent::type).doesNotContain(EventTypes.TURN_START);
    }
  }

  @Test
  @DisplayName("a steer wakes an idle agent and the injected messages join the first step of that turn (§5.5)")
  void aSteerWakesTheIdleAgentAndPendingInjectsJoinItsFirstStep() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(r -> {
      requests.incrementAndGet();
      return CompletableFuture.completedFuture(ModelResponse.text("ok"));
    }).build()) {
      RuntimeAgent agent = horae.openAgent("s-steer");
      agent.inject(horae.messages().text("first", MessageSource.user()));
      assertThat(turns(agent)).isZero();
      agent.steer(horae.messages().text("second", MessageSource.user()));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      List<String> types = agent.session().events().stream().map(SessionEvent::type).toList();
      List<String> turn = types.subList(types.indexOf(EventTypes.TURN_START), types.size());
      assertThat(turn).startsWith(EventTypes.TURN_START, EventTypes.STEP_START, EventTypes.USER_MESSAGE, EventTypes.USER_MESSAGE,
          EventTypes.REQUEST_HEADER);
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals(EventTypes.USER_MESSAGE))
          .extracting(e -> UserMessage.fromJson(e.data()).text()).containsExactly("first", "second");
      assertThat(requests).hasValue(1);
      assertThat(turns(agent)).isEqualTo(1);
      assertThat(agent.pendingNextStep()).isEmpty();
    }
  }

  @Test
  @DisplayName("an idle wait asked during maintenance or an external turn completes when it ends with nothing to drive (§5.4)")
  void anIdleWaitCompletesWhenMaintenanceOrAnExternalTurnEndsWithNothingToDrive() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(OK).build()) {
      RuntimeAgent agent = horae.openAgent("s-idle-after");
      CompletableFuture<Void> task = new CompletableFuture<>();
      var unused = agent.runMaintenance(signal -> task);
      CompletableFuture<Void> afterMaintenance = agent.whenIdle().toCompletableFuture();
      assertThat(afterMaintenance).isNotDone();
      task.complete(null);
      afterMaintenance.get(5, TimeUnit.SECONDS);
      RuntimeAgent.ExternalTurn external = agent.beginExternalTurn();
      CompletableFuture<Void> afterExternal = agent.whenIdle().toCompletableFuture();
      assertThat(afterExternal).isNotDone();
      external.close();
      afterExternal.get(5, TimeUnit.SECONDS);
      assertThat(turns(agent)).isZero();
    }
  }

  @Test
  @DisplayName("disposal cancels the unclaimed inbox, fails a pending idle wait, refuses maintenance and aborts a running turn (§5.5, §5.4, §5.3)")
  void disposalCancelsTheInboxFailsPendingWaitsRefusesMaintenanceAndAbortsTheTurn() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CompletableFuture<Boolean> turnAborted = new CompletableFuture<>();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      // no model: the queued input stays in the inbox until disposal cancels it
      RuntimeAgent idle = horae.openAgent("s-cancelled");
      UserMessage next = horae.messages().text("next turn", MessageSource.user());
      UserMessage step = horae.messages().text("next step", MessageSource.user());
      idle.followup(next);
      idle.inject(step);
      CompletableFuture<Void> task = new CompletableFuture<>();
      var unused = idle.runMaintenance(signal -> task);
      CompletableFuture<Void> pending = idle.whenIdle().toCompletableFuture();
      horae.agents().dispose(idle).toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(idle.pendingNextTurn()).isEmpty();
      assertThat(idle.pendingNextStep()).isEmpty();
      assertThat(idle.withdraw(next.id())).isFalse();
      assertThat(idle.withdraw(step.id())).isFalse();
      assertThatThrownBy(() -> pending.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("agent \"s-cancelled\" is disposed");
      task.complete(null);
      assertThatThrownBy(() -> {
        var unusedClaim = idle.runMaintenance(signal -> CompletableFuture.completedFuture(1));
      }).isInstanceOf(IllegalStateException.class).hasMessage("agent \"s-cancelled\" already has active work");

      RuntimeAgent busy = horae.openAgent("s-aborted");
      busy.useModel(r -> {
        var unusedAbort = r.signal().onAbort(() -> turnAborted.complete(true));
        asked.countDown();
        return new CompletableFuture<>();
      });
      horae.prompt(busy, "think forever");
      assertThat(asked.await(20, TimeUnit.SECONDS)).isTrue();
      horae.agents().dispose(busy).toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(turnAborted.get(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  @DisplayName("the test-host hooks see every claim, rejection, queued and withdrawn message, and their faults and holds replace the normal path")
  void theTestHostHooksSeeEachCallAndTheirFaultsReplaceTheNormalPath() throws Exception {
    List<String> warned = Collections.synchronizedList(new ArrayList<>());
    dev.horae.spi.plugin.WarningSink sink = (m, c) -> warned.add(m);
    java.util.concurrent.ExecutorService drivers = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      dev.horae.store.LogSessions sessions = dev.horae.store.LogSessions.over(new dev.horae.store.MemorySessionStore(), CLOCK, sink);
      HostServices core = HostServices.assemble(sessions, drivers, sink, Hooked::new, true, CLOCK, true,
          dev.horae.runtime.agent.IdleHistory.keep(), dev.horae.runtime.agent.TurnLimits.NONE, dev.horae.gate.ResolvedExecutionEnv.empty());
      dev.horae.spi.session.Session session = sessions.create(
          new dev.horae.spi.session.CreateOptions(Optional.of("s-hooked"), Optional.empty(), Optional.empty()));
      Hooked agent = (Hooked) core.agents().create(session, Optional.empty(), core.agentScope("s-hooked"));
      UserMessage a = new UserMessage("m-a", List.of(new dev.horae.spi.message.ContentBlock("a")), MessageSource.user());
      UserMessage b = new UserMessage("m-b", List.of(new dev.horae.spi.message.ContentBlock("b")), MessageSource.user());
      UserMessage c = new UserMessage("m-c", List.of(new dev.horae.spi.message.ContentBlock("c")), MessageSource.user());
      agent.followup(a);
      agent.inject(b);
      agent.prompt(c);
      assertThat(agent.withdraw("m-b")).isTrue();
      assertThat(agent.withdraw("m-b")).isFalse();
      CompletableFuture<Void> task = new CompletableFuture<>();
      var unused = agent.runMaintenance(signal -> task);
      assertThatThrownBy(() -> {
        var unusedSecond = agent.runMaintenance(signal -> CompletableFuture.completedFuture(1));
      }).isInstanceOf(IllegalStateException.class);
      task.complete(null);
      assertThat(agent.seen).containsExactly("queued m-a FOLLOWUP", "queued m-b INJECT", "queued m-c PROMPT", "withdrawn m-b",
          "maintenance call", "maintenance call", "maintenance rejected");

      // a maintenance fault: the stage fails, the task never runs and the agent is not claimed
      agent.maintenanceFault = new IllegalStateException("maintenance stage broke");
      java.util.concurrent.atomic.AtomicBoolean ran = new java.util.concurrent.atomic.AtomicBoolean();
      CompletableFuture<Integer> faulted = agent.<Integer>runMaintenance(signal -> {
        ran.set(true);
        return CompletableFuture.completedFuture(1);
      }).toCompletableFuture();
      assertThatThrownBy(() -> faulted.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("maintenance stage broke");
      assertThat(ran).isFalse();
      agent.maintenanceFault = null;
      assertThat(agent.runMaintenance(signal -> CompletableFuture.completedFuture(2)).toCompletableFuture().get(5, TimeUnit.SECONDS))
          .isEqualTo(2);

      // an idle-wait fault fails the wait at once; a hold keeps an idle agent's waits until released or failed
      agent.idleWaitFault = new IllegalStateException("idle stage broke");
      assertThatThrownBy(() -> agent.whenIdle().toCompletableFuture().get(5, TimeUnit.SECONDS)).hasRootCauseMessage("idle stage broke");
      agent.idleWaitFault = null;
      agent.held = true;
      CompletableFuture<Void> heldWait = agent.whenIdle().toCompletableFuture();
      assertThat(heldWait).isNotDone();
      agent.held = false;
      agent.release();
      heldWait.get(5, TimeUnit.SECONDS);
      agent.held = true;
      CompletableFuture<Void> failedWait = agent.whenIdle().toCompletableFuture();
      agent.fail(new IllegalStateException("host broke"));
      assertThatThrownBy(() -> failedWait.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("host broke");
      // a child names its owner and is never a root (§5.1)
      dev.horae.spi.session.Session childSession = sessions.create(
          new dev.horae.spi.session.CreateOptions(Optional.of("s-child"), Optional.empty(), Optional.empty()));
      RuntimeAgent child = core.agents().create(childSession, Optional.of("s-hooked"), core.agentScope("s-child"));
      assertThat(agent.parentId()).isEmpty();
      assertThat(child.parentId()).hasValue("s-hooked");
      assertThat(core.agents().roots()).containsExactly(agent);
      assertThat(core.agents().all()).containsExactly(agent, child);
    } finally {
      drivers.shutdownNow();
    }
  }

  /** A test host's agent: records each hook call and can inject the faults and holds the hooks allow. */
  static final class Hooked extends RuntimeAgent {
    final List<String> seen = Collections.synchronizedList(new ArrayList<>());
    volatile @org.jspecify.annotations.Nullable Throwable maintenanceFault;
    volatile @org.jspecify.annotations.Nullable Throwable idleWaitFault;
    volatile boolean held;

    Hooked(String id, Optional<String> parentId, dev.horae.spi.session.Session session, dev.horae.runtime.plugin.RuntimeScope scope,
        dev.horae.runtime.agent.RuntimeAgents registry) {
      super(id, parentId, session, scope, registry);
    }

    void release() {
      checkIdle();
    }

    void fail(Throwable failure) {
      failIdleWaits(failure);
    }

    @Override
    protected @org.jspecify.annotations.Nullable Throwable maintenanceFault() {
      return maintenanceFault;
    }

    @Override
    protected @org.jspecify.annotations.Nullable Throwable idleWaitFault() {
      return idleWaitFault;
    }

    @Override
    protected boolean idleHeld() {
      return held;
    }

    @Override
    protected void onMaintenanceCall() {
      seen.add("maintenance call");
    }

    @Override
    protected void onMaintenanceRejected() {
      seen.add("maintenance rejected");
    }

    @Override
    protected void onQueued(UserMessage message, Lane lane) {
      seen.add("queued " + message.id() + " " + lane);
    }

    @Override
    protected void onWithdrawn(String messageId) {
      seen.add("withdrawn " + messageId);
    }
  }
}

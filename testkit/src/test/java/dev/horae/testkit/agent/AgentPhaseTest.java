package dev.horae.testkit.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.UserMessage;
import dev.horae.testkit.TestHost;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class AgentPhaseTest {

  private final TestHost host = TestHost.builder().build();

  private UserMessage msg(String text) {
    return host.messages().text(text, MessageSource.plugin("test"));
  }

  @Test
  void maintenanceClaimThrowsWhileATurnRunsAndTheTaskNeverRuns() {
    TestAgent agent = host.createAgent();
    agent.setBusy();
    AtomicBoolean ran = new AtomicBoolean();

    assertThatThrownBy(() -> agent.runMaintenance(signal -> {
          ran.set(true);
          return CompletableFuture.completedFuture(null);
        }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("agent \"" + agent.id() + "\" already has active work");
    assertThat(ran).isFalse();
    assertThat(agent.maintenanceRejections()).isEqualTo(1);
  }

  @Test
  void maintenanceRunsBeforeReturningKeepsStatusIdleAndRejectsASecondClaim() {
    TestAgent agent = host.createAgent();
    CompletableFuture<String> release = new CompletableFuture<>();
    AtomicBoolean ran = new AtomicBoolean();

    CompletionStage<String> result = agent.runMaintenance(signal -> {
      ran.set(true);
      return release;
    });

    assertThat(ran).isTrue();
    assertThat(agent.status()).isEqualTo(AgentStatus.IDLE);
    assertThatThrownBy(() -> agent.runMaintenance(s -> CompletableFuture.completedFuture(1)))
        .isInstanceOf(IllegalStateException.class);
    release.complete("done");
    assertThat(result.toCompletableFuture().join()).isEqualTo("done");
    assertThat(agent.runMaintenance(s -> CompletableFuture.completedFuture(2)).toCompletableFuture().join()).isEqualTo(2);
  }

  @Test
  void aScriptedMaintenanceFailureReturnsAFailedStageWithoutRunningTheTaskOrClaiming() {
    TestAgent agent = host.createAgent();
    AtomicBoolean ran = new AtomicBoolean();
    agent.failNextMaintenance(new IllegalStateException("lost"));

    CompletionStage<Object> stage = agent.runMaintenance(signal -> {
      ran.set(true);
      return CompletableFuture.completedFuture(null);
    });

    assertThat(stage.toCompletableFuture()).isCompletedExceptionally();
    assertThat(ran).isFalse();
    assertThat(agent.runMaintenance(s -> CompletableFuture.completedFuture(1)).toCompletableFuture().join()).isEqualTo(1);
  }

  @Test
  void followupDuringMaintenanceIsLatchedUntilTheTaskCompletes() {
    TestAgent agent = host.createAgent().useModel(new ScriptedModel().thenText("hi"));
    CompletableFuture<Void> release = new CompletableFuture<>();
    agent.runMaintenance(signal -> {
      agent.followup(msg("reminder"));
      return release;
    });

    host.settle();
    assertThat(agent.session().events()).isEmpty();
    assertThat(agent.followups()).hasSize(1);

    release.complete(null);
    assertThat(agent.status()).isEqualTo(AgentStatus.RUNNING);
    host.settle();
    assertThat(types(agent)).containsExactly(
        "turn/start", "step/start", "user/message", "request/header", "assistant/chunk", "assistant/message", "step/end", "turn/end");
    assertThat(agent.status()).isEqualTo(AgentStatus.IDLE);
  }

  @Test
  void whenIdleFollowsWorkThatLatchedInputStartsAfterMaintenance() {
    TestAgent agent = host.createAgent().useModel(new ScriptedModel());
    CompletableFuture<Void> release = new CompletableFuture<>();
    agent.runMaintenance(signal -> {
      agent.followup(msg("wake"));
      return release;
    });
    CompletableFuture<Void> idle = agent.whenIdle().toCompletableFuture();

    release.complete(null);
    assertThat(idle).isNotDone();
    host.settle();
    assertThat(idle).isCompleted();
  }

  @Test
  void theDriverQueueWakesAWaiterWhenWorkArrivesFromAnotherThread() throws InterruptedException {
    DriverQueue queue = new DriverQueue();
    assertThat(queue.awaitTask(java.time.Duration.ZERO)).isFalse();
    Thread producer = new Thread(() -> queue.execute(() -> { }));
    producer.start();
    assertThat(queue.awaitTask(java.time.Duration.ofSeconds(10))).isTrue();
    producer.join();
    assertThat(queue.drain()).isEqualTo(1);
  }

  @Test
  void whenIdleCanBeHeldAndFailed() {
    TestAgent agent = host.createAgent();
    agent.holdIdle();
    CompletableFuture<Void> held = agent.whenIdle().toCompletableFuture();
    assertThat(held).isNotDone();
    agent.releaseIdle();
    assertThat(held).isCompleted();

    agent.failNextIdle(new IllegalStateException("gone"));
    assertThat(agent.whenIdle().toCompletableFuture()).isCompletedExceptionally();
    assertThat(agent.whenIdle().toCompletableFuture()).isCompleted();
  }

  @Test
  void injectedMessagesWaitOnAnIdleAgentAndAreClaimedIntoTheNextTurnsFirstStep() {
    TestAgent agent = host.createAgent().useModel(new ScriptedModel());
    agent.inject(msg("a"));
    agent.inject(msg("b"));
    host.settle();
    assertThat(agent.session().events()).isEmpty();

    List<String> claimed = new ArrayList<>();
    agent.onInboxClaimed((a, m, turn) -> claimed.add(m.text() + "@" + turn));
    agent.followup(msg("c"));
    host.settle();

    assertThat(claimed).containsExactly("c@1", "a@1", "b@1");
    assertThat(agent.session().events().stream().filter(e -> e.type().equals("user/message")).count()).isEqualTo(3);
  }

  @Test
  void injectIntoARunningTurnCostsOneExtraStep() {
    ScriptedModel model = new ScriptedModel();
    TestAgent agent = host.createAgent().useModel(model);
    host.agents().onPreStep(step -> {
      if (step.step() == 1) {
        agent.inject(msg("n1"));
        agent.inject(msg("n2"));
      }
      return step.next();
    }, false);
    host.prompt(agent, "go");
    host.settle();

    assertThat(model.requests()).hasSize(2);
    assertThat(model.requests().get(1).latestUserMessages()).extracting(ChatMessage.User::text).containsExactly("n1", "n2");
    assertThat(types(agent).stream().filter(t -> t.equals("turn/start")).count()).isEqualTo(1);
  }

  @Test
  void withdrawRemovesOnlyUnclaimedMessagesAndAWakeWithNothingPendingStartsNoTurn() {
    TestAgent agent = host.createAgent().useModel(new ScriptedModel());
    agent.setBusy();
    UserMessage notice = msg("notice");
    agent.followup(notice);

    assertThat(agent.withdraw(notice.id())).isTrue();
    assertThat(agent.withdraw(notice.id())).isFalse();
    assertThat(agent.withdraw("never-queued")).isFalse();
    agent.setIdle();
    host.settle();
    assertThat(agent.session().events()).isEmpty();

    UserMessage claimedLater = msg("claimed");
    agent.followup(claimedLater);
    host.settle();
    assertThat(agent.withdraw(claimedLater.id())).isFalse();
    assertThat(agent.withdrawals()).containsExactly(notice.id());
  }

  @Test
  void disposalCancelsTheInboxAbortsMaintenanceAndFailsIdleWaits() {
    TestAgent agent = host.createAgent();
    AtomicBoolean aborted = new AtomicBoolean();
    agent.runMaintenance(signal -> {
      signal.onAbort(() -> aborted.set(true));
      return new CompletableFuture<Void>();
    });
    UserMessage queued = msg("x");
    agent.inject(queued);
    CompletableFuture<Void> idle = agent.whenIdle().toCompletableFuture();

    host.dispose(agent).toCompletableFuture().join();

    assertThat(aborted).isTrue();
    assertThat(idle).isCompletedExceptionally();
    assertThat(agent.withdraw(queued.id())).isFalse();
    assertThat(host.agents().get(agent.id())).isEmpty();
  }

  @Test
  void createdListenersFireOnlyForLaterAgentsAndChildrenAreNeverRoots() {
    TestAgent before = host.createAgent();
    List<String> created = new ArrayList<>();
    host.agents().onCreated(a -> created.add(a.id()));
    TestAgent after = host.createAgent();
    TestAgent child = host.createChildAgent(after);

    assertThat(created).containsExactly(after.id(), child.id());
    assertThat(host.agents().roots()).containsExactly(before, after);
    assertThat(host.agents().get(after.id())).containsSame(after);
  }

  @Test
  void statusEventsFollowEachTransition() {
    TestAgent agent = host.createAgent().useModel(new ScriptedModel());
    List<AgentStatus> seen = new ArrayList<>();
    host.agents().onStatus((a, s) -> seen.add(s));
    host.prompt(agent, "hi");
    host.settle();
    assertThat(seen).containsExactly(AgentStatus.RUNNING, AgentStatus.IDLE);
  }

  private static List<String> types(TestAgent agent) {
    return agent.session().events().stream().map(e -> e.type()).toList();
  }
}

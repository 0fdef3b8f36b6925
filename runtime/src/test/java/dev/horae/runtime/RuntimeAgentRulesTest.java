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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
}

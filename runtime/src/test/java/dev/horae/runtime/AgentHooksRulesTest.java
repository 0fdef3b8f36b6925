package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.model.ModelRequest;
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
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent registry's hooks (host contract §5, §6.1, §6.2): the pre-step waterfall's order and
 * what it decides, the turn-stopping hook that may give a turn another step, the maintenance claim,
 * cancellation, and listeners whose failures are contained and reported while the others still
 * run.
 */
@Timeout(30)
class AgentHooksRulesTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z"));

  private static List<String> types(RuntimeAgent agent) {
    return agent.session().events().stream().map(SessionEvent::type).toList();
  }

  private static String lastEndReason(RuntimeAgent agent) {
    List<SessionEvent> events = agent.session().events();
    return events.get(events.size() - 1).data().path("reason").asText();
  }

  private static void settle(RuntimeAgent agent) throws Exception {
    agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  @Test
  void thePreStepWaterfallRunsPrependedListenersFirstAndEachSeesTheStep() throws Exception {
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK)
        .model(r -> CompletableFuture.completedFuture(ModelResponse.text("ok"))).build()) {
      var unused1 = horae.agents().onPreStep(s -> {
        order.add("appended " + s.turn() + "/" + s.step() + " " + s.messages().stream().map(UserMessage::text).toList()
            + " " + s.agent().id() + " " + s.signal().aborted());
        return s.next();
      }, false);
      var unused2 = horae.agents().onPreStep(s -> {
        order.add("prepended");
        return s.next();
      }, true);
      Registration removed = horae.agents().onPreStep(s -> {
        order.add("removed");
        return s.next();
      }, true);
      removed.close();
      RuntimeAgent agent = horae.openAgent("s-waterfall");
      horae.prompt(agent, "hello");
      settle(agent);
      assertThat(order).containsExactly("prepended", "appended 1/1 [hello] s-waterfall false");
    }
  }

  @Test
  void aListenerThatAnswersWithoutNextDecidesWhatTheStepEntersWith() throws Exception {
    List<ModelRequest> requests = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean laterRan = new AtomicBoolean();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(r -> {
      requests.add(r);
      return CompletableFuture.completedFuture(ModelResponse.text("ok"));
    }).build()) {
      UserMessage replacement = horae.messages().text("replaced", MessageSource.user());
      var unused1 = horae.agents().onPreStep(s ->
          CompletableFuture.completedFuture(new StepDecision.Enter(List.of(replacement))), true);
      var unused2 = horae.agents().onPreStep(s -> {
        laterRan.set(true);
        return s.next();
      }, false);
      RuntimeAgent agent = horae.openAgent("s-replaced");
      horae.prompt(agent, "original");
      settle(agent);
      assertThat(laterRan).isFalse();
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals(EventTypes.USER_MESSAGE))
          .extracting(e -> UserMessage.fromJson(e.data()).text()).containsExactly("replaced");
      assertThat(requests).hasSize(1);
    }
  }

  @Test
  void aRejectedStepEndsTheTurnBlockedAndAThrowingListenerEndsItError() throws Exception {
    List<String> warned = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean reject = new AtomicBoolean(true);
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).warnings((m, c) -> warned.add(m))
        .model(r -> CompletableFuture.completedFuture(ModelResponse.text("ok"))).build()) {
      var unused = horae.agents().onPreStep(s -> {
        if (reject.get()) {
          return CompletableFuture.completedFuture(new StepDecision.Reject("not now"));
        }
        throw new IllegalStateException("listener broke");
      }, false);
      RuntimeAgent agent = horae.openAgent("s-reject");
      horae.prompt(agent, "one");
      settle(agent);
      assertThat(lastEndReason(agent)).isEqualTo("blocked");
      assertThat(types(agent)).doesNotContain(EventTypes.STEP_START);
      reject.set(false);
      horae.prompt(agent, "two");
      settle(agent);
      assertThat(lastEndReason(agent)).isEqualTo("error");
      assertThat(warned).contains("turn 2 of s-reject failed");
    }
  }

  @Test
  void aTurnStoppingHookThatInjectsInputGivesTheTurnAnotherStep() throws Exception {
    List<ModelRequest> requests = Collections.synchronizedList(new ArrayList<>());
    List<String> warned = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean injected = new AtomicBoolean();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).warnings((m, c) -> warned.add(m)).model(r -> {
      requests.add(r);
      return CompletableFuture.completedFuture(ModelResponse.text("answer " + r.step()));
    }).build()) {
      var unusedBroken = horae.agents().onTurnStopping((a, turn) -> {
        throw new IllegalStateException("hook broke");
      });
      var unusedHook = horae.agents().onTurnStopping((a, turn) -> {
        if (injected.compareAndSet(false, true)) {
          ((RuntimeAgent) a).inject(horae.messages().text("one more thing", MessageSource.user()));
        }
      });
      RuntimeAgent agent = horae.openAgent("s-stopping");
      horae.prompt(agent, "hello");
      settle(agent);
      assertThat(requests).extracting(r -> r.turn() + "/" + r.step()).containsExactly("1/1", "1/2");
      assertThat(types(agent).stream().filter(t -> t.equals(EventTypes.TURN_END)).count()).isEqualTo(1);
      assertThat(lastEndReason(agent)).isEqualTo("completed");
      assertThat(warned).contains("turn-stopping hook failed for s-stopping");
    }
  }

  @Test
  void maintenanceClaimsTheIdleAgentAndInputMeanwhileStartsATurnWhenItEnds() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK)
        .model(r -> CompletableFuture.completedFuture(ModelResponse.text("ok"))).build()) {
      RuntimeAgent agent = horae.openAgent("s-maint");
      CompletableFuture<String> task = new CompletableFuture<>();
      CompletableFuture<String> result = agent.runMaintenance(signal -> task).toCompletableFuture();
      assertThatThrownBy(() -> agent.runMaintenance(signal -> CompletableFuture.completedFuture("x")))
          .isInstanceOf(IllegalStateException.class).hasMessage("agent \"s-maint\" already has active work");
      assertThatThrownBy(agent::beginExternalTurn).isInstanceOf(IllegalStateException.class);
      CountDownLatch ended = new CountDownLatch(1);
      var unused = horae.agents().onTurnEnd(o -> ended.countDown());
      horae.prompt(agent, "during maintenance");
      assertThat(types(agent)).doesNotContain(EventTypes.TURN_START);
      task.complete("done");
      assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo("done");
      assertThat(ended.await(20, TimeUnit.SECONDS)).isTrue();
      settle(agent);
      // a failed task's failure reaches the caller, and the claim is released all the same
      CompletableFuture<String> failed = agent.<String>runMaintenance(
          signal -> CompletableFuture.failedFuture(new IllegalStateException("task broke"))).toCompletableFuture();
      assertThatThrownBy(() -> failed.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("task broke");
      CompletableFuture<String> thrown = agent.<String>runMaintenance(signal -> {
        throw new IllegalStateException("task threw");
      }).toCompletableFuture();
      assertThatThrownBy(() -> thrown.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("task threw");
      assertThat(agent.runMaintenance(signal -> CompletableFuture.completedFuture(signal.aborted())).toCompletableFuture()
          .get(5, TimeUnit.SECONDS)).isFalse();
    }
  }

  @Test
  void disposingAnAgentAbortsItsMaintenanceSignal() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      RuntimeAgent agent = horae.openAgent("s-maint-dispose");
      CompletableFuture<Boolean> aborted = new CompletableFuture<>();
      var unused = agent.runMaintenance(signal -> {
        var unusedListener = signal.onAbort(() -> aborted.complete(true));
        return new CompletableFuture<Void>();
      });
      horae.agents().dispose(agent).toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(aborted.get(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void aCancelledTurnEndsAbortedAndTheModelSeesTheSignal() throws Exception {
    CompletableFuture<ModelResponse> answer = new CompletableFuture<>();
    CountDownLatch asked = new CountDownLatch(1);
    AtomicBoolean sawAbort = new AtomicBoolean();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(r -> {
      var unused = r.signal().onAbort(() -> sawAbort.set(true));
      asked.countDown();
      return answer;
    }).build()) {
      RuntimeAgent agent = horae.openAgent("s-cancel");
      agent.cancelTurn("nothing runs yet");
      horae.prompt(agent, "hello");
      assertThat(asked.await(20, TimeUnit.SECONDS)).isTrue();
      agent.cancelTurn("user pressed stop");
      answer.complete(ModelResponse.text("too late"));
      settle(agent);
      assertThat(sawAbort).isTrue();
      assertThat(lastEndReason(agent)).isEqualTo("aborted");
    }
  }

  @Test
  void failingListenersAreReportedByNameAndTheOthersStillRun() throws Exception {
    List<String> warned = Collections.synchronizedList(new ArrayList<>());
    List<String> heard = Collections.synchronizedList(new ArrayList<>());
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).warnings((m, c) -> warned.add(m))
        .model(r -> CompletableFuture.completedFuture(ModelResponse.text("ok"))).build()) {
      var unused1 = horae.agents().onCreated(a -> {
        throw new IllegalStateException("created broke");
      });
      var unused2 = horae.agents().onCreated(a -> heard.add("created " + a.id()));
      Registration gone = horae.agents().onCreated(a -> heard.add("removed listener"));
      gone.close();
      var unused3 = horae.agents().onStatus((a, s) -> {
        throw new IllegalStateException("status broke");
      });
      var unused4 = horae.agents().onTurnEnd(o -> {
        throw new IllegalStateException("turn listener broke");
      });
      var unused5 = horae.agents().onTurnEnd(o -> heard.add("ended " + o.agentId() + " " + o.turn() + " " + o.reason()
          + " " + o.finalText() + " " + o.trigger().map(UserMessage::text).orElse("-")));
      Registration goneEnd = horae.agents().onTurnEnd(o -> heard.add("removed turn listener"));
      goneEnd.close();
      RuntimeAgent agent = horae.openAgent("s-listeners");
      var unusedClaim = agent.onInboxClaimed((a, m, turn) -> heard.add("claimed " + m.text() + " in turn " + turn));
      horae.prompt(agent, "hello");
      settle(agent);
      assertThat(heard).containsExactly("created s-listeners", "claimed hello in turn 1", "ended s-listeners 1 completed ok hello");
      assertThat(warned).contains("agent-created listener failed for s-listeners", "status listener failed for s-listeners",
          "turn listener failed for s-listeners");
    }
  }
}

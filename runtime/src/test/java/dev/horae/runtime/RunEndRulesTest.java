package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.EndCause;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.agent.TurnOutcome;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.tool.ToolDefinition;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a Run that committed ends on the production engine: a cancel or stop given while an answer
 * drives it (gate specification §9.5), the terminal observers that hear only of a committed end
 * (§5.6 step 5), chained scheduled actions that never leave the Run awaiting when the runtime
 * dispatches them itself (§12.5.4), and a fork that does not inherit its parent's parked ticket.
 */
@Timeout(30)
class RunEndRulesTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z"));

  /** A tool whose every run waits for {@code release}; {@code entered} counts down as it starts. */
  private static ToolDefinition held(AtomicInteger runs, CountDownLatch entered, CompletableFuture<JsonNode> release) {
    return ToolDefinition.builder("slow").description("Waits.").parameters(Json.parse("{\"type\":\"object\"}"))
        .body((args, exec) -> {
          runs.incrementAndGet();
          entered.countDown();
          return release;
        }).build();
  }

  private static HoraeRuntimeTest.Recording callThenDone(String tool) {
    return new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", tool, Json.parse("{}"))))
        .then(ModelResponse.text("done"));
  }

  private static void scheduleEveryCall(HoraeRuntime horae) {
    AtomicInteger n = new AtomicInteger();
    var unused = horae.gates().register(ToolGate.named("later",
        (call, state) -> CompletableFuture.completedFuture(GateOutcome.schedule("sched-" + n.incrementAndGet()))));
  }

  private static String lastRunFact(RuntimeAgent agent) {
    List<SessionEvent> commits = agent.session().events().stream().filter(e -> e.type().equals("gate/commit")).toList();
    return commits.get(commits.size() - 1).data().path("commit").path("run").toString();
  }

  private static <T> T get(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  @Test
  void aCancelWhileAPerformRunsItsToolEndsTheRunCancelledAtOnceAndThePerformAnswersThatEnd() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch entered = new CountDownLatch(1);
    CompletableFuture<JsonNode> release = new CompletableFuture<>();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(callThenDone("slow"))
        .dispatchScheduledActions(false).build()) {
      horae.tools().register(held(runs, entered, release));
      scheduleEveryCall(horae);
      RuntimeAgent agent = TurnEngineRulesTest.parkedAgent(horae, "s-cancel-drive");
      String runId = horae.awaiting().get(0).runId();

      CompletableFuture<ResumeOutcome> perform = horae.agents().perform(runId).toCompletableFuture();
      assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
      assertThat(get(horae.cancel(runId))).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.cancelled())));
      assertThat(lastRunFact(agent)).as("committed while the tool still runs").contains("\"cause\":\"cancelled\"");
      assertThat(perform).isNotDone();

      release.complete(Json.parse("{\"late\":true}"));
      assertThat(get(perform)).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.cancelled())));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(DurableDispatchRulesTest.lastTurnEnd(agent)).isEqualTo("aborted");
      assertThat(get(horae.agents().perform(runId))).isInstanceOf(ResumeOutcome.Rejected.class);
    }
    assertThat(runs).hasValue(1);
  }

  @Test
  void aStopWhileAnApprovedCallRunsCommitsTheStopAndTheApprovalAnswersTheStoppedEnd() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch entered = new CountDownLatch(1);
    CompletableFuture<JsonNode> release = new CompletableFuture<>();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(callThenDone("slow")).build()) {
      horae.tools().register(held(runs, entered, release));
      var unused = horae.gates().register(ToolGate.named("ask",
          (call, state) -> CompletableFuture.completedFuture(GateOutcome.requireConfirmation("confirm-1"))));
      RuntimeAgent agent = TurnEngineRulesTest.parkedAgent(horae, "s-stop-drive");
      String runId = horae.awaiting().get(0).runId();

      CompletableFuture<ResumeOutcome> approved = horae.approve(runId).toCompletableFuture();
      assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
      ResumeOutcome stopped = new ResumeOutcome.Advanced(RunState.ended(EndCause.stopped("budget")));
      assertThat(get(horae.stop(runId, "budget"))).isEqualTo(stopped);
      release.complete(Json.parse("{\"late\":true}"));

      assertThat(get(approved)).as("the committed end, not the turn's own").isEqualTo(stopped);
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(lastRunFact(agent)).contains("\"reason\":\"budget\"");
    }
    assertThat(runs).hasValue(1);
  }

  @Test
  void terminalObserversHearOfTheEndOnceItIsCommittedAndNeverOfAPark() throws Exception {
    List<String> ends = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(callThenDone("later"))
        .dispatchScheduledActions(false).build()) {
      var unusedListener = horae.agents().onTurnEnd(o -> ends.add(o.sessionId() + " " + o.reason()));
      horae.tools().register(TurnEngineRulesTest.counting("later", runs));
      scheduleEveryCall(horae);
      RuntimeAgent agent = TurnEngineRulesTest.parkedAgent(horae, "s-observed");
      assertThat(ends).as("a parked turn has not ended").isEmpty();

      assertThat(get(horae.performScheduledActions()))
          .containsExactly(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(ends).containsExactly("s-observed completed");
    }
  }

  /** A memory store that fails every persist of one session once told which. */
  private static final class FailingStore extends InterceptedStore {
    private volatile @Nullable String failing;

    @Override
    CompletionStage<Void> intercept(SessionHeader header, List<SessionEvent> log) {
      return header.id().equals(failing) ? CompletableFuture.failedFuture(new IllegalStateException("disk gone"))
          : inner.persist(header, log);
    }
  }

  @Test
  void aTurnWhoseRunEndCannotBeCommittedIsNotReportedAsEnded() throws Exception {
    List<TurnOutcome> ends = Collections.synchronizedList(new ArrayList<>());
    FailingStore store = new FailingStore();
    try (HoraeRuntime horae = HoraeRuntime.builder().store(store).clock(CLOCK).model(callThenDone("later"))
        .dispatchScheduledActions(false).warnings((m, c) -> { }).build()) {
      var unusedListener = horae.agents().onTurnEnd(ends::add);
      horae.tools().register(TurnEngineRulesTest.counting("later", new AtomicInteger()));
      scheduleEveryCall(horae);
      RuntimeAgent agent = TurnEngineRulesTest.parkedAgent(horae, "s-unflushed");
      store.failing = "s-unflushed";

      CompletableFuture<ResumeOutcome> perform = horae.agents().perform(horae.awaiting().get(0).runId()).toCompletableFuture();
      assertThat(perform).failsWithin(20, TimeUnit.SECONDS);
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(ends).isEmpty();
    }
  }

  @Test
  void chainedScheduledActionsTheRuntimeDispatchesItselfRunToTheEndWithoutAnAnswer() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "later", Json.parse("{}"))))
        .then(ModelResponse.calls(new ToolCall("c2", "later", Json.parse("{}"))))
        .then(ModelResponse.text("done"));
    CountDownLatch ended = new CountDownLatch(1);
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      horae.tools().register(TurnEngineRulesTest.counting("later", runs));
      scheduleEveryCall(horae);
      var unusedListener = horae.agents().onTurnEnd(o -> ended.countDown());
      RuntimeAgent agent = horae.openAgent("s-chained");
      horae.prompt(agent, "twice");
      assertThat(ended.await(20, TimeUnit.SECONDS)).isTrue();
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);

      assertThat(runs).hasValue(2);
      assertThat(horae.awaiting()).isEmpty();
      assertThat(lastRunFact(agent)).contains("\"naturalEnd\"");
      assertThat(agent.session().events().stream().filter(e -> e.type().equals("gate/commit"))
          .filter(e -> e.data().path("commit").path("run").path("type").asText().equals("awaiting")).count())
          .as("each step's call parked once").isEqualTo(2);
    }
  }

  @Test
  void aForkOfAParkedSessionDoesNotInheritItsTicketAndOnlyTheParentsCallIsPerformed() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(callThenDone("later"))
        .dispatchScheduledActions(false).warnings((m, c) -> { }).build()) {
      horae.tools().register(TurnEngineRulesTest.counting("later", runs));
      scheduleEveryCall(horae);
      RuntimeAgent parent = TurnEngineRulesTest.parkedAgent(horae, "s-parent");
      String parentRun = horae.awaiting().get(0).runId();

      Session child = horae.sessions().fork(parent.session(), parent.session().length(), false);
      RuntimeAgent forked = horae.openAgent(child.id());
      assertThat(forked.parked()).isFalse();
      assertThat(horae.awaiting()).extracting(c -> c.runId()).containsExactly(parentRun);

      assertThat(get(horae.performScheduledActions())).hasSize(1);
      assertThat(runs).hasValue(1);
      assertThat(get(horae.agents().perform(parentRun.replace("s-parent", child.id()))))
          .isInstanceOf(ResumeOutcome.Rejected.class);
      assertThat(runs).hasValue(1);
    }
  }
  private static HoraeRuntimeTest.Recording callsForever(HoraeRuntimeTest.Recording model, int steps) {
    for (int i = 1; i <= steps; i++) {
      model.then(ModelResponse.calls(new ToolCall("c" + i, "later", Json.parse("{}"))));
    }
    return model;
  }

  @Test
  void theStepCeilingStopsATurnAfterItsLastAllowedStepWithoutAskingTheModelAgain() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoraeRuntimeTest.Recording model = callsForever(new HoraeRuntimeTest.Recording(), 5);
    CountDownLatch ended = new CountDownLatch(1);
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).maxSteps(2).build()) {
      horae.tools().register(TurnEngineRulesTest.counting("later", runs));
      var unusedListener = horae.agents().onTurnEnd(o -> ended.countDown());
      RuntimeAgent agent = horae.openAgent("s-ceiling");
      horae.prompt(agent, "loop");
      assertThat(ended.await(20, TimeUnit.SECONDS)).isTrue();
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);

      assertThat(model.requests).hasSize(2);
      assertThat(runs).as("the last step's calls have their results").hasValue(2);
      assertThat(DurableDispatchRulesTest.lastTurnEnd(agent)).isEqualTo("blocked");
    }
  }

  @Test
  void aRunThatCommittedEndsMaxStepsAtTheCeilingCountedAcrossItsPark() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoraeRuntimeTest.Recording model = callsForever(new HoraeRuntimeTest.Recording(), 5);
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).maxSteps(2)
        .dispatchScheduledActions(false).build()) {
      horae.tools().register(TurnEngineRulesTest.counting("later", runs));
      // only the first call is scheduled; the second step's call runs at once
      var unusedGate = horae.gates().register(ToolGate.named("first", (call, state) -> CompletableFuture.completedFuture(
          call.callId().equals("c1") ? GateOutcome.schedule("sched-1") : GateOutcome.allow())));
      RuntimeAgent agent = TurnEngineRulesTest.parkedAgent(horae, "s-ceiling-run");

      assertThat(get(horae.performScheduledActions()))
          .containsExactly(new ResumeOutcome.Advanced(RunState.ended(EndCause.maxSteps())));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(lastRunFact(agent)).contains("\"maxSteps\"");
      assertThat(model.requests).hasSize(2);
      assertThat(runs).hasValue(2);
    }
  }

  @Test
  void aCeilingBelowOneIsRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> HoraeRuntime.builder().maxSteps(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("maxSteps must be at least 1: 0");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> HoraeRuntime.builder().maxSteps(-3))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("maxSteps must be at least 1: -3");
    // one is the smallest ceiling: a turn of exactly one step
    org.assertj.core.api.Assertions.assertThatCode(() -> HoraeRuntime.builder().maxSteps(1)).doesNotThrowAnyException();
  }
}

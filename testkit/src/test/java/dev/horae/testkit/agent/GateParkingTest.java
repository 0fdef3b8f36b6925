package dev.horae.testkit.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.AwaitReason;
import dev.horae.gate.PermissionDecision;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.CommitRejectedException;
import dev.horae.gate.runtime.CommittedRun;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.gate.runtime.SessionCommitStore;
import dev.horae.gate.runtime.internal.ToolWaitKind;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.runtime.gate.TurnRun;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.testkit.TestHost;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Durable gates inside the turn engine (gate specification §8.1, §9, §6.4): a
 * {@code requireConfirmation} or {@code schedule} outcome parks the turn on a committed ticket for
 * the exact call, and an answer continues that same turn.
 */
class GateParkingTest {

  private final AtomicInteger sends = new AtomicInteger();
  private final AtomicInteger reads = new AtomicInteger();

  private void tools(TestHost host) {
    host.tools().register(ToolDefinition.builder("send_email")
        .body((args, exec) -> {
          sends.incrementAndGet();
          return CompletableFuture.completedFuture(Json.parse("{\"sent\":true}"));
        })
        .build());
    host.tools().register(ToolDefinition.builder("read")
        .body((args, exec) -> {
          reads.incrementAndGet();
          return CompletableFuture.completedFuture(Json.parse("{\"read\":true}"));
        })
        .build());
  }

  private static void confirmEmails(TestHost host) {
    var unused = host.gates().register((call, state) -> CompletableFuture.completedFuture(
        call.toolId().equals("send_email") ? GateOutcome.requireConfirmation("confirm-" + call.callId()) : GateOutcome.allow()));
  }

  private static void scheduleEmails(TestHost host) {
    var unused = host.gates().register((call, state) -> CompletableFuture.completedFuture(
        call.toolId().equals("send_email") ? GateOutcome.schedule("sched-" + call.callId()) : GateOutcome.allow()));
  }

  private static final JsonNode ARGS = Json.parse("{\"to\":\"ada@example.com\"}");

  /** A host whose gate asks before every email. */
  private TestHost confirming() {
    TestHost host = TestHost.builder().build();
    tools(host);
    confirmEmails(host);
    return host;
  }

  /** The host with the tools and a gate that schedules every email. */
  private TestHost scheduling(TestHost host) {
    tools(host);
    scheduleEmails(host);
    return host;
  }

  /** An agent on {@code model} that was asked to mail Ada, settled. */
  private static TestAgent mailAda(TestHost host, ScriptedModel model) {
    TestAgent agent = host.createAgent().useModel(model);
    host.prompt(agent, "mail ada");
    host.settle();
    return agent;
  }

  @Test
  void requireConfirmationParksTheExactCallAndApprovalRunsItOnceAndContinuesTheSameTurn() {
    TestHost host = confirming();
    ScriptedModel model = new ScriptedModel().thenCall("send_email", ARGS).thenText("sent it");
    TestAgent agent = mailAda(host, model);

    assertThat(sends).hasValue(0);
    assertThat(agent.parked()).isTrue();
    List<AwaitingCall> awaiting = host.agents().awaiting();
    assertThat(awaiting).hasSize(1);
    AwaitingCall call = awaiting.get(0);
    assertThat(call.runId()).isEqualTo(TurnRun.runId(agent.session().id(), 1));
    assertThat(call.toolId()).isEqualTo("send_email");
    assertThat(call.arguments()).isEqualTo(ARGS);
    assertThat(call.reason()).isEqualTo(AwaitReason.TOOL_PERMISSION);
    assertThat(types(agent)).endsWith("tool/call", "gate/commit").doesNotContain("turn/end", "tool/result");
    assertThat(last(agent, "gate/commit").path("commit").path("run").path("type").asText()).isEqualTo("awaiting");

    CompletionStage<ResumeOutcome> outcome = host.agents().resume(agent, command(call, ResumeResult.allow()));
    host.settle();

    assertThat(sends).hasValue(1);
    assertThat(outcome.toCompletableFuture().join()).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(TurnRun.causeOf("completed"))));
    assertThat(agent.parked()).isFalse();
    assertThat(last(agent, "turn/end").path("turn").asLong()).isEqualTo(1);
    assertThat(last(agent, "turn/end").path("reason").asText()).isEqualTo("completed");
    // the model's second request carries the call and its result, side by side
    List<ChatMessage> second = model.requests().get(1).messages();
    assertThat(second.get(second.size() - 1)).isInstanceOfSatisfying(ChatMessage.ToolOutcome.class,
        r -> assertThat(r.callId()).isEqualTo(call.callId()));
    assertThat(second.get(second.size() - 2)).isInstanceOf(ChatMessage.Assistant.class);
    assertThat(decisions(agent)).containsExactly("ask", "approved");
    assertThat(host.agents().awaiting()).isEmpty();
    // the Run's terminal fact precedes turn/end, and its sealed batch keeps the call's settlement
    assertThat(types(agent)).endsWith("gate/commit", "turn/end");
    JsonNode ended = last(agent, "gate/commit").path("commit");
    assertThat(ended.path("run").path("type").asText()).isEqualTo("ended");
    assertThat(ended.path("state").get(0).path("value").path("calls").get(0).path("phase").path("type").asText())
        .isEqualTo("completed");

    ResumeOutcome again = answered(host, host.agents().resume(agent, command(call, ResumeResult.allow())));
    assertThat(again).isInstanceOfSatisfying(ResumeOutcome.Rejected.class, r -> assertThat(r.code()).isEqualTo("notAwaiting"));
    assertThat(sends).hasValue(1);
  }

  @Test
  void aDenialGivesTheModelTheBlockedResultAndTheToolNeverRuns() {
    TestHost host = confirming();
    ScriptedModel model = new ScriptedModel().thenCall("send_email", ARGS).thenText("ok, not sent");
    TestAgent agent = mailAda(host, model);
    AwaitingCall call = host.agents().awaiting().get(0);

    var unused = host.agents().resume(agent, command(call, new ResumeResult.Permission(new PermissionDecision.Deny(Optional.of("not today")))));
    host.settle();

    assertThat(sends).hasValue(0);
    SessionEvent result = agent.session().events().stream().filter(e -> e.type().equals("tool/result")).findFirst().orElseThrow();
    assertThat(result.data().path("isError").asBoolean()).isTrue();
    assertThat(result.data().path("content").get(0).path("text").asText()).isEqualTo("Error: blocked: not today");
    assertThat(decisions(agent)).containsExactly("ask", "denied");
    assertThat(last(agent, "turn/end").path("reason").asText()).isEqualTo("completed");
  }

  @Test
  void aScheduledCallIsCommittedBeforeTheDispatcherPerformsItOnce() {
    TestHost host = scheduling(TestHost.builder().build());
    TestAgent agent = mailAda(host, new ScriptedModel().thenCall("send_email", ARGS).thenText("queued and sent"));

    assertThat(sends).hasValue(1);
    List<String> types = types(agent);
    // awaiting commit, then the pre-commit that consumes the ticket, then the tool's result
    int awaiting = types.indexOf("gate/commit");
    int result = types.indexOf("tool/result");
    assertThat(awaiting).isPositive().isLessThan(result);
    assertThat(types.subList(awaiting + 1, result)).containsExactly("gate/commit");
    assertThat(decisions(agent)).containsExactly("schedule", "approved");
    assertThat(last(agent, "turn/end").path("reason").asText()).isEqualTo("completed");
    assertThat(last(agent, "gate/commit").path("commit").path("run").path("type").asText()).isEqualTo("ended");
  }

  @Test
  void theCallsAfterAParkedOneWaitAndAreGatedAfterTheAnswer() {
    TestHost host = confirming();
    ModelResponse two = ModelResponse.calls(new ToolCall("c-1", "send_email", ARGS), new ToolCall("c-2", "read", Json.parse("{}")));
    TestAgent agent = host.createAgent().useModel(new ScriptedModel().then(two).thenText("done"));
    host.prompt(agent, "mail then read");
    host.settle();
    assertThat(reads).hasValue(0);

    var unused = host.agents().resume(agent, command(host.agents().awaiting().get(0), ResumeResult.allow()));
    host.settle();

    assertThat(sends).hasValue(1);
    assertThat(reads).hasValue(1);
    List<String> callOrder = agent.session().events().stream().filter(e -> e.type().equals("tool/result"))
        .map(e -> e.data().path("callId").asText()).toList();
    assertThat(callOrder).containsExactly("c-1", "c-2");
  }

  @Test
  void inputArrivingWhileParkedWaitsForTheTurnAndIsNotLost() {
    TestHost host = confirming();
    ScriptedModel model = new ScriptedModel().thenCall("send_email", ARGS).thenText("sent").thenText("hello again");
    TestAgent agent = mailAda(host, model);
    host.prompt(agent, "are you there?");
    host.settle();
    assertThat(agent.parked()).isTrue();
    assertThat(model.requests()).hasSize(1);

    var unused = host.agents().resume(agent, command(host.agents().awaiting().get(0), ResumeResult.allow()));
    host.settle();

    assertThat(model.requests()).hasSize(3);
    assertThat(model.requests().get(2).latestUserMessages()).extracting(m -> m.text()).containsExactly("are you there?");
    assertThat(agent.session().events().stream().filter(e -> e.type().equals("turn/end")).count()).isEqualTo(2);
  }

  @Test
  void aCommandWithAnotherIdentityIsRejectedAndChangesNothing() {
    TestHost host = confirming();
    TestAgent agent = mailAda(host, new ScriptedModel().thenCall("send_email", ARGS).thenText("x"));
    AwaitingCall call = host.agents().awaiting().get(0);
    int before = agent.session().events().size();

    ResumeCommand wrong = ResumeCommand.of("another-correlation", call.runId(), call.sessionId(), call.ticket().snapshotId(),
        call.ticket().catalogFingerprint(), ResumeResult.allow(), 0L);
    ResumeOutcome outcome = answered(host, host.agents().resume(agent, wrong));

    assertThat(outcome).isInstanceOfSatisfying(ResumeOutcome.Rejected.class, r -> assertThat(r.code()).isEqualTo("correlationMismatch"));
    assertThat(agent.session().events()).hasSize(before);
    assertThat(agent.parked()).isTrue();
    assertThat(sends).hasValue(0);
  }

  @Test
  void aChangedToolCatalogRejectsTheResumeAndKeepsTheTicket() {
    TestHost host = confirming();
    TestAgent agent = mailAda(host, new ScriptedModel().thenCall("send_email", ARGS).thenText("x"));
    AwaitingCall call = host.agents().awaiting().get(0);
    host.tools().register(ToolDefinition.builder("delete_everything").body((a, e) -> CompletableFuture.completedFuture(a)).build());

    ResumeOutcome outcome = answered(host, host.agents().resume(agent, command(call, ResumeResult.allow())));

    assertThat(outcome).isInstanceOfSatisfying(ResumeOutcome.Rejected.class, r -> assertThat(r.code()).isEqualTo("fingerprintMismatch"));
    assertThat(host.agents().awaiting()).hasSize(1);
    assertThat(sends).hasValue(0);
  }

  @Test
  void ofTwoAnswersToOneTicketOnlyTheFirstRunsTheTool() {
    TestHost host = confirming();
    TestAgent agent = mailAda(host, new ScriptedModel().thenCall("send_email", ARGS).thenText("x"));
    AwaitingCall call = host.agents().awaiting().get(0);

    // both answers arrive before the first one's continuation has run a single stage
    CompletionStage<ResumeOutcome> first = host.agents().resume(agent, command(call, ResumeResult.allow()));
    CompletionStage<ResumeOutcome> second = host.agents().resume(agent, command(call, ResumeResult.allow()));
    host.settle();

    assertThat(first.toCompletableFuture().join()).isInstanceOf(ResumeOutcome.Advanced.class);
    assertThat(second.toCompletableFuture().join()).isInstanceOfSatisfying(ResumeOutcome.Rejected.class,
        r -> assertThat(r.code()).isEqualTo("notAwaiting"));
    assertThat(sends).hasValue(1);
    // the losing answer left the agent to the winner: the turn ended and the agent is idle
    assertThat(agent.parked()).isFalse();
    assertThat(agent.status()).isEqualTo(AgentStatus.IDLE);
  }

  @Test
  void eachParkedCallIsAnnouncedOnceWhenItCanBeAnsweredAndAgainWhenItsAgentIsReopened() {
    TestHost host = confirming();
    List<AwaitingCall> announced = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<Integer> listedAtAnnouncement = new java.util.concurrent.CopyOnWriteArrayList<>();
    var unusedListener = host.agents().onAwaiting(c -> {
      announced.add(c);
      listedAtAnnouncement.add(host.agents().awaiting().size());
    });
    TestAgent agent = mailAda(host, new ScriptedModel().thenCall("send_email", ARGS).thenText("sent it"));

    assertThat(announced).singleElement().satisfies(c -> {
      assertThat(c.toolId()).isEqualTo("send_email");
      assertThat(c.arguments()).isEqualTo(ARGS);
      assertThat(c.reason()).isEqualTo(AwaitReason.TOOL_PERMISSION);
    });
    // announced only once the ticket is durable and the agent parked: it can be answered at once
    assertThat(listedAtAnnouncement).containsExactly(1);

    String sessionId = agent.session().id();
    TestHost after = host.restart();
    tools(after);
    confirmEmails(after);
    List<AwaitingCall> again = new java.util.concurrent.CopyOnWriteArrayList<>();
    var unusedAgain = after.agents().onAwaiting(again::add);
    TestAgent reopened = after.agentFor(after.sessions().get(sessionId).orElseThrow())
        .useModel(new ScriptedModel().thenText("sent after the restart"));
    assertThat(again).singleElement().satisfies(c -> assertThat(c.runId()).isEqualTo(announced.get(0).runId()));

    var unused = answered(after, after.agents().resume(reopened, command(again.get(0), ResumeResult.allow())));
    after.settle();
    assertThat(sends).hasValue(1);
    assertThat(again).hasSize(1);
  }

  @Test
  void aParkedTurnSurvivesARestartAndIsAnsweredThere() {
    TestHost host = confirming();
    TestAgent agent = mailAda(host, new ScriptedModel().thenCall("send_email", ARGS));
    String sessionId = agent.session().id();

    TestHost after = host.restart();
    tools(after);
    confirmEmails(after);
    TestAgent reopened = after.agentFor(after.sessions().get(sessionId).orElseThrow())
        .useModel(new ScriptedModel().thenText("sent after the restart"));
    assertThat(reopened.parked()).isTrue();
    assertThat(last(reopened, "turn/end").isMissingNode()).isTrue();

    var unused = after.agents().resume(reopened, command(after.agents().awaiting().get(0), ResumeResult.allow()));
    after.settle();

    assertThat(sends).hasValue(1);
    assertThat(last(reopened, "turn/end").path("reason").asText()).isEqualTo("completed");
  }

  @Test
  void aScheduledActionLeftByAStoppedProcessIsPerformedOnceByTheReopenedAgent() {
    TestHost host = scheduling(TestHost.builder().dispatchScheduledActions(false).build());
    TestAgent agent = mailAda(host, new ScriptedModel().thenCall("send_email", ARGS));
    assertThat(sends).hasValue(0);
    String sessionId = agent.session().id();

    TestHost after = host.restart(true);
    tools(after);
    scheduleEmails(after);
    TestAgent reopened = after.agentFor(after.sessions().get(sessionId).orElseThrow()).useModel(new ScriptedModel().thenText("sent"));
    after.settle();
    after.settle();

    assertThat(sends).hasValue(1);
    assertThat(reopened.parked()).isFalse();
    assertThat(last(reopened, "turn/end").path("reason").asText()).isEqualTo("completed");
  }

  @Test
  void aTurnCutWhileItsApprovedCallRanIsClosedInterruptedWithAnUnknownOutcome() {
    TestHost host = TestHost.builder().build();
    host.tools().register(ToolDefinition.builder("send_email")
        .body((args, exec) -> new CompletableFuture<>())
        .build());
    confirmEmails(host);
    TestAgent agent = mailAda(host, new ScriptedModel().thenCall("send_email", ARGS));
    var unused = host.agents().resume(agent, command(host.agents().awaiting().get(0), ResumeResult.allow()));
    host.settle();
    assertThat(host.sessions().flush(agent.session()).toCompletableFuture().join()).isTrue();
    String sessionId = agent.session().id();

    TestHost after = host.restart();
    TestAgent reopened = after.agentFor(after.sessions().get(sessionId).orElseThrow());

    assertThat(reopened.parked()).isFalse();
    assertThat(last(reopened, "tool/result").path("content").get(0).path("text").asText())
        .startsWith("Error: tool outcome unknown");
    assertThat(last(reopened, "turn/end").path("reason").asText()).isEqualTo("interrupted");
    assertThat(last(reopened, "gate/commit").path("commit").path("run").path("type").asText()).isEqualTo("ended");
    assertThat(after.agents().awaiting()).isEmpty();
  }

  @Test
  void aScheduleNamingAnActionKindIsRefusedNoCallRunsAndTheRunEndsCapabilityBound() {
    TestHost host = TestHost.builder().build();
    tools(host);
    var unused = host.gates().register((call, state) -> CompletableFuture.completedFuture(
        GateOutcome.schedule("sched-" + call.callId(), "payment")));
    TestAgent agent = mailAda(host, new ScriptedModel().thenCall("send_email", ARGS).thenText("x"));

    assertThat(sends).hasValue(0);
    assertThat(agent.parked()).isFalse();
    assertThat(host.agents().awaiting()).isEmpty();
    assertThat(last(agent, "turn/end").path("reason").asText()).isEqualTo("error");
    JsonNode run = last(agent, "gate/commit").path("commit").path("run");
    assertThat(run.path("type").asText()).isEqualTo("ended");
    assertThat(run.toString()).contains("capability_bound");
    assertThat(last(agent, "tool/result").path("content").get(0).path("text").asText())
        .isEqualTo("Error: blocked: action kind payment is not permitted for tool send_email");
  }

  @Test
  void thePreCommitIsFencedByTheRunHeadSoAStaleAnswerCannotConsumeTheTicketAgain() {
    TestHost host = confirming();
    TestAgent agent = mailAda(host, new ScriptedModel().thenCall("send_email", ARGS).thenText("x"));
    AwaitingCall call = host.agents().awaiting().get(0);
    SessionCommitStore commits = SessionCommitStore.over(host.sessions()::get);
    commits.track(agent.session());
    CommittedRun parked = commits.view().committedRun(call.runId()).orElseThrow();
    ToolCall waiting = call.ticket().toolCall().orElseThrow();

    // two writers read the same committed head; the first one's pre-commit lands
    TurnRun first = TurnRun.committed(commits, parked);
    TurnRun stale = TurnRun.committed(commits, parked);
    first.approve(waiting, ToolWaitKind.TOOL_PERMISSION, call.ticket().correlationId()).toCompletableFuture().join();
    int before = agent.session().events().size();

    assertThatThrownBy(() -> stale.approve(waiting, ToolWaitKind.TOOL_PERMISSION, call.ticket().correlationId())
        .toCompletableFuture().join())
        .hasCauseInstanceOf(CommitRejectedException.class)
        .cause().satisfies(e -> assertThat(((CommitRejectedException) e).code()).isEqualTo("runHeadMoved"));
    assertThat(agent.session().events()).hasSize(before);
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** The outcome once the host has run everything runnable: an answer never waits on wall time. */
  private static ResumeOutcome answered(TestHost host, CompletionStage<ResumeOutcome> stage) {
    host.settle();
    CompletableFuture<ResumeOutcome> f = stage.toCompletableFuture();
    assertThat(f).as("answered once the host settled").isDone();
    return f.join();
  }

  private static ResumeCommand command(AwaitingCall call, ResumeResult result) {
    return ResumeCommand.fromTicket(call.ticket(), result, 0L);
  }

  private static List<String> types(TestAgent agent) {
    return agent.session().events().stream().map(SessionEvent::type).toList();
  }

  private static JsonNode last(TestAgent agent, String type) {
    List<SessionEvent> events = agent.session().events();
    for (int i = events.size() - 1; i >= 0; i--) {
      if (events.get(i).type().equals(type)) {
        return events.get(i).data();
      }
    }
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  private static List<String> decisions(TestAgent agent) {
    return agent.session().events().stream().filter(e -> e.type().equals("gate/commit"))
        .flatMap(e -> java.util.stream.StreamSupport.stream(e.data().path("commit").path("events").spliterator(), false))
        .filter(e -> e.path("type").asText().equals("permissionDecided"))
        .map(e -> e.path("decision").asText()).toList();
  }

  @Test
  void theTestHostRefusesADeadlineTheRuntimeRefuses() {
    // one check of the limits for both builders (TurnLimits), so a test host cannot be set up
    // with a deadline the production runtime would refuse
    assertThatThrownBy(() -> TestHost.builder().awaitDeadline(java.time.Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("awaitDeadline must be more than zero: PT0S");
  }
}

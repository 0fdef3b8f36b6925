package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.gate.AwaitTarget;
import dev.horae.gate.EndCause;
import dev.horae.gate.GateJsonException;
import dev.horae.gate.PendingTool;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.ToolAwaitReason;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The scheduled-action due index over session logs written by the session commit store: a session
 * is due at the commit time of its earliest active scheduled-action ticket, and not due once every
 * such ticket is consumed (a Run's {@code running} pre-commit or its end), whatever else the log
 * holds. The Runs' facts are committed directly, as an engine would commit them, so the index is
 * tested here without one; the runtime module's scheduled-action suites run it under the engine.
 */
class ScheduledActionDueIndexTest {

  private final LogHost host = LogHost.create();
  private final Session session = host.sessions().create(CreateOptions.DEFAULT);
  private final SessionCommitStore store = SessionCommitStore.over(host.sessions()::get, host.sessions()::flush);

  private SessionHeader header() {
    return SessionHeader.root(session.id(), 0, Optional.empty());
  }

  /** The answer of a fresh tracker fed the whole log, and of one fed it event by event. */
  private static OptionalLong due(SessionHeader header, List<SessionEvent> log) {
    OptionalLong whole = ScheduledActionDueIndex.track(header).apply(log);
    Function<List<SessionEvent>, OptionalLong> stepwise = ScheduledActionDueIndex.track(header);
    OptionalLong last = stepwise.apply(List.of());
    for (SessionEvent e : log) {
      last = stepwise.apply(List.of(e));
    }
    assertThat(last).as("incremental answer").isEqualTo(whole);
    return whole;
  }

  private OptionalLong due() {
    return due(header(), session.events());
  }

  private void commit(RunDisposition run, CommitConditions conditions) {
    var unused = store.commit(new ThreadCommit(session.id(), run, List.of(), List.of(), List.of()), conditions)
        .toCompletableFuture().join();
  }

  /** Parks {@code runId} on a call of {@code reason}; returns the parking commit's time. */
  private long park(String runId, ToolAwaitReason reason) {
    ResumeTicket t = ResumeTicket.of("c-" + runId, runId, session.id(), "snapshot-1", "fp",
        AwaitTarget.toolCall(reason, "call-1", new PendingTool("echo", Json.parse("{}"))));
    commit(new RunDisposition.Awaiting(t), CommitConditions.none());
    return session.events().get(session.events().size() - 1).time();
  }

  /** The perform's pre-commit: conditioned on the Run's head, it consumes the ticket. */
  private void preCommit(String runId) {
    commit(new RunDisposition.Running(runId),
        CommitConditions.expectingHead(store.view().run(runId).orElseThrow().headSequence()));
  }

  private void end(String runId) {
    commit(new RunDisposition.Ended(runId, EndCause.naturalEnd()),
        CommitConditions.expectingHead(store.view().run(runId).orElseThrow().headSequence()));
  }

  @Test
  void aSessionIsDueAtItsEarliestActiveScheduledActionAndNotDueOncePerformed() {
    assertThat(due()).isEmpty();

    long first = park("run-1", ToolAwaitReason.SCHEDULED_ACTION);
    assertThat(due()).hasValue(first);

    host.advance(Duration.ofMinutes(5));
    long second = park("run-2", ToolAwaitReason.SCHEDULED_ACTION);
    assertThat(second).isGreaterThan(first);
    // two active tickets: the earlier one decides
    assertThat(due()).hasValue(first);

    // run-1's pre-commit consumes its ticket: the later one is left
    preCommit("run-1");
    assertThat(due()).hasValue(second);
    end("run-1");
    assertThat(due()).hasValue(second);
    preCommit("run-2");
    assertThat(due()).isEmpty();
    end("run-2");
    assertThat(due()).isEmpty();
  }

  @Test
  void aRunEndedWhileParkedConsumesItsTicketToo() {
    park("run-1", ToolAwaitReason.SCHEDULED_ACTION);
    end("run-1");
    assertThat(due()).isEmpty();
  }

  @Test
  void aCallWaitingForConfirmationIsNotDue() {
    park("run-1", ToolAwaitReason.PERMISSION);
    assertThat(store.view().resumeTicket("run-1")).isPresent();
    assertThat(due()).isEmpty();
  }

  @Test
  void aForksInheritedCommitsBelongToItsParentAndAreNotDue() {
    park("run-1", ToolAwaitReason.SCHEDULED_ACTION);
    List<SessionEvent> log = session.events();
    SessionHeader child = header().forkChild("child", 1, log.size());
    assertThat(due(header(), log)).isPresent();
    assertThat(due(child, log)).isEmpty();
  }

  @Test
  void aCorruptCommitThrowsAsTheCommitStoresFoldWould() {
    Function<List<SessionEvent>, OptionalLong> tracker =
        ScheduledActionDueIndex.track(SessionHeader.root("s", 0, Optional.empty()));
    assertThat(tracker.apply(List.of(SessionEvent.of(0, "turn/start", 1, Json.parse("{\"turn\":1}"))))).isEmpty();
    assertThatThrownBy(() -> tracker.apply(List.of(
        SessionEvent.of(1, "gate/commit", 2, Json.parse("{\"sequence\":1,\"commit\":{\"threadId\":\"s\"}}")))))
        .isInstanceOf(GateJsonException.class);
  }
}

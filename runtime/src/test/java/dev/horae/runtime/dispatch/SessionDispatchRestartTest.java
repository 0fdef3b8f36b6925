package dev.horae.runtime.dispatch;

import static dev.horae.runtime.dispatch.DispatchRig.run;
import static dev.horae.runtime.dispatch.DispatchRig.tick;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.EndCause;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.DispatchClaim;
import dev.horae.gate.runtime.DispatchRecord;
import dev.horae.gate.runtime.DispatchStatus;
import dev.horae.gate.runtime.DispatcherOptions;
import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.session.SessionEvent;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session-log dispatch backend across a process restart (gate specification §12.3, §12.5.6)
 * on the production turn engine: the file store is reopened, a new runtime opens the stored
 * sessions' agents and its queue tracks them.
 */
@Timeout(60)
class SessionDispatchRestartTest {

  static final long LEASE = 30_000;
  static final DispatcherOptions OPTIONS = DispatcherOptions.withLease(LEASE);

  @TempDir
  Path dir;

  private DispatchRig rig;

  @BeforeEach
  void open() {
    rig = DispatchRig.of(DispatchRig.Kind.FILE, dir);
  }

  @AfterEach
  void close() {
    rig.close();
  }

  private List<SessionEvent> dispatchFacts() {
    return rig.events("run-1", "gate/dispatch");
  }

  @Test
  void theOutboxFactIsAppendedWithTheCommitInOneAppend() throws Exception {
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    List<SessionEvent> facts = dispatchFacts();
    assertThat(facts).hasSize(1);
    SessionEvent enqueue = facts.get(0);
    assertThat(enqueue.data().path("op").asText()).isEqualTo("enqueue");
    assertThat(enqueue.data().path("runId").asText()).isEqualTo(run("run-1"));
    List<SessionEvent> all = rig.session("run-1").events();
    SessionEvent before = all.get(all.indexOf(enqueue) - 1);
    assertThat(before.type()).isEqualTo("gate/commit");
    assertThat(before.data().path("commit").path("run").path("type").asText()).isEqualTo("awaiting");
  }

  @Test
  void aClaimFoundRunningAtOpenCountsAsExpiredAndItsAttemptCountSurvives() throws Exception {
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    DispatchClaim dead = rig.queue.claim("dead-owner", LEASE, rig.now(), 5).orElseThrow();
    rig.restart();
    // the clock has not moved: only the open rule makes the claim recoverable
    DispatchRecord found = rig.queue.record(run("run-1")).orElseThrow();
    assertThat(found.status()).isEqualTo(DispatchStatus.RUNNING);
    assertThat(found.epoch()).isEqualTo(dead.epoch());
    assertThat(found.leaseExpiresMs()).isEmpty();
    DispatchClaim again = rig.queue.claim("owner-2", LEASE, rig.now(), 5).orElseThrow();
    assertThat(again.recovery()).isTrue();
    assertThat(again.attemptCount()).isEqualTo(1);
    assertThat(again.epoch()).isEqualTo(dead.epoch() + 1);
    rig.restart();
    assertThat(rig.queue.record(run("run-1")).orElseThrow().attemptCount()).isEqualTo(1);
    DurableDispatcher.Attempt a = tick(rig.dispatcher("owner-3", OPTIONS));
    assertThat(a.claim().attemptCount()).as("the retry budget survives restarts").isEqualTo(2);
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(RunState.ended(EndCause.naturalEnd()));
    assertThat(rig.toolRuns).hasValue(1);
    assertThat(dispatchFacts()).extracting(e -> e.data().path("op").asText())
        .containsExactly("enqueue", "claim", "claim", "claim", "settle");
  }

  @Test
  void inboxCommandsAndCancelIntentsSurviveARestart() throws Exception {
    rig.confirmEveryCall();
    rig.execute("run-1", "go");
    DurableDispatcher d = rig.dispatcher("owner-1", OPTIONS);
    d.submitResume(ResumeCommand.fromTicket(rig.commits().view().resumeTicket(run("run-1")).orElseThrow(),
        ResumeResult.allow(), rig.now()));
    d.cancel(run("run-1"), "run-1");
    rig.restart();
    assertThat(rig.queue.resumes(run("run-1"))).hasSize(1);
    assertThat(rig.queue.record(run("run-1")).orElseThrow().cancelRequested()).isTrue();
    DurableDispatcher.Attempt a = tick(rig.dispatcher("owner-2", OPTIONS));
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(RunState.ended(EndCause.cancelled()));
    assertThat(rig.toolRuns).hasValue(0);
  }

  @Test
  void aCrashAfterThePreCommitIsRecoveredAfterReopeningAndTheToolIsNotRunAgain() throws Exception {
    // DUR-03 across a restart: the first attempt died inside the tool; reopening the session closes
    // the cut turn interrupted (the runtime never replays a call), and the recovery claim settles it
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    rig.holdTools(new CompletableFuture<JsonNode>());
    DurableDispatcher first = rig.dispatcher("owner-1", OPTIONS.renewingEvery(0));
    assertThat(first.tick().toCompletableFuture()).isNotDone();
    rig.awaitToolEntries(1);
    rig.restart();
    rig.tool = DispatchRig::echo;
    DurableDispatcher.Attempt a = tick(rig.dispatcher("owner-2", OPTIONS));
    assertThat(a.claim().recovery()).isTrue();
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(RunState.ended(EndCause.stopped("interrupted")));
    assertThat(rig.toolRuns).hasValue(1);
    assertThat(rig.queue.record(run("run-1"))).isEmpty();
  }

  @Test
  void startReconcilesTicketsCommittedWithoutADispatchQueue() throws Exception {
    // a log from before the dispatch facts existed: commits only, no outbox entry
    rig.scheduleEveryCall();
    HoraeRuntime old = rig.withoutQueue();
    rig.execute(old, "run-1", "go");
    assertThat(old.awaiting()).singleElement().satisfies(c -> assertThat(c.runId()).isEqualTo(run("run-1")));
    assertThat(old.closeSession("run-1")).isTrue();
    old.close();

    var unused = rig.horae.openAgent("run-1");
    assertThat(dispatchFacts()).isEmpty();
    assertThat(rig.queue.record(run("run-1"))).isEmpty();
    DurableDispatcher d = rig.dispatcher("owner-1").build();
    d.start();
    rig.runWork(1);
    rig.awaitIdle("run-1");
    assertThat(rig.state("run-1")).contains(RunState.ended(EndCause.naturalEnd()));
    assertThat(rig.toolRuns).hasValue(1);
    assertThat(dispatchFacts().get(0).data().path("op").asText()).isEqualTo("enqueue");
    d.close();
  }

  @Test
  void reconciliationRunsAgainEveryInterval() throws Exception {
    rig.scheduleEveryCall();
    DispatcherOptions opts = DispatcherOptions.defaults().reconcilingEvery(5_000).pollingEvery(60_000);
    DurableDispatcher d = rig.dispatcher("owner-1", opts);
    d.start();
    rig.runWork();
    // a writer outside the queue's store commits a ticket: no outbox entry, only reconciliation finds it
    HoraeRuntime old = rig.withoutQueue();
    rig.execute(old, "run-1", "go");
    assertThat(old.closeSession("run-1")).isTrue();
    old.close();
    var unused = rig.horae.openAgent("run-1");
    rig.clock.advance(4_999);
    rig.runWork();
    assertThat(rig.queue.record(run("run-1"))).isEmpty();
    rig.clock.advance(1);
    while (!rig.state("run-1").map(RunState::isTerminal).orElse(false)) {
      rig.runWork(1);
    }
    assertThat(rig.state("run-1")).contains(RunState.ended(EndCause.naturalEnd()));
    d.close();
  }

  @Test
  void aSessionWhoseTurnIsOverStillGivesTheRestartedQueueItsRecord() throws Exception {
    // the worker ended the Run (its turn is over) and died before it settled the record: the
    // session has no open turn, yet its record must reach the new node's queue, or nobody would
    // ever settle it
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    DispatchClaim dead = rig.queue.claim("dead-owner", LEASE, rig.now(), 5).orElseThrow();
    assertThat(rig.horae.agents().perform(run("run-1"), rig.now(),
            java.util.Optional.of(new dev.horae.gate.runtime.ClaimGuard(dead.fence(), () -> true)))
        .toCompletableFuture().get(DispatchRig.BOUND_S, java.util.concurrent.TimeUnit.SECONDS))
        .isInstanceOf(dev.horae.gate.runtime.ResumeOutcome.Advanced.class);
    rig.awaitIdle("run-1");
    assertThat(rig.state("run-1")).contains(RunState.ended(EndCause.naturalEnd()));

    rig.restart();
    assertThat(rig.queue.record(run("run-1"))).as("the reopened session folded its dispatch facts").isPresent();
    DurableDispatcher.Attempt a = tick(rig.dispatcher("owner-b", OPTIONS));
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.queue.record(run("run-1"))).isEmpty();
    assertThat(rig.toolRuns).hasValue(1);
    assertThat(rig.endedFacts("run-1")).hasSize(1);
  }
}

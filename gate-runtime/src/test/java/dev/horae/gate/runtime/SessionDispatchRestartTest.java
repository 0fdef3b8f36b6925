package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.EndCause;
import dev.horae.gate.RunState;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session-log dispatch backend across a process restart (gate specification §12.3, §12.5.6):
 * the log is reopened from a file store and a fresh queue tracks the resumed sessions.
 */
class SessionDispatchRestartTest {

  static final long LEASE = 30_000;

  @TempDir
  Path dir;

  private final List<DispatchRig> rigs = new java.util.ArrayList<>();

  private DispatchRig open() {
    DispatchRig rig = DispatchRig.onFiles(dir);
    rigs.add(rig);
    return rig;
  }

  @org.junit.jupiter.api.AfterEach
  void close() {
    rigs.forEach(DispatchRig::close);
  }

  private static List<SessionEvent> dispatchFacts(Session s) {
    return s.events().stream().filter(e -> e.type().equals("gate/dispatch")).toList();
  }

  @Test
  void theOutboxFactIsAppendedWithTheCommitInOneAppend() {
    DispatchRig rig = open();
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    Session s = rig.host.sessions().get(rig.thread).orElseThrow();
    List<SessionEvent> facts = dispatchFacts(s);
    assertThat(facts).hasSize(1);
    SessionEvent enqueue = facts.get(0);
    assertThat(enqueue.data().path("op").asText()).isEqualTo("enqueue");
    assertThat(enqueue.data().path("runId").asText()).isEqualTo("run-1");
    SessionEvent before = s.events().get((int) enqueue.seq() - 1);
    assertThat(before.type()).isEqualTo("gate/commit");
    assertThat(before.data().path("commit").path("run").path("type").asText()).isEqualTo("awaiting");
  }

  @Test
  void aClaimFoundRunningAtOpenCountsAsExpiredAndItsAttemptCountSurvives() {
    DispatchRig rig = open();
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    DispatchClaim dead = rig.queue.claim("dead-owner", LEASE, rig.now(), 5).orElseThrow();
    rig.reopen();
    // the clock has not moved: only the open rule makes the claim recoverable
    DispatchRecord found = rig.queue.record("run-1").orElseThrow();
    assertThat(found.status()).isEqualTo(DispatchStatus.RUNNING);
    assertThat(found.epoch()).isEqualTo(dead.epoch());
    assertThat(found.leaseExpiresMs()).isEmpty();
    DispatchClaim again = rig.queue.claim("owner-2", LEASE, rig.now(), 5).orElseThrow();
    assertThat(again.recovery()).isTrue();
    assertThat(again.attemptCount()).isEqualTo(1);
    assertThat(again.epoch()).isEqualTo(dead.epoch() + 1);
    rig.reopen();
    assertThat(rig.queue.record("run-1").orElseThrow().attemptCount()).isEqualTo(1);
    DurableDispatcher.Attempt a = rig.dispatcher("owner-3", DispatcherOptions.withLease(LEASE)).tick()
        .toCompletableFuture().join().orElseThrow();
    assertThat(a.claim().attemptCount()).as("the retry budget survives restarts").isEqualTo(2);
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(RunState.ended(EndCause.naturalEnd()));
    assertThat(rig.toolRuns).hasValue(1);
    assertThat(dispatchFacts(rig.host.sessions().get(rig.thread).orElseThrow()))
        .extracting(e -> e.data().path("op").asText())
        .containsExactly("enqueue", "claim", "claim", "claim", "settle");
  }

  @Test
  void inboxCommandsAndCancelIntentsSurviveARestart() {
    DispatchRig rig = open();
    rig.confirmEveryCall();
    DurableDispatcher d = rig.dispatcher("owner-1", DispatcherOptions.withLease(LEASE));
    d.submit(rig.activation("run-1", "go"));
    d.tick().toCompletableFuture().join();
    d.submitResume(dev.horae.gate.ResumeCommand.fromTicket(rig.store().view().resumeTicket("run-1").orElseThrow(),
        dev.horae.gate.ResumeResult.allow(), rig.now()));
    d.cancel("run-1", rig.thread);
    rig.reopen();
    assertThat(rig.queue.resumes("run-1")).hasSize(1);
    assertThat(rig.queue.record("run-1").orElseThrow().cancelRequested()).isTrue();
    DurableDispatcher.Attempt a = rig.dispatcher("owner-2", DispatcherOptions.withLease(LEASE)).tick()
        .toCompletableFuture().join().orElseThrow();
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(rig.state("run-1")).contains(RunState.ended(EndCause.cancelled()));
    assertThat(rig.toolRuns).hasValue(0);
  }

  @Test
  void aCrashAfterThePreCommitIsRecoveredAfterReopening() {
    // DUR-03 across a process restart: the first attempt died inside the tool
    DispatchRig rig = open();
    rig.scheduleEveryCall();
    rig.execute("run-1", "go");
    rig.holdTools(new java.util.concurrent.CompletableFuture<>());
    DurableDispatcher first = rig.dispatcher("owner-1", DispatcherOptions.withLease(LEASE).renewingEvery(0));
    assertThat(first.tick().toCompletableFuture()).isNotDone();
    rig.reopen();
    rig.tool = rig::echo;
    DurableDispatcher.Attempt a = rig.dispatcher("owner-2", DispatcherOptions.withLease(LEASE)).tick()
        .toCompletableFuture().join().orElseThrow();
    assertThat(a.claim().recovery()).isTrue();
    assertThat(rig.state("run-1")).contains(RunState.ended(EndCause.naturalEnd()));
    assertThat(rig.toolRuns).hasValue(1);
  }

  @Test
  void startReconcilesTicketsCommittedWithoutADispatchQueue() {
    // a log from before the dispatch facts existed: commits only, no outbox entry
    LogHost host = LogHost.create();
    Fixture old = new Fixture(host, List.of(), java.util.Set.of());
    old.gate(Fixture.scheduling("sched-1"));
    assertThat(old.execute("run-1")).isEqualTo(RunState.awaiting());
    assertThat(dispatchFacts(old.session)).isEmpty();

    SessionDispatchQueue q = SessionDispatchQueue.over(host.sessions()::get, host.sessions()::flush);
    q.track(old.session);
    assertThat(q.record("run-1")).isEmpty();
    ManualTimers timers = new ManualTimers(host);
    java.util.ArrayDeque<Runnable> work = new java.util.ArrayDeque<>();
    DurableDispatcher d = DurableDispatcher.builder(old.runtime, q).clock(host.clock()).timers(timers)
        .executor(work::add).owner("owner-1").build();
    d.start();
    Runnable r;
    while ((r = work.poll()) != null) {
      r.run();
    }
    assertThat(q.store().view().runState("run-1")).contains(RunState.ended(EndCause.naturalEnd()));
    assertThat(old.toolRuns).hasValue(1);
    JsonNode reconciled = dispatchFacts(old.session).get(0).data();
    assertThat(reconciled.path("op").asText()).isEqualTo("enqueue");
    d.close();
  }

  @Test
  void reconciliationRunsAgainEveryInterval() {
    LogHost host = LogHost.create();
    Fixture old = new Fixture(host, List.of(), java.util.Set.of());
    old.gate(Fixture.scheduling("sched-1"));
    SessionDispatchQueue q = SessionDispatchQueue.over(host.sessions()::get, host.sessions()::flush);
    q.track(old.session);
    ManualTimers timers = new ManualTimers(host);
    java.util.ArrayDeque<Runnable> work = new java.util.ArrayDeque<>();
    DispatcherOptions opts = DispatcherOptions.defaults().reconcilingEvery(5_000).pollingEvery(60_000);
    DurableDispatcher d = DurableDispatcher.builder(old.runtime, q).clock(host.clock()).timers(timers)
        .executor(work::add).owner("owner-1").options(opts).build();
    d.start();
    drain(work);
    // a writer outside the queue's store commits a ticket: no outbox entry, only reconciliation finds it
    assertThat(old.execute("run-1")).isEqualTo(RunState.awaiting());
    timers.advance(4_999);
    drain(work);
    assertThat(q.record("run-1")).isEmpty();
    timers.advance(1);
    drain(work);
    assertThat(q.store().view().runState("run-1")).contains(RunState.ended(EndCause.naturalEnd()));
    d.close();
  }

  private static void drain(java.util.ArrayDeque<Runnable> work) {
    Runnable r;
    while ((r = work.poll()) != null) {
      r.run();
    }
  }
}

package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.gate.EndCause;
import dev.horae.gate.RunState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class RestartAndRaceTest {

  @Test
  void aNewRuntimeRediscoversTheCommittedTicketFromThePersistedLogAndPerformsItOnce() {
    LogHost host = LogHost.create();
    Fixture first = new Fixture(host, List.of(), java.util.Set.of());
    first.gate(Fixture.scheduling("sched-1"));
    assertThat(first.execute("run-1")).isEqualTo(RunState.awaiting());
    assertThat(first.toolRuns).hasValue(0);

    // drop the runtime and every live structure; resume the sessions from the persisted copy
    LogHost restarted = host.restart();
    Fixture second = new Fixture(restarted, List.of(), java.util.Set.of());
    ScheduledActionDispatcher dispatcher =
        ScheduledActionDispatcher.create(second.runtime, second.ctx(), restarted.clock());

    DispatchReport report = dispatcher.start(restarted.sessions().list()).toCompletableFuture().join();
    Map<String, ResumeOutcome> performed = report.performed();
    assertThat(report.failed()).isEmpty();

    assertThat(performed).containsOnlyKeys("run-1");
    assertThat(performed.get("run-1")).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
    assertThat(second.toolRuns).hasValue(1);
    assertThat(second.operationIds).containsExactly("tool-batch:run-1:1:call-1");

    ResumeOutcome again = second.perform("run-1");
    assertThat(again).isInstanceOf(ResumeOutcome.Rejected.class);
    assertThat(((ResumeOutcome.Rejected) again).code()).isEqualTo("notAwaiting");
    assertThat(first.toolRuns.get() + second.toolRuns.get()).isEqualTo(1);
    assertThat(dispatcher.drain().toCompletableFuture().join().performed()).isEmpty();
  }

  @Test
  void aForkDoesNotInheritTheParentsCommittedTickets() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    f.execute("run-1");
    dev.horae.spi.session.Session child = f.host.sessions().fork(f.session, f.session.length(), false);
    SessionCommitStore childView = SessionCommitStore.over(f.host.sessions()::get);
    childView.track(child);
    assertThat(childView.view().resumeTicket("run-1")).isEmpty();
    assertThat(childView.view().latestRun(child.id())).isEmpty();
    childView.track(f.session);
    assertThat(childView.view().resumeTicket("run-1")).isPresent();
  }

  @Test
  void twoThreadsPerformingTheSameTicketRunTheToolExactlyOnce() throws Exception {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    int runs = 100;
    for (int i = 0; i < runs; i++) {
      assertThat(f.execute("run-" + i)).isEqualTo(RunState.awaiting());
    }
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int i = 0; i < runs; i++) {
        String runId = "run-" + i;
        CyclicBarrier together = new CyclicBarrier(2);
        List<Future<ResumeOutcome>> both = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
          both.add(pool.submit(() -> {
            together.await();
            return f.perform(runId);
          }));
        }
        List<ResumeOutcome> outcomes = List.of(both.get(0).get(), both.get(1).get());
        assertThat(outcomes).as(runId + " " + outcomes).hasSize(2);
        assertThat(outcomes).as(outcomes.toString()).filteredOn(o -> o instanceof ResumeOutcome.Advanced).hasSize(1);
        assertThat(outcomes).filteredOn(o -> o instanceof ResumeOutcome.Rejected r && r.code().equals("notAwaiting"))
            .hasSize(1);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(f.toolRuns).hasValue(runs);
    assertThat(f.operationIds).doesNotHaveDuplicates();
  }

  @Test
  void aCancelDuringTheDriveWinsAndTheDriverReportsTheCommittedEnd() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    f.execute("run-1");
    CompletableFuture<dev.horae.spi.gate.ToolOutput> held = new CompletableFuture<>();
    AgentRuntime slow = AgentRuntime.builder(Fixture::script, (call, ctx) -> {
      f.toolRuns.incrementAndGet();
      return held;
    }).build();
    slow.registerSnapshot(f.runtime.snapshot(Fixture.SNAPSHOT).orElseThrow());

    CompletableFuture<ResumeOutcome> perform =
        slow.performScheduledAction("run-1", f.ctx(), 0).toCompletableFuture();
    assertThat(perform).isNotDone();
    assertThat(slow.cancelRun("run-1", f.thread(), f.ctx()).toCompletableFuture().join())
        .isEqualTo(RunState.ended(EndCause.cancelled()));
    held.complete(dev.horae.spi.gate.ToolOutput.success("call-1", dev.horae.spi.session.Json.parse("\"late\"")));

    assertThat(perform.join()).isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.cancelled())));
    assertThat(f.toolRuns).hasValue(1);
    assertThat(f.runFacts("run-1")).last().isEqualTo("ended(cancelled)");
  }
}

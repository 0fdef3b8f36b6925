package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.gate.EndCause;
import dev.horae.gate.RunState;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Gate spec §6.4 step 8 and §9.2 step 4: the pre-commit that consumes a ticket is conditioned on
 * the run head read with the ticket, and lands before the tool runs. Two performs of one ticket
 * are interleaved at a chosen point, with no race loop: exactly one runs the tool, the other is
 * rejected {@code notAwaiting} (§9.4, "concurrent perform lost the race").
 */
// a separate thread, so a join that never completes fails the test instead of hanging the run
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SingleUseTicketTest {

  private static final ResumeOutcome NOT_AWAITING =
      new ResumeOutcome.Rejected("notAwaiting", "run is not awaiting", GateRuntimeException.Category.EXECUTION);
  private static final ResumeOutcome PERFORMED = new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd()));

  /**
   * A store that, once armed, runs an action just before the next commit reaches the real store:
   * the committer has already read the view it conditions its commit on.
   */
  private static final class InterleavingStore implements CommitStore {
    private final CommitStore inner;
    private Optional<Runnable> beforeNextCommit = Optional.empty();

    InterleavingStore(CommitStore inner) {
      this.inner = inner;
    }

    void arm(Runnable action) {
      beforeNextCommit = Optional.of(action);
    }

    @Override
    public CompletionStage<CommitRecord> commit(ThreadCommit commit, CommitConditions conditions) {
      Optional<Runnable> action = beforeNextCommit;
      beforeNextCommit = Optional.empty();
      action.ifPresent(Runnable::run);
      return inner.commit(commit, conditions);
    }

    @Override
    public CommittedThreadView view() {
      return inner.view();
    }
  }

  @Test
  void ofTwoPerformsThatBothReadTheTicketOnlyThePreCommitThatLandsFirstRunsTheTool() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    assertThat(f.execute("run-1")).isEqualTo(RunState.awaiting());
    // the first tool run is held, so the winner stays between its pre-commit and its result
    CompletableFuture<ToolOutput> heldTool = new CompletableFuture<>();
    AtomicInteger toolRuns = new AtomicInteger();
    AgentRuntime runtime =
        AgentRuntime.builder(
                Fixture::script,
                (call, ctx) ->
                    toolRuns.incrementAndGet() == 1
                        ? heldTool
                        : CompletableFuture.completedFuture(
                            ToolOutput.success(call.callId(), Json.parse("\"again\""))))
            .build();
    runtime.registerSnapshot(f.runtime.snapshot(Fixture.SNAPSHOT).orElseThrow());
    InterleavingStore interleaving = new InterleavingStore(f.store);
    List<CompletableFuture<ResumeOutcome>> winner = new ArrayList<>();
    // the loser has read the ticket and the run head; before its pre-commit reaches the store,
    // the winner reads the same ticket, pre-commits and starts the tool
    interleaving.arm(
        () ->
            winner.add(
                runtime.performScheduledAction("run-1", f.ctx(), f.host.clock().millis()).toCompletableFuture()));

    ResumeOutcome loser =
        runtime.performScheduledAction("run-1", RunContext.of(interleaving), f.host.clock().millis())
            .toCompletableFuture()
            .join();

    assertThat(loser).isEqualTo(NOT_AWAITING);
    assertThat(toolRuns).hasValue(1);
    assertThat(winner).singleElement().satisfies(w -> assertThat(w).isNotDone());
    heldTool.complete(ToolOutput.success("call-1", Json.parse("\"echoed ping\"")));
    assertThat(winner.get(0).join()).isEqualTo(PERFORMED);
    assertThat(toolRuns).hasValue(1);
    // one pre-commit, one result, one end: the loser wrote nothing
    assertThat(f.runFacts("run-1"))
        .containsExactly("running", "running", "awaiting", "running", "running", "ended(naturalEnd)");
    assertThat(f.perform("run-1")).isEqualTo(NOT_AWAITING);
    assertThat(f.toolRuns).hasValue(0);
  }

  @Test
  void aPerformWhosePreCommitIsStillFlushingHasAlreadyConsumedTheTicket() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    assertThat(f.execute("run-1")).isEqualTo(RunState.awaiting());
    LogHost.Hold preCommit = f.host.holdNextFlush();

    CompletableFuture<ResumeOutcome> first =
        f.runtime.performScheduledAction("run-1", f.ctx(), f.host.clock().millis()).toCompletableFuture();
    assertThat(preCommit.reached()).isTrue();
    assertThat(first).isNotDone();
    // the tool waits for its pre-commit to be durable
    assertThat(f.toolRuns).hasValue(0);

    assertThat(f.perform("run-1")).isEqualTo(NOT_AWAITING);
    assertThat(f.toolRuns).hasValue(0);

    preCommit.release();
    assertThat(first.join()).isEqualTo(PERFORMED);
    assertThat(f.toolRuns).hasValue(1);
    assertThat(f.runFacts("run-1")).filteredOn(List.of("running")::contains).hasSize(4);
  }
}

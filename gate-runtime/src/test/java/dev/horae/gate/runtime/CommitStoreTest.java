package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.gate.AwaitReason;
import dev.horae.gate.AwaitTarget;
import dev.horae.gate.EndCause;
import dev.horae.gate.PauseReason;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The store conditions (gate specification §5.4, §12.1) for both backends. */
class CommitStoreTest {

  record Backend(String name, Supplier<CommitStore> store, String thread) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Backend> backends() {
    LogHost host = LogHost.create();
    Session s = host.sessions().create(CreateOptions.DEFAULT);
    return Stream.of(
        new Backend("in-memory", CommitStore::inMemory, "thread-1"),
        new Backend("session log", () -> SessionCommitStore.over(host.sessions()::get), s.id()));
  }

  private static ThreadCommit running(String thread, String run) {
    return new ThreadCommit(thread, new RunDisposition.Running(run), List.of(), List.of(), List.of());
  }

  private static ThreadCommit awaiting(String thread, String run) {
    ResumeTicket t = ResumeTicket.of("c", run, thread, "snap", "fp", AwaitTarget.pause(PauseReason.MANUAL));
    return new ThreadCommit(thread, new RunDisposition.Awaiting(t), List.of(), List.of(), List.of());
  }

  private static CommitRecord commit(CommitStore s, ThreadCommit c, CommitConditions k) {
    return s.commit(c, k).toCompletableFuture().join();
  }

  private static void rejects(CommitStore s, ThreadCommit c, CommitConditions k, String code, String message) {
    assertThatThrownBy(() -> commit(s, c, k)).isInstanceOf(CompletionException.class).cause()
        .isInstanceOf(CommitRejectedException.class).hasMessage(message)
        .satisfies(e -> assertThat(((CommitRejectedException) e).code()).isEqualTo(code))
        .satisfies(e -> assertThat(((CommitRejectedException) e).display()).startsWith("runtime commit failed: "));
  }

  @ParameterizedTest
  @MethodSource("backends")
  void sequencesAreGapFreeAndTicketsFollowTheLatestFact(Backend b) {
    CommitStore s = b.store().get();
    assertThat(commit(s, running(b.thread(), "r1"), CommitConditions.expectingHead(0)).sequence()).isEqualTo(1);
    assertThat(commit(s, awaiting(b.thread(), "r1"), CommitConditions.expectingHead(1)).sequence()).isEqualTo(2);
    assertThat(s.view().resumeTicket("r1")).isPresent();
    assertThat(s.view().activeTickets(AwaitReason.MANUAL_PAUSE)).hasSize(1);
    assertThat(s.view().latestRun(b.thread()).map(RunRecord::runId)).contains("r1");
    commit(s, new ThreadCommit(b.thread(), new RunDisposition.Ended("r1", EndCause.naturalEnd()),
        List.of(), List.of(), List.of()), CommitConditions.none());
    assertThat(s.view().resumeTicket("r1")).isEmpty();
    assertThat(s.view().runState("r1")).contains(RunState.ended(EndCause.naturalEnd()));
  }

  @ParameterizedTest
  @MethodSource("backends")
  void rejectedCommitsWriteNothing(Backend b) {
    CommitStore s = b.store().get();
    commit(s, running(b.thread(), "r1"), CommitConditions.none());
    rejects(s, running(b.thread(), "r1"), CommitConditions.expectingHead(0), "runHeadMoved",
        "run r1 moved past the expected commit (expected 0, found 1)");
    rejects(s, running("", "r1"), CommitConditions.none(), "invalid",
        "invalid thread commit: thread id must be non-empty");
    rejects(s, running(b.thread(), ""), CommitConditions.none(), "invalid",
        "invalid thread commit: run id must be non-empty");
    ResumeTicket foreign = ResumeTicket.of("c", "r1", "elsewhere", "snap", "fp", AwaitTarget.pause(PauseReason.MANUAL));
    rejects(s, new ThreadCommit(b.thread(), new RunDisposition.Awaiting(foreign), List.of(), List.of(), List.of()),
        CommitConditions.none(), "invalid",
        "invalid thread commit: awaiting ticket belongs to thread elsewhere, not " + b.thread());
    rejects(s, running(b.thread(), "r1"), new CommitConditions(OptionalLong.empty(),
        Optional.of(new LeaseFence("r1", b.thread(), "owner-a", 3))), "fenced",
        "commit for run r1 is fenced: the dispatch claim (owner owner-a, epoch 3) is no longer current");
    assertThat(s.view().run("r1").orElseThrow().headSequence()).isEqualTo(1);
    commit(s, new ThreadCommit(b.thread(), new RunDisposition.Ended("r1", EndCause.cancelled()),
        List.of(), List.of(), List.of()), CommitConditions.expectingHead(1));
    rejects(s, running(b.thread(), "r1"), CommitConditions.none(), "terminalFinal",
        "run r1 has already ended; later commits are rejected");
    assertThat(commit(s, running(b.thread(), "r2"), CommitConditions.expectingHead(0)).sequence()).isEqualTo(3);
  }
}

package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.horae.gate.AwaitReason;
import dev.horae.gate.AwaitTarget;
import dev.horae.gate.EndCause;
import dev.horae.gate.GateJsonException;
import dev.horae.gate.PauseReason;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
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

  private static ThreadCommit runningWith(String thread, String run, List<String> messages, Map<String, Integer> state) {
    return new ThreadCommit(thread, new RunDisposition.Running(run),
        messages.stream().map(m -> Json.parse("{\"text\":\"" + m + "\"}")).toList(),
        state.entrySet().stream().map(e -> new StateCommand(e.getKey(), IntNode.valueOf(e.getValue()))).toList(),
        List.of());
  }

  private static List<String> texts(List<com.fasterxml.jackson.databind.JsonNode> messages) {
    return messages.stream().map(m -> m.path("text").asText()).toList();
  }

  @ParameterizedTest
  @MethodSource("backends")
  void theViewFoldsTheTranscriptInOrderAndStatePerThreadAndPerRun(Backend b) {
    CommitStore s = b.store().get();
    commit(s, runningWith(b.thread(), "r1", List.of("m1", "m2"), Map.of("k", 1)), CommitConditions.none());
    List<com.fasterxml.jackson.databind.JsonNode> early = s.view().committedMessages(b.thread());
    commit(s, runningWith(b.thread(), "r2", List.of("m3"), Map.of("k", 2, "j", 3)), CommitConditions.none());

    assertThat(texts(s.view().committedMessages(b.thread()))).containsExactly("m1", "m2", "m3");
    assertThat(texts(early)).as("an earlier read is a snapshot").containsExactly("m1", "m2");
    assertThat(s.view().committedState(b.thread())).containsOnly(
        Map.entry("k", IntNode.valueOf(2)), Map.entry("j", IntNode.valueOf(3)));
    assertThat(s.view().committedRunState("r1")).containsOnly(Map.entry("k", IntNode.valueOf(1)));
    assertThat(s.view().committedRunState("r2")).hasSize(2);
    CommittedRun r1 = s.view().committedRun("r1").orElseThrow();
    assertThat(r1.record().headSequence()).isEqualTo(1);
    assertThat(r1.state()).containsOnly(Map.entry("k", IntNode.valueOf(1)));
    assertThat(texts(r1.messages())).containsExactly("m1", "m2", "m3");
    assertThat(s.view().committedRun("r9")).isEmpty();
    assertThat(s.view().committedRunState("r9")).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("backends")
  void aLongTranscriptKeepsEveryMessageAndItsSnapshotsBounded(Backend b) {
    CommitStore s = b.store().get();
    List<String> all = new java.util.ArrayList<>();
    List<com.fasterxml.jackson.databind.JsonNode> at20 = List.of();
    for (int i = 0; i < 40; i++) {
      all.add("m" + i);
      commit(s, runningWith(b.thread(), "r1", List.of("m" + i), Map.of()), CommitConditions.none());
      if (i == 19) {
        at20 = s.view().committedMessages(b.thread());
      }
    }
    List<com.fasterxml.jackson.databind.JsonNode> messages = s.view().committedMessages(b.thread());
    assertThat(texts(messages)).isEqualTo(all);
    assertThat(at20).hasSize(20);
    assertThat(texts(at20)).isEqualTo(all.subList(0, 20));
    List<com.fasterxml.jackson.databind.JsonNode> snapshot = at20;
    assertThatThrownBy(() -> snapshot.get(20)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> snapshot.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void theApiDecoderReadsTheCommitOfAGateCommitEventAndRefusesAMalformedOne() {
    LogHost host = LogHost.create();
    Session s = host.sessions().create(CreateOptions.DEFAULT);
    ThreadCommit written = ThreadCommit.assemble(s.id(), new RunDisposition.Running("r1"),
        List.of(Json.parse("{\"role\":\"user\",\"text\":\"hi\"}")),
        List.of(new StateCommand("k", IntNode.valueOf(1))), List.of());
    commit(SessionCommitStore.over(host.sessions()::get), written, CommitConditions.none());
    List<SessionEvent> commits = s.eventsFrom(0).stream().filter(e -> e.type().equals("gate/commit")).toList();
    assertThat(commits).hasSize(1);
    assertThat(ThreadCommit.fromJson(commits.get(0).data().path("commit"))).isEqualTo(written);
    assertThatThrownBy(() -> ThreadCommit.fromJson(Json.parse("{\"threadId\":\"t\"}")))
        .isInstanceOf(GateJsonException.class).hasMessage("thread commit needs \"threadId\" and \"run\"");
  }
}

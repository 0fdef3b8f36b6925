package dev.horae.invariant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.AwaitTarget;
import dev.horae.gate.EndCause;
import dev.horae.gate.PauseReason;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.runtime.CommitConditions;
import dev.horae.gate.runtime.CommitRejectedException;
import dev.horae.gate.runtime.RunDisposition;
import dev.horae.gate.runtime.SessionCommitStore;
import dev.horae.gate.runtime.ThreadCommit;
import dev.horae.gate.runtime.internal.CommitCodec;
import dev.horae.spi.invariant.InvariantViolation;
import dev.horae.spi.session.Candidate;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.testkit.TestHost;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GateCompanionTest {

  private static final String PREFIX = "invariant violated by \"@deepseek-ai/dsh-gate\": ";

  private TestHost host;
  private Session thread;
  private SessionCommitStore store;

  @BeforeEach
  void setUp() {
    host = TestHost.builder().build();
    GateCompanion.instance().register(host.invariants());
    thread = host.sessions().create(CreateOptions.DEFAULT);
    store = SessionCommitStore.over(host.sessions()::get);
  }

  private ThreadCommit commit(RunDisposition run) {
    return new ThreadCommit(thread.id(), run, List.of(), List.of(), List.of(Json.parse("{\"type\":\"runStateChanged\"}")));
  }

  private ResumeTicket ticket(String runId, String threadId) {
    return ResumeTicket.of("corr-1", runId, threadId, "snapshot-1", "catalog-a", AwaitTarget.pause(PauseReason.MANUAL));
  }

  private void commitThroughStore(RunDisposition run) {
    store.commit(commit(run), CommitConditions.none()).toCompletableFuture().join();
  }

  private static ObjectNode payload(long sequence, ThreadCommit commit) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("sequence", sequence);
    o.set("commit", CommitCodec.encodeCommit(commit));
    return o;
  }

  private void appendRaw(JsonNode payload) {
    thread.appendAll(List.of(Candidate.logOnly(GateCompanion.COMMIT_EVENT, payload)));
  }

  @Test
  void acceptsTheCommitsTheSessionStoreWrites() {
    commitThroughStore(new RunDisposition.Running("run-1"));
    commitThroughStore(new RunDisposition.Awaiting(ticket("run-1", thread.id())));
    commitThroughStore(new RunDisposition.Running("run-1"));
    commitThroughStore(new RunDisposition.Ended("run-1", EndCause.naturalEnd()));
    commitThroughStore(new RunDisposition.Running("run-2"));
    thread.append("turn/start", Json.parse("{\"turn\":1}"));

    assertThat(thread.events()).hasSize(6);
    assertThat(GateCompanion.instance().checkLog(thread.header(), thread.events())).isEmpty();
    assertThat(store.view().runState("run-1")).isPresent();
  }

  @Test
  void terminalIsFinalEvenForAWriterThatBypassesTheStore() {
    commitThroughStore(new RunDisposition.Running("run-1"));
    commitThroughStore(new RunDisposition.Ended("run-1", EndCause.cancelled()));
    List<SessionEvent> snapshot = thread.events();

    assertThatThrownBy(() -> appendRaw(payload(3, commit(new RunDisposition.Running("run-1")))))
        .isInstanceOf(InvariantViolation.class)
        .hasMessage(PREFIX + "run run-1 has already ended; later commits are rejected");
    assertThat(thread.events()).isEqualTo(snapshot);
    // the store's own condition still reports its rejection code
    assertThatThrownBy(() -> commitThroughStore(new RunDisposition.Ended("run-1", EndCause.naturalEnd())))
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(CommitRejectedException.class);
  }

  @Test
  void aTicketOfAnotherThreadIsIllegal() {
    List<SessionEvent> snapshot = thread.events();
    assertThatThrownBy(() -> appendRaw(payload(1, commit(new RunDisposition.Awaiting(ticket("run-1", "elsewhere"))))))
        .hasMessage(PREFIX + "invalid thread commit: awaiting ticket belongs to thread elsewhere, not " + thread.id());
    assertThat(thread.events()).isEqualTo(snapshot);
  }

  @Test
  void commitSequencesAreGapFree() {
    commitThroughStore(new RunDisposition.Running("run-1"));
    assertThatThrownBy(() -> appendRaw(payload(3, commit(new RunDisposition.Running("run-1")))))
        .hasMessage(PREFIX + "gate commit sequence must be 2, found 3");
    assertThatThrownBy(() -> appendRaw(payload(1, commit(new RunDisposition.Running("run-1")))))
        .hasMessage(PREFIX + "gate commit sequence must be 2, found 1");
    appendRaw(payload(2, commit(new RunDisposition.Running("run-1"))));
    assertThat(thread.events()).hasSize(2);
  }

  @Test
  void malformedPayloadsAreRejected() {
    assertThatThrownBy(() -> appendRaw(Json.parse("{\"commit\":{}}")))
        .hasMessage(PREFIX + "gate commit payload is malformed: \"sequence\" must be an integer");
    assertThatThrownBy(() -> appendRaw(Json.parse("{\"sequence\":1,\"commit\":{\"threadId\":\"t\"}}")))
        .hasMessageStartingWith(PREFIX + "gate commit payload is malformed: ");
    ObjectNode badTicket = payload(1, commit(new RunDisposition.Awaiting(ticket("run-1", "x"))));
    ((ObjectNode) badTicket.get("commit").get("run").get("ticket")).remove("target");
    assertThatThrownBy(() -> appendRaw(badTicket))
        .hasMessageStartingWith(PREFIX + "gate commit payload is malformed: ");
    assertThat(thread.events()).isEmpty();
  }

  @Test
  void theOfflineReplayReportsEachIllegalCommitWithItsSeq() {
    List<SessionEvent> log = List.of(
        SessionEvent.of(0, GateCompanion.COMMIT_EVENT, 0, payload(1, commit(new RunDisposition.Running("r")))),
        SessionEvent.of(1, GateCompanion.COMMIT_EVENT, 0, payload(2, commit(new RunDisposition.Ended("r", EndCause.maxSteps())))),
        SessionEvent.of(2, GateCompanion.COMMIT_EVENT, 0, payload(3, commit(new RunDisposition.Running("r")))),
        SessionEvent.of(3, GateCompanion.COMMIT_EVENT, 0, payload(3, commit(new RunDisposition.Running("other")))),
        SessionEvent.of(4, GateCompanion.COMMIT_EVENT, 0, payload(3, commit(new RunDisposition.Running("third")))));
    assertThat(GateCompanion.instance().checkLog(thread.header(), log))
        .extracting(LogFinding::reportLine)
        .containsExactly(
            "seq 2: " + PREFIX + "run r has already ended; later commits are rejected",
            "seq 4: " + PREFIX + "gate commit sequence must be 4, found 3");
  }
}

package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.ToolAwaitReason;
import dev.horae.spi.session.Candidate;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** DispatchQueue rules on the session-log backend, and its rediscovery from the log. */
class SessionLogDispatchQueueTest extends DispatchQueueContract {
  @Override
  DispatchRig.Kind kind() {
    return DispatchRig.Kind.SESSION_LOG;
  }

  private Session session() {
    return rig.host.sessions().get(rig.thread).orElseThrow();
  }

  /** A queue of a new process over the same sessions: it knows nothing until it tracks them. */
  private SessionDispatchQueue reopened() {
    return SessionDispatchQueue.over(rig.host.sessions()::get, rig.host.sessions()::flush);
  }

  @Test
  void aTrackedSessionGivesANewQueueItsCommitsAndRecordsOnceHoweverOftenItIsTracked() {
    assertThat(q.submit(act("r1"), 100)).isTrue();
    DispatchClaim first = claim("a", 100);
    commit(awaiting("r2", ToolAwaitReason.SCHEDULED_ACTION), Optional.empty());

    SessionDispatchQueue fresh = reopened();
    assertThat(fresh.record("r1")).as("untracked").isEmpty();
    assertThat(fresh.store().view().run("r2")).isEmpty();
    fresh.track(session());
    fresh.track(session());

    DispatchRecord r1 = fresh.record("r1").orElseThrow();
    DispatchRecord live = q.record("r1").orElseThrow();
    // the claim folded once, and a running claim found at open counts as expired (§12.3): its
    // lease is not carried over, so the Run is recoverable at once
    assertThat(r1).isEqualTo(new DispatchRecord(live.runId(), live.threadId(), live.status(), live.owner(),
        live.epoch(), OptionalLong.empty(), live.attemptCount(), live.availableAtMs(), live.activation(),
        live.cancelRequested()));
    assertThat(r1.status()).isEqualTo(DispatchStatus.RUNNING);
    assertThat(r1.epoch()).isEqualTo(first.epoch());
    assertThat(live.leaseExpiresMs()).hasValue(100 + LEASE);
    assertThat(fresh.record("r2")).isEqualTo(q.record("r2"));
    assertThat(fresh.record("r2").orElseThrow().status()).isEqualTo(DispatchStatus.PENDING);
    assertThat(fresh.store().view().resumeTicket("r2")).as("the commit store folded the log").isPresent();
  }

  @Test
  void aFactNamingAnotherThreadIsNotFoldedIntoThisThreadsRecords() {
    assertThat(q.submit(act("r1"), 100)).isTrue();
    SessionEvent submitted = session().events().stream()
        .filter(e -> e.type().equals(DispatchTable.EVENT_TYPE)).findFirst().orElseThrow();
    // a fork's inherited prefix carries its parent's facts, which name the parent's thread
    ObjectNode foreign = ((ObjectNode) submitted.data()).deepCopy().put("threadId", "parent").put("runId", "r9");
    var unused = session().appendAll(List.of(Candidate.logOnly(DispatchTable.EVENT_TYPE, foreign)));

    SessionDispatchQueue fresh = reopened();
    fresh.track(session());
    assertThat(fresh.record("r1")).isPresent();
    assertThat(fresh.record("r9")).isEmpty();
  }
}

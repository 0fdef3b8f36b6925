package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.AwaitReason;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The read port over committed truth (gate specification §5.3). The latest run fact is the
 * authority: a later running or ended commit makes {@link #resumeTicket} empty.
 */
public interface CommittedThreadView {

  /**
   * The transcript messages committed to a thread, in commit order.
   *
   * @param threadId the thread
   * @return the messages
   */
  List<JsonNode> committedMessages(String threadId);

  /**
   * A Run's latest fact.
   *
   * @param runId the Run
   * @return the record, or empty when the Run has no commit
   */
  Optional<RunRecord> run(String runId);

  /**
   * The Run that committed last on a thread.
   *
   * @param threadId the thread
   * @return its record, if any
   */
  Optional<RunRecord> latestRun(String threadId);

  /**
   * The active awaiting ticket of a Run, if the Run is currently awaiting.
   *
   * @param runId the Run
   * @return the ticket
   */
  default Optional<ResumeTicket> resumeTicket(String runId) {
    return run(runId).flatMap(RunRecord::ticket);
  }

  /**
   * A Run's latest committed state.
   *
   * @param runId the Run
   * @return the state, or empty
   */
  default Optional<RunState> runState(String runId) {
    return run(runId).map(RunRecord::state);
  }

  /**
   * The committed state of a thread (latest value per key).
   *
   * @param threadId the thread
   * @return key to value
   */
  Map<String, JsonNode> committedState(String threadId);

  /**
   * The committed Run-scoped state of one Run (latest value per key), e.g. its tool batch.
   *
   * @param runId the Run
   * @return key to value
   */
  Map<String, JsonNode> committedRunState(String runId);

  /**
   * A consistent read of one Run. The default composes the separate reads and is consistent only
   * for stores without concurrent writers; log-backed stores read all three under one lock.
   *
   * @param runId the Run
   * @return the Run's committed truth, or empty when it has no commit
   */
  default Optional<CommittedRun> committedRun(String runId) {
    return run(runId).map(r -> new CommittedRun(r, committedRunState(runId), committedMessages(r.threadId())));
  }

  /**
   * Every active ticket with this flat reason, across every thread the view knows.
   *
   * @param reason the reason
   * @return the tickets
   */
  List<ResumeTicket> activeTickets(AwaitReason reason);
}

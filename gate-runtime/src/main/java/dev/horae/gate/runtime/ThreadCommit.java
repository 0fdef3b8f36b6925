package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One atomic commit to a thread (gate specification §5.1): the run fact, appended transcript
 * messages, state commands and event drafts. Lands entirely or not at all.
 *
 * @param threadId the thread (session) written to
 * @param run the run fact
 * @param messages appended transcript messages
 * @param state state commands
 * @param events event drafts, in assembly order
 */
public record ThreadCommit(
    String threadId,
    RunDisposition run,
    List<JsonNode> messages,
    List<StateCommand> state,
    List<JsonNode> events) {

  /** Copies the lists. */
  public ThreadCommit {
    Objects.requireNonNull(threadId, "threadId");
    Objects.requireNonNull(run, "run");
    messages = List.copyOf(messages);
    state = List.copyOf(state);
    events = List.copyOf(events);
  }

  /**
   * Checks the commit's own consistency.
   *
   * @return the {@code invalid} message, or empty when valid
   */
  public Optional<String> validate() {
    if (threadId.isEmpty()) {
      return Optional.of("invalid thread commit: thread id must be non-empty");
    }
    if (run.runId().isEmpty()) {
      return Optional.of("invalid thread commit: run id must be non-empty");
    }
    if (run instanceof RunDisposition.Awaiting a && !a.ticket().threadId().equals(threadId)) {
      return Optional.of("invalid thread commit: awaiting ticket belongs to thread "
          + a.ticket().threadId() + ", not " + threadId);
    }
    return Optional.empty();
  }
}

package dev.horae.gate.runtime;

import java.util.Objects;

/**
 * Input that starts a Run. An activation is input, not a durable state: if the first commit
 * never lands there is nothing to recover.
 *
 * @param runId the new Run's id; non-empty
 * @param threadId the thread (session) it commits to; non-empty
 * @param snapshotId the registered snapshot it executes
 * @param input the user's input text
 */
public record RunActivation(String runId, String threadId, String snapshotId, String input) {
  /**
   * Validates the ids.
   *
   * @throws IllegalArgumentException when an id is empty
   */
  public RunActivation {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(threadId, "threadId");
    Objects.requireNonNull(snapshotId, "snapshotId");
    Objects.requireNonNull(input, "input");
    if (runId.isEmpty() || threadId.isEmpty() || snapshotId.isEmpty()) {
      throw new IllegalArgumentException("run, thread and snapshot ids must be non-empty");
    }
  }
}

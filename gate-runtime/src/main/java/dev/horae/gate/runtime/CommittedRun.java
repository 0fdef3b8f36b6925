package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * One consistent read of a Run's committed truth: its latest fact, its Run-scoped state and its
 * thread's transcript, all as of the same commit. Resume and perform decide on this, so a racing
 * commit can never make them see a ticket from one commit and a batch from another.
 *
 * @param record the Run's latest fact
 * @param state the Run-scoped state (latest value per key)
 * @param messages the thread's committed transcript, an immutable snapshot (not copied)
 */
public record CommittedRun(RunRecord record, Map<String, JsonNode> state, List<JsonNode> messages) {
  /** Copies the state map; the transcript is an immutable snapshot already. */
  public CommittedRun {
    state = Map.copyOf(state);
  }
}

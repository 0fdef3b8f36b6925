package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.GateJsonException;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.runtime.internal.CommitCodec;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The committed view of one thread as a fold of its commit facts: the latest fact per Run is the
 * authority, so a later running or ended fact clears the Run's ticket. Pure; not thread-safe
 * (the store guards it).
 */
final class ThreadFold {

  /** The session event type that carries one commit. */
  static final String EVENT_TYPE = "gate/commit";

  final String threadId;
  private long sequence;
  private long consumed;
  private final AppendOnlyList<JsonNode> messages = new AppendOnlyList<>();
  private final Map<String, JsonNode> state = new HashMap<>();
  private final Map<String, Map<String, JsonNode>> runStates = new HashMap<>();
  private final Map<String, RunRecord> runs = new LinkedHashMap<>();
  private Optional<String> latestRun = Optional.empty();

  ThreadFold(String threadId) {
    this.threadId = threadId;
  }

  /** The payload of the session event recording {@code commit} at {@code sequence}. */
  static ObjectNode payload(ThreadCommit commit, long sequence) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("sequence", sequence);
    o.set("commit", CommitCodec.encodeCommit(commit));
    return o;
  }

  /**
   * Applies one commit payload of this thread and returns the Run it is about; a commit of another
   * thread (a fork's inherited seed) is ignored.
   *
   * @throws GateJsonException when the payload is not a commit
   */
  Optional<String> apply(JsonNode payload) {
    ThreadCommit c = CommitCodec.decodeCommit(payload.path("commit"));
    if (!c.threadId().equals(threadId)) {
      // a fork's inherited seed carries the parent's commits: they belong to the parent thread
      return Optional.empty();
    }
    apply(c, payload.path("sequence").asLong());
    return Optional.of(c.run().runId());
  }

  void apply(ThreadCommit c, long seq) {
    sequence = seq;
    messages.addAll(c.messages());
    RunDisposition d = c.run();
    Map<String, JsonNode> scoped = runStates.computeIfAbsent(d.runId(), r -> new HashMap<>());
    for (StateCommand s : c.state()) {
      state.put(s.key(), s.value());
      scoped.put(s.key(), s.value());
    }
    Optional<ResumeTicket> ticket =
        d instanceof RunDisposition.Awaiting a ? Optional.of(a.ticket()) : Optional.empty();
    runs.put(d.runId(), new RunRecord(d.runId(), c.threadId(), d.state(), seq, ticket));
    latestRun = Optional.of(d.runId());
  }

  long sequence() {
    return sequence;
  }

  long consumed() {
    return consumed;
  }

  void consumedUpTo(long length) {
    consumed = length;
  }

  List<JsonNode> messages() {
    return messages.snapshot();
  }

  Map<String, JsonNode> state() {
    return Map.copyOf(state);
  }

  Map<String, JsonNode> runState(String runId) {
    return Map.copyOf(runStates.getOrDefault(runId, Map.of()));
  }

  Optional<RunRecord> run(String runId) {
    return Optional.ofNullable(runs.get(runId));
  }

  Optional<RunRecord> latestRun() {
    return latestRun.map(runs::get);
  }

  List<RunRecord> runs() {
    return List.copyOf(runs.values());
  }
}

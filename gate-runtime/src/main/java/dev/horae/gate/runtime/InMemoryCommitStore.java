package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The in-memory backend: the same fold and conditions over process-local lists. */
final class InMemoryCommitStore extends LogCommitStore {

  private static final class MemoryLog implements ThreadLog {
    private final List<JsonNode> payloads = new ArrayList<>();

    @Override
    public synchronized Batch readFrom(long from) {
      return new Batch(List.copyOf(payloads.subList((int) from, payloads.size())), payloads.size());
    }

    @Override
    public synchronized long append(JsonNode payload, List<ObjectNode> dispatchFacts) {
      // the paired in-memory queue holds its facts itself; this log keeps commits only
      // payloads are built by the store from immutable commit values and never mutated
      payloads.add(payload);
      return payloads.size();
    }
  }

  private final Map<String, MemoryLog> logs = new ConcurrentHashMap<>();

  @Override
  Optional<ThreadLog> log(String threadId, boolean forWrite) {
    if (forWrite) {
      return Optional.of(logs.computeIfAbsent(threadId, t -> new MemoryLog()));
    }
    return Optional.ofNullable(logs.get(threadId));
  }
}

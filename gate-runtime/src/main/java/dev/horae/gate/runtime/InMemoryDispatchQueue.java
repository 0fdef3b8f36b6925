package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The in-memory dispatch backend (gate specification §12.5.6): the queue logic with no
 * persistence, paired with an in-memory commit store that shares its lock, so the outbox is atomic
 * with the commit and the fence is checked with the append. The executable reference for the
 * queue rules.
 */
public final class InMemoryDispatchQueue extends FactDispatchQueue {

  private final InMemoryCommitStore store = new InMemoryCommitStore();

  private InMemoryDispatchQueue() {
    store.attach(hook());
  }

  /**
   * A new empty queue with its own empty commit store.
   *
   * @return the queue
   */
  public static InMemoryDispatchQueue create() {
    return new InMemoryDispatchQueue();
  }

  @Override
  void write(String threadId, List<ObjectNode> facts) {
    // nothing to persist: the table is the only copy
  }

  @Override
  public CommitStore store() {
    return store;
  }
}

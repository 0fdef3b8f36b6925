package dev.horae.gate.runtime;

/** DurableDispatcher rules on the in-memory backend. */
class InMemoryDurableDispatcherTest extends DurableDispatcherContract {
  @Override
  DispatchRig.Kind kind() {
    return DispatchRig.Kind.IN_MEMORY;
  }
}

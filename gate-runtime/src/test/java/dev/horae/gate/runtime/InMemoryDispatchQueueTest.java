package dev.horae.gate.runtime;

/** DispatchQueue rules on the in-memory backend. */
class InMemoryDispatchQueueTest extends DispatchQueueContract {
  @Override
  DispatchRig.Kind kind() {
    return DispatchRig.Kind.IN_MEMORY;
  }
}

package dev.horae.runtime.dispatch;

/** The durable dispatcher's rules on session logs in memory. */
class MemoryDurableDispatcherTest extends DurableDispatcherContract {
  @Override
  DispatchRig.Kind kind() {
    return DispatchRig.Kind.MEMORY;
  }
}

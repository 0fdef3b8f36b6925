package dev.horae.runtime.dispatch;

/** The durable dispatcher's rules on session logs in a file store. */
class FileDurableDispatcherTest extends DurableDispatcherContract {
  @Override
  DispatchRig.Kind kind() {
    return DispatchRig.Kind.FILE;
  }
}

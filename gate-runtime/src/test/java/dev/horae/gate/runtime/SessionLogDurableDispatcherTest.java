package dev.horae.gate.runtime;

/** DurableDispatcher rules on the session-log backend. */
class SessionLogDurableDispatcherTest extends DurableDispatcherContract {
  @Override
  DispatchRig.Kind kind() {
    return DispatchRig.Kind.SESSION_LOG;
  }
}

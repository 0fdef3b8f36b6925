package dev.horae.gate.runtime;

/** DispatchQueue rules on the session-log backend. */
class SessionLogDispatchQueueTest extends DispatchQueueContract {
  @Override
  DispatchRig.Kind kind() {
    return DispatchRig.Kind.SESSION_LOG;
  }
}

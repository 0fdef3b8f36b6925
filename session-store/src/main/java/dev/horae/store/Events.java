package dev.horae.store;

import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.StoredSession;
import java.util.ArrayList;
import java.util.List;

/** Deep copies of events, so no JSON tree is ever shared between a log, a store and a caller. */
final class Events {

  private Events() {}

  static SessionEvent copy(SessionEvent e) {
    return new SessionEvent(e.seq(), e.type(), e.time(), Json.snapshot(e.data()), e.surfaceOp(), e.sourceEventSeqs());
  }

  static List<SessionEvent> copyAll(List<SessionEvent> events) {
    List<SessionEvent> out = new ArrayList<>(events.size());
    for (SessionEvent e : events) {
      out.add(copy(e));
    }
    return List.copyOf(out);
  }

  static StoredSession copy(StoredSession s) {
    return new StoredSession(s.header(), copyAll(s.events()));
  }

  /**
   * Checks that a log is contiguous from seq 0.
   *
   * @throws IllegalStateException naming the first gap
   */
  static void requireContiguous(String sessionId, List<SessionEvent> events) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).seq() != i) {
        throw new IllegalStateException(
            "session \"" + sessionId + "\" has a corrupt log: event at index " + i + " has seq " + events.get(i).seq());
      }
    }
  }
}

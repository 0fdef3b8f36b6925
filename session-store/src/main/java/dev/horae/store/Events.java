package dev.horae.store;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.StoredSession;
import java.util.List;

/**
 * Copies of logs for a store that keeps them in memory. An event is immutable (it holds its
 * payload's text, and {@link SessionEvent#data()} hands out a fresh tree), so a copy shares the
 * events and copies only the list.
 */
final class Events {

  private Events() {}

  static List<SessionEvent> copyAll(List<SessionEvent> events) {
    return List.copyOf(events);
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

package dev.horae.spi.session;

import java.util.List;

/**
 * A session as a durable store holds it: header and events.
 *
 * @param header the persisted header
 * @param events the persisted raw log, contiguous from seq 0
 */
public record StoredSession(SessionHeader header, List<SessionEvent> events) {
  /** Copies the events. */
  public StoredSession {
    events = List.copyOf(events);
  }
}

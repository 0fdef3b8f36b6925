package dev.horae.invariant.internal.cli;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One session folder as read from disk.
 *
 * @param folder the session folder
 * @param header its header
 * @param events its good events, contiguous from seq 0
 * @param tornTail a note on a torn last line the store would drop on open, if any
 */
record StoredLog(Path folder, SessionHeader header, List<SessionEvent> events, Optional<String> tornTail) {
  StoredLog {
    events = List.copyOf(events);
  }
}

package dev.horae.examples.docs;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.StoredSession;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The smallest {@link SessionStore} that keeps the store contract of {@code docs/persistence.md}: a
 * persisted log is contiguous from seq 0 and continues what is stored, the header never changes, and
 * an older, shorter snapshot is accepted as already stored. Replace the map with your database.
 */
public final class MapSessionStore implements SessionStore {

  private final Map<String, StoredSession> sessions = new HashMap<>();

  /** Creates an empty store. */
  public MapSessionStore() {}

  /**
   * Keeps the session's header and whole log; the stage completes once they are stored.
   *
   * @param header the session's header, identical on every persist of the session
   * @param log the whole raw log at the moment of the flush
   * @return a completed stage, or a failed one when the log breaks the contract
   */
  @Override
  public synchronized CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log) {
    for (int i = 0; i < log.size(); i++) {
      if (log.get(i).seq() != i) {
        return CompletableFuture.failedFuture(new IllegalArgumentException("log is not contiguous from seq 0"));
      }
    }
    StoredSession old = sessions.get(header.id());
    if (old != null) {
      if (!old.header().equals(header)) {
        return CompletableFuture.failedFuture(new IllegalArgumentException("the header of " + header.id() + " changed"));
      }
      int common = Math.min(old.events().size(), log.size());
      if (!old.events().subList(0, common).equals(log.subList(0, common))) {
        return CompletableFuture.failedFuture(new IllegalArgumentException("log does not continue " + header.id()));
      }
      if (log.size() <= old.events().size()) {
        return CompletableFuture.completedFuture(null);   // an older flush overtaken by a newer one
      }
    }
    sessions.put(header.id(), new StoredSession(header, log));
    return CompletableFuture.completedFuture(null);
  }

  /**
   * The session as last stored.
   *
   * @param id session id
   * @return header and events, or empty when never persisted
   */
  @Override
  public synchronized Optional<StoredSession> load(String id) {
    return Optional.ofNullable(sessions.get(id));
  }

  /**
   * Every stored session id.
   *
   * @return a copy of the ids
   */
  @Override
  public synchronized Set<String> ids() {
    return Set.copyOf(sessions.keySet());
  }

  /**
   * Whether the session is stored: the runtime asks this on every open, so it is answered from
   * the one session, not by listing them all.
   *
   * @param id session id
   * @return true when stored
   */
  @Override
  public synchronized boolean contains(String id) {
    return sessions.containsKey(id);
  }
}

package dev.horae.store;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.StoredSession;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A session store that keeps its copies in this process: durable for as long as the process lives.
 * Right for tests, for short-lived tools and for a runtime whose sessions need not survive a
 * restart; every copy is deep, so no JSON tree is shared with a live log. Thread-safe.
 */
public final class MemorySessionStore implements SessionStore {

  private final Map<String, StoredSession> stored = new HashMap<>();

  /** Creates an empty store. */
  public MemorySessionStore() {}

  /**
   * Keeps a deep copy of the header and log. A copy shorter than the one already kept is ignored,
   * so a persist that completes late never rolls back a newer, longer copy.
   */
  @Override
  public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log) {
    synchronized (stored) {
      StoredSession previous = stored.get(header.id());
      if (previous != null && previous.header().equals(header) && previous.events().size() <= log.size()) {
        // a flush covers the log so far: only the events since the last one are new, so copy
        // only those (a log is append-only, so the kept prefix is still its prefix)
        List<SessionEvent> grown = new ArrayList<>(log.size());
        grown.addAll(previous.events());
        for (int i = previous.events().size(); i < log.size(); i++) {
          grown.add(Events.copy(log.get(i)));
        }
        stored.put(header.id(), new StoredSession(header, List.copyOf(grown)));
        return CompletableFuture.completedFuture(null);
      }
    }
    keep(new StoredSession(header, Events.copyAll(log)));
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Keeps an already-copied session, with the same never-shorter rule as {@link #persist}. For
   * decorators that copy at persist time and keep later (a held flush, for instance).
   *
   * @param copy a session no caller still mutates
   */
  public void keep(StoredSession copy) {
    synchronized (stored) {
      StoredSession previous = stored.get(copy.header().id());
      if (previous == null || previous.events().size() <= copy.events().size()) {
        stored.put(copy.header().id(), copy);
      }
    }
  }

  /**
   * Replaces what the store holds for a session, unconditionally: seeds a store with a prepared
   * log.
   *
   * @param session the session to hold (copied)
   */
  public void put(StoredSession session) {
    synchronized (stored) {
      stored.put(session.header().id(), Events.copy(session));
    }
  }

  @Override
  public Optional<StoredSession> load(String id) {
    synchronized (stored) {
      return Optional.ofNullable(stored.get(id)).map(Events::copy);
    }
  }

  @Override
  public Set<String> ids() {
    synchronized (stored) {
      return Set.copyOf(stored.keySet());
    }
  }

  /**
   * A deep copy of a log, as this store keeps it.
   *
   * @param log the events
   * @return the copy
   */
  public static List<SessionEvent> copyOf(List<SessionEvent> log) {
    return Events.copyAll(log);
  }
}

package dev.horae.runtime;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.MemorySessionStore;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * A memory store whose persists pass through a test's hook first (to hold or fail a flush at a
 * chosen point); loads and ids are the memory store's.
 */
abstract class InterceptedStore implements SessionStore {

  /** The store the persists reach when the hook lets them. */
  final MemorySessionStore inner = new MemorySessionStore();

  /**
   * The hook: decides what a persist does, usually by calling {@code inner.persist} now, later or never.
   *
   * @param header the session's header
   * @param log the log to persist
   * @return the persist's stage
   */
  abstract CompletionStage<Void> intercept(SessionHeader header, List<SessionEvent> log);

  @Override
  public final CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log) {
    return intercept(header, log);
  }

  @Override
  public final Optional<StoredSession> load(String id) {
    return inner.load(id);
  }

  @Override
  public final Set<String> ids() {
    return inner.ids();
  }
}

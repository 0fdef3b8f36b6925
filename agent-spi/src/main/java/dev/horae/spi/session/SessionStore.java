package dev.horae.spi.session;

import java.util.Optional;
import java.util.Set;

/**
 * A durable session store: the durability listener a persistence service registers, plus the read
 * side a sessions service resumes from. Implemented by the in-memory store of the testkit and by
 * the file and JDBC stores of {@code session-store}.
 */
public interface SessionStore extends DurabilityListener {

  /**
   * Loads a persisted session.
   *
   * <p>The sessions service adopts the returned events as the live log without copying them, so
   * a store hands out events it will not change afterwards: trees fresh from its decoder, or the
   * read-only events it was given to persist (every {@link SessionEvent}'s data is read-only).
   *
   * @param id session id
   * @return the session as last made durable, or empty when the store has none
   * @throws RuntimeException when the stored data is corrupt (never silently truncated)
   */
  Optional<StoredSession> load(String id);

  /**
   * Ids of every persisted session.
   *
   * @return the ids
   */
  Set<String> ids();

  /**
   * Whether a session is persisted: {@code ids().contains(id)}, which a store answers without
   * listing every session (opening or creating one session must not cost a read of all of them).
   * The default lists them; every store of {@code session-store} answers from the one session.
   *
   * @param id session id
   * @return true when {@link #load} would find it
   */
  default boolean contains(String id) {
    return ids().contains(id);
  }
}

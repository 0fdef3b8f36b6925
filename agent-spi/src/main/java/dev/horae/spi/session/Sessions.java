package dev.horae.spi.session;

import dev.horae.spi.Registration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The sessions service (host contract §4). The library never creates, forks or resumes sessions
 * itself; it reads them, appends to them and calls {@link #flush} often.
 */
public interface Sessions {

  /**
   * Creates a live session with a fresh header.
   *
   * @param options creation options
   * @return the live session
   * @throws IllegalArgumentException when the zone is invalid ({@code invalid-time-zone})
   * @throws RuntimeException when a session-created listener refuses it
   */
  Session create(CreateOptions options);

  /**
   * Forks a child whose log starts with a copy of the parent's events before {@code boundary}.
   *
   * @param parent the parent session
   * @param boundary number of leading parent events to copy (the seed)
   * @param endSeedMarker whether to append a {@code session/end-seed} marker after the seed
   * @return the live child
   * @throws IllegalArgumentException when the boundary is outside the parent log
   */
  Session fork(Session parent, long boundary, boolean endSeedMarker);

  /**
   * Rebuilds a live session from the persisted log and header.
   *
   * @param id session id
   * @return the live session
   * @throws java.util.NoSuchElementException when nothing is persisted under that id
   */
  Session resume(String id);

  /**
   * The live session with that id.
   *
   * @param id session id
   * @return the session, or empty
   */
  Optional<Session> get(String id);

  /**
   * All live sessions.
   *
   * @return the sessions
   */
  List<Session> list();

  /**
   * Durability checkpoint (§4.2): {@code true} when every registered listener completed,
   * {@code false} when none is registered, exceptional when a listener failed. Throws or fails
   * when the session is not live. The library treats everything but {@code true} as "persistence
   * uncertain".
   *
   * @param session the session
   * @return whether durability is proven
   */
  CompletionStage<Boolean> flush(Session session);

  /**
   * Adds a durability listener.
   *
   * @param listener the listener
   * @return a handle that removes it
   */
  Registration onFlush(DurabilityListener listener);

  /**
   * Adds a pre-append validator that runs for every append of every session.
   *
   * @param validator the validator
   * @return a handle that removes it
   */
  Registration onPreAppend(AppendValidator validator);

  /**
   * Adds an observer of every committed event of every session, in registration order.
   *
   * @param observer the observer
   * @return a handle that removes it
   */
  Registration onEvent(EventObserver observer);

  /**
   * Adds a session-created listener (create, fork, resume).
   *
   * @param listener the listener
   * @return a handle that removes it
   */
  Registration onSessionCreated(SessionCreatedListener listener);
}

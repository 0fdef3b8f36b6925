package dev.horae.testkit.session;

import dev.horae.store.MemorySessionStore;
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
 * The in-memory durable store of the reference host (host contract §14, "persistence" and "flush
 * scripting"). Registered as a durability listener, it keeps a deep copy of a session's header and
 * log (in a {@link MemorySessionStore}) whenever a persist succeeds; {@link InMemorySessions#resume} reads it back.
 *
 * <p>The outcome of each persist call comes from {@link #script()} (complete normally by default).
 * Persist calls are counted per session. Thread-safe.
 */
public final class InMemorySessionStore implements SessionStore {

  private final FlushScript script = new FlushScript();
  private final MemorySessionStore stored = new MemorySessionStore();
  private final Map<String, Integer> persistCounts = new HashMap<>();

  /** Creates an empty store. */
  public InMemorySessionStore() {}

  /**
   * The script of persist outcomes.
   *
   * @return the script (shared; changes apply to later persist calls)
   */
  public FlushScript script() {
    return script;
  }

  /**
   * Persists a session according to the next scripted outcome.
   *
   * @param header the session's header
   * @param log the whole raw log at the moment of the flush
   * @return a stage that completes once the copy is kept, or exceptionally as scripted
   * @throws RuntimeException when the script says to throw synchronously
   */
  @Override
  public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log) {
    synchronized (persistCounts) {
      persistCounts.merge(header.id(), 1, Integer::sum);
    }
    // copy now: the flush covers the log as it was when flush was called, even if it is held
    StoredSession copy = new StoredSession(header, MemorySessionStore.copyOf(log));
    FlushScript.Outcome outcome = script.next().orElse(new FlushScript.Complete());
    if (outcome instanceof FlushScript.Throw t) {
      throw t.error();
    }
    if (outcome instanceof FlushScript.Fail f) {
      return CompletableFuture.failedFuture(f.error());
    }
    if (outcome instanceof FlushScript.Hold h) {
      return h.handle().gate().thenRun(() -> stored.keep(copy));
    }
    stored.keep(copy);
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Stores a session directly, as if an earlier runtime had persisted it (for example to resume a
   * hand-written or corrupt log).
   *
   * @param session the header and events to store; deep-copied
   */
  public void put(StoredSession session) {
    stored.put(session);
  }

  @Override
  public Optional<StoredSession> load(String id) {
    return stored.load(id);
  }

  @Override
  public Set<String> ids() {
    return stored.ids();
  }

  /**
   * Whether the session is stored.
   *
   * @param id the session id
   * @return true when it is stored
   */
  @Override
  public boolean contains(String id) {
    return stored.contains(id);
  }

  /**
   * How many persist calls this store received for the session, whatever their outcome.
   *
   * @param sessionId the session id
   * @return the count
   */
  public int persistCount(String sessionId) {
    synchronized (persistCounts) {
      return persistCounts.getOrDefault(sessionId, 0);
    }
  }
}

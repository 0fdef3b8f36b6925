package dev.horae.gate.runtime;

import dev.horae.store.LogSessions;
import dev.horae.store.MemorySessionStore;

import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.SessionStore;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The runtime's sessions service over a store, with a settable clock and a recording warning sink:
 * what the gate engine's tests need of a host, without the testkit (which sits above the engine).
 */
final class LogHost {

  private final SessionStore store;
  private final AtomicLong now;
  private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());
  private final LogSessions sessions;

  private LogHost(SessionStore store, AtomicLong now) {
    this.store = store;
    this.now = now;
    this.sessions = LogSessions.over(store, clock(), warningSink());
  }

  /**
   * A host over a fresh in-memory store, its clock at 2026-01-01T00:00:00Z.
   *
   * @return the host
   */
  public static LogHost create() {
    return over(new HoldingStore());
  }

  /**
   * Holds the next persist of this host's store until the returned handle is released.
   *
   * @return the hold
   * @throws IllegalStateException when this host's store is not the in-memory one of {@link #create()}
   */
  public Hold holdNextFlush() {
    if (!(store instanceof HoldingStore holding)) {
      throw new IllegalStateException("only a host made by create() can hold a flush");
    }
    Hold hold = new Hold();
    holding.next = hold;
    return hold;
  }

  /** A held persist: reached once the flush arrives, kept once released. */
  static final class Hold {
    private final java.util.concurrent.CompletableFuture<Void> gate = new java.util.concurrent.CompletableFuture<>();
    private volatile boolean reached;

    boolean reached() {
      return reached;
    }

    void release() {
      gate.complete(null);
    }
  }

  /** The in-memory store, whose next persist can be held. */
  private static final class HoldingStore implements SessionStore {
    private final MemorySessionStore inner = new MemorySessionStore();
    private volatile @org.jspecify.annotations.Nullable Hold next;

    @Override
    public java.util.concurrent.CompletionStage<Void> persist(
        dev.horae.spi.session.SessionHeader header, List<dev.horae.spi.session.SessionEvent> log) {
      Hold hold = next;
      if (hold == null) {
        return inner.persist(header, log);
      }
      next = null;
      // copy now: the flush covers the log as it was when it was called
      dev.horae.spi.session.StoredSession copy = new dev.horae.spi.session.StoredSession(header, MemorySessionStore.copyOf(log));
      hold.reached = true;
      return hold.gate.thenRun(() -> inner.keep(copy));
    }

    @Override
    public java.util.Optional<dev.horae.spi.session.StoredSession> load(String id) {
      return inner.load(id);
    }

    @Override
    public java.util.Set<String> ids() {
      return inner.ids();
    }
  }

  /**
   * A host over {@code store}, its clock at 2026-01-01T00:00:00Z.
   *
   * @param store the store
   * @return the host
   */
  public static LogHost over(SessionStore store) {
    return new LogHost(store, new AtomicLong(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli()));
  }

  /**
   * The restart of host contract §14: a new sessions service over the same store and clock, every
   * stored session resumed. This host's sessions are detached first, as a stopped process's are.
   *
   * @return the new host
   */
  public LogHost restart() {
    sessions.detachAll();
    LogHost fresh = new LogHost(store, now);
    fresh.sessions.resumeAll();
    return fresh;
  }

  /**
   * A new sessions service with this host's clock over another store (a reopened one), nothing
   * resumed yet.
   *
   * @param reopened the store
   * @return the new host
   */
  public LogHost restartOver(SessionStore reopened) {
    return new LogHost(reopened, now);
  }

  /**
   * The sessions service.
   *
   * @return sessions
   */
  public LogSessions sessions() {
    return sessions;
  }

  /**
   * The store.
   *
   * @return store
   */
  public SessionStore store() {
    return store;
  }

  /**
   * The wall clock the sessions stamp events with.
   *
   * @return the clock
   */
  public InstantSource clock() {
    return () -> Instant.ofEpochMilli(now.get());
  }

  /**
   * Moves the clock forward.
   *
   * @param d how far
   */
  public void advance(Duration d) {
    now.addAndGet(d.toMillis());
  }

  /**
   * The warnings reported so far.
   *
   * @return the messages
   */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  private WarningSink warningSink() {
    return (message, cause) -> warnings.add(message);
  }
}

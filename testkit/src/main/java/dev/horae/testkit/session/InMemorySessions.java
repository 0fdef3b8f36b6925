package dev.horae.testkit.session;

import dev.horae.store.LogSessions;
import dev.horae.spi.Registration;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.AppendValidator;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.DurabilityListener;
import dev.horae.spi.session.EventObserver;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionCreatedListener;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.Sessions;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The production {@link LogSessions} with the controls a test needs: scripted append vetoes and a
 * count of flush calls per session. Everything else — the log, validators, observers, create, fork,
 * resume and the §4.2 flush — is the runtime's own code, so a test sees exactly what production
 * does.
 */
public final class InMemorySessions implements Sessions {

  private final LogSessions delegate;
  private final Map<String, Deque<RuntimeException>> injectedVetoes = new HashMap<>();
  private final Map<String, AtomicInteger> flushCounts = new HashMap<>();

  /**
   * Creates an empty sessions service.
   *
   * @param wallClock the wall clock that stamps {@code createdAt} and event {@code time}
   * @param warnings where contained observer failures are reported
   * @param resumeSource the durable store that {@link #resume} reads
   */
  public InMemorySessions(InstantSource wallClock, WarningSink warnings, SessionStore resumeSource) {
    this.delegate = new LogSessions(wallClock, warnings, resumeSource);
    // registered first, so an injected veto comes before every real validator, like a real one
    var unused = delegate.onPreAppend((header, log, candidate) -> throwInjectedVeto(candidate.type()));
  }

  /**
   * The restart scenario (host contract §14, "fresh runtime"): a new sessions service over the same
   * store, with the store registered as its durability listener (a fresh runtime mounts the same
   * persistence), and every stored session resumed. Register validators or session-created
   * listeners before resuming instead by calling the constructor, the hooks, then
   * {@link #resumeAll()}.
   *
   * @param store the durable store the previous runtime flushed to
   * @param wallClock the wall clock of the new runtime
   * @param warnings the warning sink of the new runtime
   * @return the new service with every stored session live
   */
  public static InMemorySessions restartFrom(InMemorySessionStore store, InstantSource wallClock, WarningSink warnings) {
    InMemorySessions fresh = new InMemorySessions(wallClock, warnings, store);
    var unused = fresh.onFlush(store);
    fresh.resumeAll();
    return fresh;
  }

  /**
   * The production service this one controls.
   *
   * @return the delegate
   */
  public LogSessions delegate() {
    return delegate;
  }

  @Override
  public Session create(CreateOptions options) {
    return delegate.create(options);
  }

  @Override
  public Session fork(Session parent, long boundary, boolean endSeedMarker) {
    return delegate.fork(parent, boundary, endSeedMarker);
  }

  @Override
  public Session resume(String id) {
    return delegate.resume(id);
  }

  /**
   * Resumes every stored session that is not live yet, in id order.
   *
   * @return the resumed sessions
   */
  public List<Session> resumeAll() {
    return delegate.resumeAll();
  }

  @Override
  public Optional<Session> get(String id) {
    return delegate.get(id);
  }

  @Override
  public List<Session> list() {
    return delegate.list();
  }

  /**
   * Takes a session out of the live store, as a closed or crashed host would.
   *
   * @param session the session
   */
  public void detach(Session session) {
    delegate.detach(session);
  }

  /** Detaches every live session, as a runtime that is shut down before a restart. */
  public void detachAll() {
    delegate.detachAll();
  }

  /**
   * The production flush, counted per session (see {@link #flushCount}).
   *
   * @param session the session
   * @return whether durability is proven
   */
  @Override
  public CompletionStage<Boolean> flush(Session session) {
    counter(session.id()).incrementAndGet();
    return delegate.flush(session);
  }

  /**
   * How many times {@link #flush} was called for the session with this id.
   *
   * @param session the session
   * @return the flush call count
   */
  public int flushCount(Session session) {
    return counter(session.id()).get();
  }

  private AtomicInteger counter(String sessionId) {
    synchronized (flushCounts) {
      return flushCounts.computeIfAbsent(sessionId, k -> new AtomicInteger());
    }
  }

  @Override
  public Registration onFlush(DurabilityListener listener) {
    return delegate.onFlush(listener);
  }

  @Override
  public Registration onPreAppend(AppendValidator validator) {
    return delegate.onPreAppend(validator);
  }

  @Override
  public Registration onEvent(EventObserver observer) {
    return delegate.onEvent(observer);
  }

  @Override
  public Registration onSessionCreated(SessionCreatedListener listener) {
    return delegate.onSessionCreated(listener);
  }

  /**
   * Vetoes the next append of {@code type}, once, with {@code error}: the log stays unchanged, no
   * observer runs, and {@code error} reaches the appender, exactly like a validator veto. Several
   * calls for one type queue up, one veto per append.
   *
   * @param type the event type to veto
   * @param error the exception the append throws
   */
  public void vetoNext(String type, RuntimeException error) {
    synchronized (injectedVetoes) {
      injectedVetoes.computeIfAbsent(type, k -> new ArrayDeque<>()).add(error);
    }
  }

  private void throwInjectedVeto(String type) {
    RuntimeException veto;
    synchronized (injectedVetoes) {
      Deque<RuntimeException> queued = injectedVetoes.get(type);
      veto = queued == null ? null : queued.poll();
    }
    if (veto != null) {
      throw veto;
    }
  }
}

package dev.horae.store;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.horae.spi.Registration;
import dev.horae.spi.message.PromptAdmission;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.AppendValidator;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.DurabilityListener;
import dev.horae.spi.session.EventObserver;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionCreatedListener;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.Sessions;
import dev.horae.spi.session.StoredSession;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The production sessions service: host contract §3 (the session log) and §4 (create, fork,
 * resume, flush) over any {@link SessionStore}. Live logs are held in memory; a flush hands the
 * header and log to every registered durability listener (the store, usually).
 *
 * <ul>
 *   <li>Appends are synchronous and linearizable per session; seqs are contiguous; {@code time}
 *       comes from the injected wall clock; payloads are deep-copied at append.
 *   <li>Pre-append validators run for every session in registration order; a throwing validator
 *       vetoes the append (log unchanged, no observer runs, its exception reaches the appender).
 *   <li>Observers run after the commit; a failing observer is reported to the warning sink and
 *       never undoes the append. A validator or observer that appends to the session it runs for
 *       gets an {@link IllegalStateException}.
 *   <li>Session-created listeners run on create, fork and resume before the session becomes
 *       visible; a throwing listener makes the operation fail and the session is not registered.
 *   <li>{@link #flush} follows §4.2 exactly; see its documentation.
 * </ul>
 *
 * <p>No durability listener is registered by default: register a store with {@link #onFlush} to make
 * flushes succeed ({@link #over} does it). Thread-safe.
 *
 * <p>{@link #leased} makes a service that writes each session only under its lease: create, fork
 * and resume acquire the session's lease first (so a session live on another node is refused),
 * every flush persists under it, detaching releases it, and a lost lease detaches the session.
 */
public final class LogSessions implements Sessions {

  private final InstantSource wallClock;
  private final WarningSink warnings;
  private final SessionStore resumeSource;
  private final @Nullable SessionLeaseKeeper keeper;

  private final Hooks<AppendValidator> validators = new Hooks<>();
  private final Hooks<EventObserver> observers = new Hooks<>();
  private final Hooks<SessionCreatedListener> createdListeners = new Hooks<>();
  private final Hooks<DurabilityListener> durabilityListeners = new Hooks<>();

  /** Guards the live map, the id counter and the whole of every create, fork and resume. */
  private final Object registry = new Object();
  private final Map<String, LogSession> live = new LinkedHashMap<>();
  private long lastFreshId;

  /**
   * Creates an empty sessions service.
   *
   * @param wallClock the wall clock that stamps {@code createdAt} and event {@code time}
   * @param warnings where contained observer failures are reported
   * @param resumeSource the durable store that {@link #resume} reads
   */
  public LogSessions(InstantSource wallClock, WarningSink warnings, SessionStore resumeSource) {
    this(wallClock, warnings, resumeSource, null);
  }

  private LogSessions(
      InstantSource wallClock, WarningSink warnings, SessionStore resumeSource, @Nullable SessionLeaseKeeper keeper) {
    this.wallClock = wallClock;
    this.warnings = warnings;
    this.resumeSource = resumeSource;
    this.keeper = keeper;
  }

  /**
   * A sessions service over {@code store}: the store is both the resume source and the durability
   * listener, so every flush persists to it. Stored sessions stay closed until resumed.
   *
   * @param store the durable store
   * @param wallClock the wall clock that stamps {@code createdAt} and event {@code time}
   * @param warnings where contained observer failures are reported
   * @return the service
   */
  public static LogSessions over(SessionStore store, InstantSource wallClock, WarningSink warnings) {
    LogSessions sessions = new LogSessions(wallClock, warnings, store);
    sessions.onFlush(store);
    return sessions;
  }

  /**
   * A sessions service whose sessions are written under leases, one node at a time: {@link
   * #create}, {@link #fork} and {@link #resume} first take the session's lease through {@code
   * keeper} (refused with {@link SessionLeaseException.Code#LEASE_HELD} while another node holds
   * it; nothing is registered then), and resume loads the log only after that, so it sees every
   * write of the previous holder. The keeper is the resume source and the durability listener, so
   * every flush persists under the lease; {@link #detach} and {@link #detachAll} release the
   * leases; a lease the keeper reports lost detaches its session (later appends throw, flushes
   * fail). The host closes the agents of a lost session through {@link
   * SessionLeaseKeeper#onLost}. A leased resume loads the log while holding this service's
   * registry lock, so opens on one node take turns.
   *
   * @param keeper the node's lease keeper
   * @param wallClock the wall clock that stamps {@code createdAt} and event {@code time}
   * @param warnings where contained observer failures and lost leases are reported
   * @return the service
   */
  public static LogSessions leased(SessionLeaseKeeper keeper, InstantSource wallClock, WarningSink warnings) {
    LogSessions sessions = new LogSessions(wallClock, warnings, keeper, keeper);
    sessions.onFlush(keeper);
    keeper.onLost(sessions::lost);
    return sessions;
  }

  /**
   * The lease keeper of a service made by {@link #leased}.
   *
   * @return the keeper, or empty for a service that does not lease
   */
  public Optional<SessionLeaseKeeper> leaseKeeper() {
    return Optional.ofNullable(keeper);
  }

  // ---- create, fork, resume ----------------------------------------------------------------

  /**
   * Creates a live session. The zone, if any, is validated and canonicalized with
   * {@link PromptAdmission#admitSessionZone}. A preallocated id that is already live returns that
   * session when the canonical zone and working directory are the same, and is a conflict
   * otherwise. Without a preallocated id the session gets the next free {@code session-<n>}.
   *
   * @param options creation options
   * @return the live session
   * @throws dev.horae.spi.message.PromptRejectedException code {@code invalid-time-zone} for an
   *     invalid zone
   * @throws IllegalStateException when a preallocated id is live with a different zone or directory
   * @throws SessionLeaseException code {@code lease-held} when leased and another node holds the
   *     session
   * @throws RuntimeException the failure of a session-created listener; nothing is registered
   */
  @Override
  public Session create(CreateOptions options) {
    Optional<String> zone = options.timeZone().map(PromptAdmission::admitSessionZone);
    synchronized (registry) {
      Optional<String> wanted = options.id();
      if (wanted.isPresent()) {
        LogSession existing = live.get(wanted.get());
        if (existing != null) {
          return sameOrConflict(existing, options.cwd(), zone);
        }
      }
      String id = wanted.orElseGet(this::freshId);
      SessionHeader header = new SessionHeader(
          SessionHeader.CURRENT_VERSION, id, wallClock.millis(), options.cwd(), Optional.empty(), 0,
          Optional.empty(), OptionalInt.empty(), Optional.empty(), zone);
      return leasedRegister(header, List.of());
    }
  }

  /**
   * Forks a child whose log starts with a copy of the parent's first {@code boundary} events. The
   * child header names the parent, sets {@code seedLength} to {@code boundary} and copies the
   * parent's zone, working directory and preset. With {@code endSeedMarker} a
   * {@code session/end-seed {}} event is then appended through the ordinary append path, so it has
   * {@code seq == seedLength}; if that append is vetoed the child is withdrawn and the veto
   * propagates.
   *
   * @param parent the parent session
   * @param boundary number of leading parent events to copy
   * @param endSeedMarker whether to append the end-seed marker
   * @return the live child
   * @throws IllegalArgumentException when {@code boundary} is outside {@code 0..parent.length()}
   * @throws SessionLeaseException code {@code lease-held} when leased and another node holds the
   *     child's id
   * @throws RuntimeException the failure of a session-created listener or of the marker append
   */
  @Override
  public Session fork(Session parent, long boundary, boolean endSeedMarker) {
    List<SessionEvent> parentLog = parent.events();
    if (boundary < 0 || boundary > parentLog.size()) {
      throw new IllegalArgumentException(
          "fork boundary " + boundary + " is outside the parent log 0.." + parentLog.size());
    }
    LogSession child;
    synchronized (registry) {
      SessionHeader header = parent.header().forkChild(freshId(), wallClock.millis(), boundary);
      child = leasedRegister(header, Events.copyAll(parentLog.subList(0, (int) boundary)));
    }
    if (endSeedMarker) {
      try {
        child.append(EventTypes.SESSION_END_SEED, JsonNodeFactory.instance.objectNode());
      } catch (RuntimeException vetoed) {
        detach(child);
        throw vetoed;
      }
    }
    return child;
  }

  /**
   * Rebuilds a live session from the resume source, keeping the header exactly as persisted
   * (including {@code seedLength} and {@code timeZone}). Session-created listeners run and can
   * refuse it.
   *
   * @param id session id
   * @return the live session
   * @throws NoSuchElementException when the store holds nothing under that id
   * @throws IllegalStateException when the session is already live, or the stored log is not
   *     contiguous
   * @throws SessionLeaseException code {@code lease-held} when leased and another node holds the
   *     session; nothing is loaded or registered
   * @throws RuntimeException the failure of a session-created listener; nothing is registered
   */
  @Override
  public Session resume(String id) {
    if (keeper == null) {
      StoredSession stored = load(id);
      synchronized (registry) {
        requireNotLive(id);
        // the loaded events become the live log as they are (SessionStore#load): a second copy of
        // a million-event log would double both the open's time and the session's heap
        return register(stored.header(), stored.events());
      }
    }
    // leased: lease, load and registration are one step on this node, so neither a second open
    // of the id nor a detach can slip between them and leave a live session without its lease
    synchronized (registry) {
      requireNotLive(id);
      return underLease(id, () -> {
        StoredSession stored = load(id);
        return register(stored.header(), stored.events());
      });
    }
  }

  private StoredSession load(String id) {
    StoredSession stored = resumeSource.load(id)
        .orElseThrow(() -> new NoSuchElementException("no persisted session \"" + id + "\""));
    Events.requireContiguous(id, stored.events());
    return stored;
  }

  private void requireNotLive(String id) {
    if (live.containsKey(id)) {
      throw new IllegalStateException("session \"" + id + "\" is already live");
    }
  }

  /**
   * Resumes every session of the resume source that is not live yet, in id order.
   *
   * @return the resumed sessions
   * @throws RuntimeException the first resume failure; sessions resumed before it stay live
   */
  public List<Session> resumeAll() {
    List<Session> resumed = new ArrayList<>();
    for (String id : resumeSource.ids().stream().sorted().toList()) {
      boolean isLive;
      synchronized (registry) {
        isLive = live.containsKey(id);
      }
      if (!isLive) {
        resumed.add(resume(id));
      }
    }
    return List.copyOf(resumed);
  }

  @Override
  public Optional<Session> get(String id) {
    synchronized (registry) {
      return Optional.ofNullable(live.get(id));
    }
  }

  @Override
  public List<Session> list() {
    synchronized (registry) {
      return List.copyOf(live.values());
    }
  }

  /**
   * Takes a session out of the live store, as a closed or crashed host would: later appends throw
   * {@link IllegalStateException}, later flushes fail, and {@code get}/{@code list} no longer show
   * it. Detaching twice, or a session of another service, is harmless.
   *
   * @param session the session
   */
  public void detach(Session session) {
    synchronized (registry) {
      LogSession current = live.get(session.id());
      if (current != session) {
        return;
      }
      live.remove(session.id());
      current.detach();
      if (keeper != null) {
        releaseQuietly(keeper, session.id());
      }
    }
  }

  /** Detaches every live session, as a runtime that is shut down before a restart. */
  public void detachAll() {
    synchronized (registry) {
      live.values().forEach(LogSession::detach);
      if (keeper != null) {
        for (String id : live.keySet()) {
          releaseQuietly(keeper, id);
        }
      }
      live.clear();
    }
  }

  /** A lost lease: the session is no longer writable here, so it stops being live here. */
  private void lost(SessionLease lease, String why) {
    boolean wasLive = false;
    synchronized (registry) {
      LogSession current = live.get(lease.sessionId());
      // a lease held again since (the session was detached and opened anew) is not the lost one
      if (current != null && keeper != null && keeper.lease(lease.sessionId()).isEmpty()) {
        live.remove(lease.sessionId());
        current.detach();
        wasLive = true;
      }
    }
    warnings.warn("session \"" + lease.sessionId() + "\" lost its lease" + (wasLive ? " and is detached" : "") + ": " + why,
        Optional.empty());
  }

  private void releaseQuietly(SessionLeaseKeeper k, String id) {
    try {
      var unused = k.release(id);
    } catch (RuntimeException e) {
      warnings.warn("releasing the lease of session \"" + id + "\" failed; it expires on its own", Optional.of(e));
    }
  }

  // ---- flush --------------------------------------------------------------------------------

  /**
   * The durability checkpoint of host contract §4.2.
   *
   * <ul>
   *   <li>Session not live here (detached, or never created by this service): a failed stage.
   *   <li>No durability listener: a stage completed with {@code false}.
   *   <li>Otherwise every listener gets the same atomic snapshot of header and log, in registration
   *       order; the stage completes with {@code true} once all completed normally, or
   *       exceptionally with the first failure in listener order once all settled.
   *   <li>A listener that throws synchronously makes {@code flush} throw the same exception (the
   *       contract's "flush throws" case); later listeners are not called.
   * </ul>
   *
   * @param session the session
   * @return whether durability is proven
   * @throws RuntimeException a listener's synchronous failure
   */
  @Override
  public CompletionStage<Boolean> flush(Session session) {
    LogSession current;
    synchronized (registry) {
      current = live.get(session.id());
    }
    if (current != session || !current.isLive()) {
      return CompletableFuture.failedFuture(new IllegalStateException("session \"" + session.id() + "\" is not live"));
    }
    List<DurabilityListener> listeners = durabilityListeners.snapshot();
    if (listeners.isEmpty()) {
      return CompletableFuture.completedFuture(false);
    }
    LogSession.Persisted view = current.persistedView();
    List<CompletableFuture<Void>> stages = new ArrayList<>(listeners.size());
    for (DurabilityListener listener : listeners) {
      stages.add(listener.persist(view.header(), view.log()).toCompletableFuture());
    }
    return settleAll(stages);
  }

  private static CompletableFuture<Boolean> settleAll(List<CompletableFuture<Void>> stages) {
    return CompletableFuture.allOf(stages.toArray(new CompletableFuture<?>[0]))
        .handle((ignored, anyFailure) -> firstFailure(stages))
        .thenCompose(failure -> failure.isPresent()
            ? CompletableFuture.<Boolean>failedFuture(failure.get())
            : CompletableFuture.completedFuture(true));
  }

  /** The failure of the earliest registered listener that failed, so the report is deterministic. */
  private static Optional<Throwable> firstFailure(List<CompletableFuture<Void>> settled) {
    for (CompletableFuture<Void> stage : settled) {
      try {
        stage.join();
      } catch (CompletionException | CancellationException e) {
        Throwable cause = e.getCause();
        return Optional.of(e instanceof CompletionException && cause != null ? cause : e);
      }
    }
    return Optional.empty();
  }

  // ---- hooks --------------------------------------------------------------------------------

  @Override
  public Registration onFlush(DurabilityListener listener) {
    return durabilityListeners.add(listener);
  }

  @Override
  public Registration onPreAppend(AppendValidator validator) {
    return validators.add(validator);
  }

  @Override
  public Registration onEvent(EventObserver observer) {
    return observers.add(observer);
  }

  @Override
  public Registration onSessionCreated(SessionCreatedListener listener) {
    return createdListeners.add(listener);
  }

  // ---- called by LogSession ----------------------------------------------------------------

  long wallMillis() {
    return wallClock.millis();
  }

  List<AppendValidator> validators() {
    return validators.snapshot();
  }

  void notifyObservers(Session session, SessionEvent event) {
    for (EventObserver observer : observers.snapshot()) {
      try {
        observer.onEvent(session, event);
      } catch (RuntimeException e) {
        warnings.warn(
            "event observer failed on " + event.type() + " seq " + event.seq() + " of session \"" + session.id() + "\"",
            Optional.of(e));
      }
    }
  }

  // ---- internals ----------------------------------------------------------------------------

  /**
   * Takes the lease first when leased, then {@link #register}; a failure releases a lease taken
   * here. Caller holds registry.
   */
  private LogSession leasedRegister(SessionHeader header, List<SessionEvent> initial) {
    return keeper == null ? register(header, initial) : underLease(header.id(), () -> register(header, initial));
  }

  /** Holds the lease of {@code id}, then opens; a failed open releases a lease taken here. Caller holds registry. */
  private LogSession underLease(String id, Supplier<LogSession> open) {
    SessionLeaseKeeper k = Objects.requireNonNull(keeper, "a leased service");
    boolean acquired = k.lease(id).isEmpty();
    var unused = k.hold(id);
    try {
      return open.get();
    } catch (RuntimeException e) {
      if (acquired) {
        releaseQuietly(k, id);
      }
      throw e;
    }
  }

  /** Runs the session-created listeners, then makes the session visible. Caller holds registry. */
  private LogSession register(SessionHeader header, List<SessionEvent> initial) {
    List<SessionEvent> log = List.copyOf(initial);
    for (SessionCreatedListener listener : createdListeners.snapshot()) {
      listener.onCreated(header, log);
    }
    LogSession session = new LogSession(this, header, log);
    live.put(header.id(), session);
    return session;
  }

  private Session sameOrConflict(LogSession existing, Optional<String> cwd, Optional<String> zone) {
    SessionHeader h = existing.header();
    if (!h.timeZone().equals(zone)) {
      throw new IllegalStateException("session \"" + h.id() + "\" already exists with a different time zone");
    }
    if (!h.cwd().equals(cwd)) {
      throw new IllegalStateException("session \"" + h.id() + "\" already exists with a different working directory");
    }
    return existing;
  }

  private String freshId() {
    String id;
    do {
      lastFreshId++;
      id = "session-" + lastFreshId;
    } while (live.containsKey(id) || resumeSource.contains(id));
    return id;
  }
}

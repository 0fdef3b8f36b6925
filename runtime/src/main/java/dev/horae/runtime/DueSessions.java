package dev.horae.runtime;

import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.Session;
import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import dev.horae.store.CommitLogLockedException;
import dev.horae.store.DueEntry;
import dev.horae.store.DueIndex;
import dev.horae.store.SessionLease;
import dev.horae.store.SessionLeaseException;
import dev.horae.store.SessionLeaseKeeper;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves sessions that nobody holds open when something in them comes due: the worker behind
 * {@link HoraeRuntime.Builder#dueSessions}. Every {@link Settings#poll()} on the runtime's {@link
 * Timers} it runs one pass on the runtime's driver threads:
 *
 * <ol>
 *   <li>it closes ({@link HoraeRuntime#closeSession}) each session it opened whose agent is idle or
 *       parked on a tool call (a parked turn holds no thread and its ticket is durable), and whose due
 *       time is absent or later than {@link Settings#keepOpenWithin()} from now — or still past {@link
 *       Settings#retryAfter()} after it opened it, so a later pass retries it. A call waiting for
 *       confirmation is not due, so its session is closed; the application opens it again to answer.
 *       A committed scheduled action is due from its commit on, so its session stays open while the
 *       reopened agent performs it, and is closed once the turn ended and nothing else is due;
 *   <li>while fewer than {@link Settings#maxOpen()} agents are open in the runtime, it takes the
 *       sessions whose due time has come from the store's {@link DueIndex} — claimed under this
 *       node's leases when the runtime leases ({@link DueIndex#claim}: on PostgreSQL {@code FOR UPDATE
 *       SKIP LOCKED}), otherwise read, the file store's folder lock being the lease — and opens each
 *       with {@link HoraeRuntime#openAgent(String)}. A session already live in this runtime is
 *       skipped; one that another node or process holds is left to it.
 * </ol>
 *
 * <p>The worker dispatches nothing itself: opening the agent starts the plugins' per-agent work, so
 * Schedule's owner flushes, folds and dispatches the due reminder exactly as for any live agent
 * ({@code spec/schedule.md} §12.3, §12.9), and the dispatch's barrier flush moves the session's
 * index entry in the same persist. Likewise the reopened agent performs a parked scheduled action
 * (when the runtime dispatches, {@link HoraeRuntime.Builder#dispatchScheduledActions}), and the
 * perform's pre-commit, flushed before the tool runs, clears the entry. The duplicate window this
 * leaves is the spec's crash window ({@code docs/persistence.md}, "The due index").
 */
public final class DueSessions implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DueSessions.class);

  /**
   * The worker's settings.
   *
   * @param maxOpen at most this many agents open in the runtime at once, counting those the
   *     application opened; due sessions beyond it wait their turn (at least 1)
   * @param poll the time between passes (at least 1 ms)
   * @param keepOpenWithin an idle session stays open while its next due time is at most this far
   *     ahead, so a reminder due a moment later does not cost a close and a reopen (zero or more)
   * @param retryAfter an idle session still overdue this long after the worker opened it is closed
   *     anyway (its owner could not dispatch: an uncertain preflight starts no retry timer, {@code
   *     spec/schedule.md} §15), so that it does not hold its place and a later pass reopens it with a
   *     fresh owner, whose start is a new preflight (at least 1 ms)
   */
  public record Settings(int maxOpen, Duration poll, Duration keepOpenWithin, Duration retryAfter) {

    /**
     * The defaults: 8 open sessions, a pass every second, idle sessions kept while due within 30 s,
     * an overdue one retried after 60 s.
     */
    public static final Settings DEFAULTS =
        new Settings(8, Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(60));

    /**
     * Checks the settings.
     *
     * @param maxOpen as described on the record
     * @param poll as described on the record
     * @param keepOpenWithin as described on the record
     * @param retryAfter as described on the record
     * @throws IllegalArgumentException when a value is out of range
     */
    public Settings {
      Objects.requireNonNull(poll, "poll");
      Objects.requireNonNull(keepOpenWithin, "keepOpenWithin");
      Objects.requireNonNull(retryAfter, "retryAfter");
      if (retryAfter.compareTo(Duration.ofMillis(1)) < 0) {
        throw new IllegalArgumentException("dueSessions retryAfter must be at least 1 ms, got " + retryAfter);
      }
      if (maxOpen < 1) {
        throw new IllegalArgumentException("dueSessions maxOpen must be at least 1, got " + maxOpen);
      }
      if (poll.compareTo(Duration.ofMillis(1)) < 0) {
        throw new IllegalArgumentException("dueSessions poll must be at least 1 ms, got " + poll);
      }
      if (keepOpenWithin.isNegative()) {
        throw new IllegalArgumentException("dueSessions keepOpenWithin must not be negative, got " + keepOpenWithin);
      }
    }

    /**
     * These settings with another bound on open sessions.
     *
     * @param n the bound
     * @return the settings
     */
    public Settings withMaxOpen(int n) {
      return new Settings(n, poll, keepOpenWithin, retryAfter);
    }

    /**
     * These settings with another pass interval.
     *
     * @param d the interval
     * @return the settings
     */
    public Settings withPoll(Duration d) {
      return new Settings(maxOpen, d, keepOpenWithin, retryAfter);
    }

    /**
     * These settings with another keep-open window.
     *
     * @param d the window
     * @return the settings
     */
    public Settings withKeepOpenWithin(Duration d) {
      return new Settings(maxOpen, poll, d, retryAfter);
    }

    /**
     * These settings with another retry delay for a session that stays overdue.
     *
     * @param d the delay
     * @return the settings
     */
    public Settings withRetryAfter(Duration d) {
      return new Settings(maxOpen, poll, keepOpenWithin, d);
    }
  }

  /**
   * What one pass did.
   *
   * @param closed the sessions it closed
   * @param opened the sessions it opened
   * @param open the agents open in the runtime after it
   */
  public record Pass(List<String> closed, List<String> opened, int open) {

    /**
     * Freezes the lists.
     *
     * @param closed as described on the record
     * @param opened as described on the record
     * @param open as described on the record
     */
    public Pass {
      closed = List.copyOf(closed);
      opened = List.copyOf(opened);
    }
  }

  private final HoraeRuntime runtime;
  private final DueIndex index;
  private final Settings settings;
  private final Timers timers;
  private final InstantSource clock;
  private final Executor executor;
  private final WarningSink warnings;
  private final @Nullable SessionLeaseKeeper keeper;
  private final List<Consumer<Pass>> listeners = new CopyOnWriteArrayList<>();
  /** Held for the whole of a pass, so {@link #close} can wait for one in flight. */
  private final ReentrantLock passing = new ReentrantLock();
  /** Guards the fields below. */
  private final Object lock = new Object();
  /** The sessions this worker opened and has not closed, in opening order, with when it opened them. */
  private final Map<String, Long> mine = new LinkedHashMap<>();
  private @Nullable Cancellable timer;
  private boolean started;
  private boolean closed;

  DueSessions(HoraeRuntime runtime, DueIndex index, Settings settings, Timers timers, InstantSource clock,
      Executor executor, WarningSink warnings, @Nullable SessionLeaseKeeper keeper) {
    this.runtime = runtime;
    this.index = index;
    this.settings = settings;
    this.timers = timers;
    this.clock = clock;
    this.executor = executor;
    this.warnings = warnings;
    this.keeper = keeper;
  }

  /**
   * The settings it runs with.
   *
   * @return the settings
   */
  public Settings settings() {
    return settings;
  }

  /**
   * The index it serves.
   *
   * @return the store's due index
   */
  public DueIndex index() {
    return index;
  }

  /**
   * Listens to every pass (metrics, tests).
   *
   * @param listener told what each pass did, on the driver thread that ran it; a throwing listener
   *     is reported to the warning sink
   * @return a handle that removes it
   */
  public Registration onPass(Consumer<Pass> listener) {
    Consumer<Pass> l = Objects.requireNonNull(listener, "listener");
    listeners.add(l);
    return () -> listeners.remove(l);
  }

  /**
   * The sessions this worker opened and has not closed yet.
   *
   * @return their ids, in opening order
   */
  public List<String> opened() {
    synchronized (lock) {
      return List.copyOf(mine.keySet());
    }
  }

  /** Rebuilds stale index entries, then arms the first pass at once. Idempotent. */
  void start() {
    synchronized (lock) {
      if (started || closed) {
        return;
      }
      started = true;
    }
    // the log is the truth: entries a crash or an unindexed writer left stale are recomputed first
    int rebuilt = index.rebuild();
    if (rebuilt > 0) {
      LOG.info("recomputed {} stale due index entries", rebuilt);
    }
    arm(Duration.ZERO);
  }

  private void arm(Duration delay) {
    synchronized (lock) {
      if (closed) {
        return;
      }
      // the timer thread only hands over: a pass reads the store, which is I/O
      timer = timers.schedule(delay, () -> {
        try {
          executor.execute(this::passAndRearm);
        } catch (RejectedExecutionException e) {
          // the runtime is shutting down
        }
      });
    }
  }

  private void passAndRearm() {
    Pass pass;
    passing.lock();
    try {
      if (isClosed()) {
        return;
      }
      pass = pass();
    } catch (RuntimeException e) {
      // a store outage: the next pass tries again
      warnings.warn("a due-sessions pass failed; retrying in " + settings.poll(), Optional.of(e));
      arm(settings.poll());
      return;
    } finally {
      passing.unlock();
    }
    // armed before the listeners hear of the pass, so one who then advances a manual clock by the
    // poll interval always reaches the next pass
    arm(settings.poll());
    for (Consumer<Pass> l : listeners) {
      try {
        l.accept(pass);
      } catch (RuntimeException e) {
        warnings.warn("a due-sessions pass listener failed", Optional.of(e));
      }
    }
  }

  /** One pass: close the idle sessions it opened, then open due ones up to the bound. */
  private Pass pass() {
    long now = clock.millis();
    List<String> closedNow = new ArrayList<>();
    for (String id : opened()) {
      if (isClosed()) {
        return new Pass(closedNow, List.of(), runtime.agents().all().size());
      }
      Optional<RuntimeAgent> agent = runtime.agents().get(id).map(RuntimeAgent.class::cast);
      if (agent.isEmpty()) {
        // closed by the application, or its lease was lost
        forget(id);
        continue;
      }
      // a parked turn holds no thread and its ticket is durable: it counts as idle, so a call waiting
      // for a person does not hold a place here for as long as the person takes; a scheduled action
      // keeps its session open through keepOpen, being due
      boolean working = agent.get().status() != AgentStatus.IDLE && !agent.get().parked();
      if (working || keepOpen(id, now)) {
        continue;
      }
      if (runtime.closeSession(id)) {
        closedNow.add(id);
      }
      forget(id);
    }
    List<String> openedNow = new ArrayList<>();
    int free = settings.maxOpen() - runtime.agents().all().size();
    if (free > 0 && !isClosed()) {
      Set<String> skip = new HashSet<>();
      for (Session s : runtime.sessions().list()) {
        skip.add(s.id());
      }
      for (var a : runtime.agents().all()) {
        skip.add(a.session().id());
      }
      if (keeper != null) {
        for (SessionLease lease : index.claim(keeper.leases(), now, free, skip)) {
          if (open(lease.sessionId())) {
            openedNow.add(lease.sessionId());
          } else {
            releaseQuietly(lease);
          }
        }
      } else {
        // a window past the sessions another process holds, so they do not starve those behind them
        for (DueEntry e : index.dueBy(now, Math.max(DueIndex.CLAIM_WINDOW, free + skip.size()))) {
          if (openedNow.size() == free) {
            break;
          }
          if (!skip.contains(e.sessionId()) && open(e.sessionId())) {
            openedNow.add(e.sessionId());
          }
        }
      }
    }
    return new Pass(closedNow, openedNow, runtime.agents().all().size());
  }

  /** Whether an idle session stays open: due soon, unless it has been overdue since long after its opening. */
  private boolean keepOpen(String id, long now) {
    OptionalLong due = index.dueAt(id);
    if (due.isEmpty() || due.getAsLong() - now > settings.keepOpenWithin().toMillis()) {
      return false;
    }
    long openedAt;
    synchronized (lock) {
      openedAt = mine.getOrDefault(id, now);
    }
    return !(due.getAsLong() <= now && now - openedAt >= settings.retryAfter().toMillis());
  }

  private boolean open(String id) {
    synchronized (lock) {
      if (closed) {
        return false;
      }
      mine.put(id, clock.millis());
    }
    try {
      var unused = runtime.openAgent(id);
      return true;
    } catch (SessionLeaseException | CommitLogLockedException e) {
      // another node or process holds it and serves its reminders
      LOG.debug("due session {} is held elsewhere: {}", id, e.getMessage());
    } catch (RuntimeException e) {
      warnings.warn("opening due session " + id + " failed", Optional.of(e));
    }
    forget(id);
    return false;
  }

  private void forget(String id) {
    synchronized (lock) {
      mine.remove(id);
    }
  }

  private void releaseQuietly(SessionLease lease) {
    SessionLeaseKeeper k = keeper;
    if (k == null) {
      return;
    }
    try {
      var unused = k.leases().release(lease);
    } catch (RuntimeException e) {
      warnings.warn("releasing the claim on session " + lease.sessionId() + " failed; it expires on its own", Optional.of(e));
    }
  }

  private boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  /**
   * Stops the passes and waits (at most ten seconds) for one in flight, so no pass opens a session
   * after this returns; the sessions it opened stay open until the runtime closes them. Idempotent.
   */
  @Override
  public void close() {
    Cancellable t;
    synchronized (lock) {
      closed = true;
      t = timer;
      timer = null;
    }
    if (t != null) {
      t.cancel();
    }
    try {
      if (passing.tryLock(10, TimeUnit.SECONDS)) {
        passing.unlock();
      } else {
        warnings.warn("a due-sessions pass was still running when the worker closed", Optional.empty());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

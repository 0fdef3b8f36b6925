package dev.horae.store.internal;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.store.DueIndexer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one home of how a store turns a persist into a due-index entry: each session's {@link
 * DueIndexer} tracker, cached (a bounded number, least recently used dropped) at the log length it
 * has absorbed, is fed only the events a persist adds. A tracker is taken out of the cache while a
 * persist uses it and put back only once that persist landed ({@link #commit}), so a refused persist
 * leaves no tracker that absorbed events the store does not hold; the next persist of that session
 * starts a fresh tracker from seq 0 of its (whole) log. Thread-safe.
 */
public final class DueTrackers {

  private static final Logger LOG = LoggerFactory.getLogger(DueTrackers.class);

  /** How many sessions' trackers a store keeps between persists, by default. */
  public static final int DEFAULT_CAPACITY = 1024;

  private final DueIndexer indexer;
  private final Map<String, Tracked> cache;

  /**
   * Trackers of one store.
   *
   * @param indexer the store's indexer
   * @param capacity how many sessions' trackers to keep between persists (at least 1)
   */
  public DueTrackers(DueIndexer indexer, int capacity) {
    this.indexer = Objects.requireNonNull(indexer, "indexer");
    if (capacity < 1) {
      throw new IllegalArgumentException("a tracker cache holds at least one session, got " + capacity);
    }
    this.cache = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Tracked> eldest) {
        return size() > capacity;
      }
    };
  }

  /** A tracker and what it answered after {@code position} events; a null tracker failed for good. */
  private record Tracked(@Nullable Function<List<SessionEvent>, OptionalLong> tracker, long position, OptionalLong due) {}

  /** A session's tracker advanced to the end of a log, not cached yet. */
  public static final class Advance {
    private final String sessionId;
    private final Tracked tracked;

    private Advance(String sessionId, Tracked tracked) {
      this.sessionId = sessionId;
      this.tracked = tracked;
    }

    /**
     * The log length the tracker covers.
     *
     * @return the length
     */
    public long length() {
      return tracked.position();
    }

    /**
     * The session's due time after that log.
     *
     * @return epoch milliseconds, or empty when nothing is due
     */
    public OptionalLong due() {
      return tracked.due();
    }
  }

  /**
   * Advances the session's tracker to the end of {@code log}: the cached one when it covers a
   * prefix of it, otherwise a fresh one fed the whole log. The tracker leaves the cache until
   * {@link #commit}. A tracker that throws is reported once and the session counts as not due from
   * then on (its log cannot be read, so nothing in it can come due).
   *
   * @param header the session's header
   * @param log the whole log the persist makes durable
   * @return the advanced tracker and its answer
   */
  public Advance advance(SessionHeader header, List<SessionEvent> log) {
    Tracked t;
    synchronized (cache) {
      t = cache.remove(header.id());
    }
    if (t == null || t.position() > log.size()) {
      t = new Tracked(indexer.track(header), 0, OptionalLong.empty());
    }
    Function<List<SessionEvent>, OptionalLong> tracker = t.tracker();
    if (tracker != null && t.position() < log.size()) {
      try {
        t = new Tracked(tracker, log.size(), Objects.requireNonNull(tracker.apply(log.subList((int) t.position(), log.size())),
            "a due tracker answered null"));
      } catch (RuntimeException e) {
        LOG.warn("the due indexer cannot read session {} (at {} events); it is indexed as not due", header.id(), log.size(), e);
        t = new Tracked(null, log.size(), OptionalLong.empty());
      }
    } else {
      t = new Tracked(tracker, log.size(), t.due());
    }
    return new Advance(header.id(), t);
  }

  /**
   * The due time of a whole log with a fresh tracker, cached for the next persist of the session.
   *
   * @param header the session's header
   * @param log the whole log
   * @return the due time
   */
  public OptionalLong compute(SessionHeader header, List<SessionEvent> log) {
    forget(header.id());
    Advance a = advance(header, log);
    commit(a);
    return a.due();
  }

  /**
   * Caches an advanced tracker once its persist landed.
   *
   * @param advance the advance
   */
  public void commit(Advance advance) {
    synchronized (cache) {
      cache.put(advance.sessionId, advance.tracked);
    }
  }

  /**
   * Trackers of the same indexer that keep at most one session: for a computation whose tracker
   * must not serve later persists (a log read without its lock, say).
   *
   * @return the trackers
   */
  public DueTrackers detached() {
    return new DueTrackers(indexer, 1);
  }

  /**
   * Drops a session's tracker (its session was released, or replaced wholesale).
   *
   * @param sessionId the session
   */
  public void forget(String sessionId) {
    synchronized (cache) {
      cache.remove(sessionId);
    }
  }
}

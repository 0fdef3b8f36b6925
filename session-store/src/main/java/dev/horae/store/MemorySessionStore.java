package dev.horae.store;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.internal.DueTable;
import dev.horae.store.internal.DueTrackers;
import dev.horae.store.internal.LeaseRules;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A session store that keeps its copies in this process: durable for as long as the process lives.
 * Right for tests, for short-lived tools and for a runtime whose sessions need not survive a
 * restart; every copy is deep, so no JSON tree is shared with a live log. Thread-safe.
 *
 * <p>Several sessions services of one process can share the store as if they were nodes sharing a
 * database; {@link #leases} gives each of them fenced session leases with the rules of the JDBC
 * store.
 */
public final class MemorySessionStore implements DueIndexed {

  private static final String NAME = "the in-memory session store";

  /** Guards {@link #stored} and {@link #leaseRecords}. */
  private final Map<String, StoredSession> stored = new HashMap<>();
  private final Map<String, LeaseRules.LeaseRecord> leaseRecords = new HashMap<>();

  private final @Nullable DueTrackers trackers;
  /** Changed under {@link #stored}, so an entry moves in the same step as the log it describes. */
  private final DueTable due = new DueTable();

  /** Creates an empty store without a due index. */
  public MemorySessionStore() {
    this.trackers = null;
  }

  /**
   * Creates an empty store that keeps a {@link DueIndex}: every persist that adds events feeds
   * them to the session's tracker and moves its entry under the same lock as the copy it keeps.
   *
   * @param indexer computes a session's due time from its log
   */
  public MemorySessionStore(DueIndexer indexer) {
    this.trackers = new DueTrackers(indexer, DueTrackers.DEFAULT_CAPACITY);
  }

  @Override
  public Optional<DueIndex> dueIndex() {
    return trackers == null ? Optional.empty() : Optional.of(new Index());
  }

  /** Moves the session's entry to {@code kept}, which the store now holds. Caller holds {@link #stored}. */
  private void index(StoredSession kept, boolean wholesale) {
    DueTrackers t = trackers;
    if (t == null) {
      return;
    }
    String id = kept.header().id();
    DueTable.Row row = due.row(id);
    if (wholesale) {
      due.replace(id, kept.events().size(), t.compute(kept.header(), kept.events()));
    } else if (row == null || row.length() != kept.events().size()) {
      DueTrackers.Advance a = t.advance(kept.header(), kept.events());
      t.commit(a);
      var unused = due.update(id, a.length(), a.due());
    }
  }

  /**
   * Keeps a deep copy of the header and log. A copy shorter than the one already kept is ignored,
   * so a persist that completes late never rolls back a newer, longer copy. A session on which a
   * lease is recorded is refused ({@link SessionLeaseException.Code#NOT_LEASED}): it is written
   * through its lease only ({@link SessionLeases#persist}).
   */
  @Override
  public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log) {
    return write(header, log, null);
  }

  private CompletionStage<Void> write(SessionHeader header, List<SessionEvent> log, SessionLease.@Nullable Fenced lease) {
    synchronized (stored) {
      Optional<SessionLeaseException> refused = refusal(header.id(), lease);
      if (refused.isPresent()) {
        return CompletableFuture.failedFuture(refused.get());
      }
      StoredSession previous = stored.get(header.id());
      if (previous != null && previous.header().equals(header) && previous.events().size() <= log.size()) {
        // a flush covers the log so far: only the events since the last one are new, so add
        // only those (a log is append-only, so the kept prefix is still its prefix; events are
        // immutable, so they are shared, not copied)
        List<SessionEvent> grown = new ArrayList<>(log.size());
        grown.addAll(previous.events());
        for (int i = previous.events().size(); i < log.size(); i++) {
          grown.add(log.get(i));
        }
        StoredSession kept = new StoredSession(header, List.copyOf(grown));
        stored.put(header.id(), kept);
        index(kept, false);
        return CompletableFuture.completedFuture(null);
      }
    }
    StoredSession copy = new StoredSession(header, Events.copyAll(log));
    synchronized (stored) {
      // the lease may have changed while the copy was made outside the lock
      Optional<SessionLeaseException> refused = refusal(header.id(), lease);
      if (refused.isPresent()) {
        return CompletableFuture.failedFuture(refused.get());
      }
      keep(copy);
    }
    return CompletableFuture.completedFuture(null);
  }

  /** Caller holds {@link #stored}. */
  private Optional<SessionLeaseException> refusal(String id, SessionLease.@Nullable Fenced lease) {
    return Leases.refusal(id, leaseRecords.getOrDefault(id, LeaseRules.LeaseRecord.NEVER_LEASED), lease);
  }

  /**
   * Keeps an already-copied session, with the same never-shorter rule as {@link #persist}. For
   * decorators that copy at persist time and keep later (a held flush, for instance); it does not
   * consult leases.
   *
   * @param copy a session no caller still mutates
   */
  public void keep(StoredSession copy) {
    synchronized (stored) {
      StoredSession previous = stored.get(copy.header().id());
      if (previous == null || previous.events().size() <= copy.events().size()) {
        stored.put(copy.header().id(), copy);
        index(copy, false);
      }
    }
  }

  /**
   * Replaces what the store holds for a session, unconditionally: seeds a store with a prepared
   * log. It does not consult leases; a due index recomputes the session's entry from the whole log.
   *
   * @param session the session to hold (copied)
   */
  public void put(StoredSession session) {
    synchronized (stored) {
      StoredSession copy = Events.copy(session);
      stored.put(session.header().id(), copy);
      index(copy, true);
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
   * Whether the session is stored, without copying the ids.
   *
   * @param id the session id
   * @return true when it is stored
   */
  @Override
  public boolean contains(String id) {
    synchronized (stored) {
      return stored.containsKey(id);
    }
  }

  /**
   * Fenced session leases on this store for one owner, with the rules of {@link
   * JdbcSessionStore#leases}: several owners (nodes of a test, sessions services of one process)
   * sharing this store write each session one at a time.
   *
   * @param owner the owner id, unique per node
   * @param duration how long an acquired or renewed lease lasts (at least 1 ms)
   * @param clock the clock that times leases
   * @return the owner's view of the leases
   * @throws IllegalArgumentException when the owner is blank or the duration shorter than 1 ms
   */
  public SessionLeases leases(String owner, Duration duration, InstantSource clock) {
    return new Leased(owner, duration, clock);
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

  /** The due index over {@link #due}; reads take the store's lock, so they see whole persists. */
  private final class Index implements DueIndex {

    @Override
    public List<DueEntry> dueBy(long nowMs, int limit) {
      synchronized (stored) {
        return due.dueBy(nowMs, limit);
      }
    }

    @Override
    public java.util.OptionalLong dueAt(String sessionId) {
      synchronized (stored) {
        return due.dueAt(sessionId);
      }
    }

    @Override
    public java.util.OptionalLong earliest() {
      synchronized (stored) {
        return due.earliest();
      }
    }

    @Override
    public int rebuild() {
      int rebuilt = 0;
      synchronized (stored) {
        for (StoredSession session : stored.values()) {
          DueTable.Row row = due.row(session.header().id());
          if (row == null || row.length() != session.events().size()) {
            index(session, true);
            rebuilt++;
          }
        }
      }
      return rebuilt;
    }
  }

  /** One owner's leases; every operation runs under the store's lock, so it is one transaction. */
  private final class Leased extends RecordedLeases {

    Leased(String owner, Duration duration, InstantSource clock) {
      super(owner, duration, clock);
    }

    @Override
    String storeName() {
      return NAME;
    }

    @Override
    public SessionStore store() {
      return MemorySessionStore.this;
    }

    @Override
    <T> T locked(String sessionId, boolean create, Function<LeaseRules.LeaseRecord, Decision<T>> decide) {
      synchronized (stored) {
        Decision<T> decision = decide.apply(read(sessionId));
        LeaseRules.LeaseRecord write = decision.write();
        if (write != null) {
          leaseRecords.put(sessionId, write);
        }
        return decision.result();
      }
    }

    @Override
    LeaseRules.LeaseRecord read(String sessionId) {
      synchronized (stored) {
        return leaseRecords.getOrDefault(sessionId, LeaseRules.LeaseRecord.NEVER_LEASED);
      }
    }

    @Override
    public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log, SessionLease lease) {
      try {
        return write(header, log, Leases.fenced(lease, header, NAME));
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
    }
  }
}

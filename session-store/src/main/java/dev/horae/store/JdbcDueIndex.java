package dev.horae.store;

import dev.horae.spi.session.StoredSession;
import dev.horae.store.internal.DueTrackers;
import dev.horae.store.internal.LeaseRules;
import dev.horae.store.internal.SessionTables;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The JDBC store's due index on {@code <prefix>due}: one row per indexed session (its due time,
 * null when nothing is due, and the log length it was computed at), written by each persist in the
 * persist's own transaction. A claim is one transaction that locks due rows {@code FOR UPDATE SKIP
 * LOCKED} and acquires their sessions' leases, passing over lease rows another transaction holds,
 * so it never waits while it holds due rows and concurrent claimers take disjoint sessions.
 */
final class JdbcDueIndex implements DueIndex {

  private static final String INDEX = "the due index";

  private final JdbcSessionStore store;
  private final SessionTables tables;
  private final DueTrackers trackers;

  JdbcDueIndex(JdbcSessionStore store, DueTrackers trackers) {
    this.store = store;
    this.tables = store.tables();
    this.trackers = trackers;
  }

  @Override
  public List<DueEntry> dueBy(long nowMs, int limit) {
    List<DueEntry> out = new ArrayList<>();
    if (limit <= 0) {
      return out;
    }
    store.inTransaction(INDEX, Connection.TRANSACTION_READ_COMMITTED, c -> {
      try (PreparedStatement q = c.prepareStatement(tables.dueBy())) {
        q.setLong(1, nowMs);
        q.setInt(2, limit);
        try (ResultSet rows = q.executeQuery()) {
          while (rows.next()) {
            out.add(new DueEntry(rows.getString(1), rows.getLong(2)));
          }
        }
      }
    });
    return out;
  }

  @Override
  public OptionalLong dueAt(String sessionId) {
    List<OptionalLong> out = new ArrayList<>(1);
    store.inTransaction(sessionId, Connection.TRANSACTION_READ_COMMITTED, c -> {
      try (PreparedStatement q = c.prepareStatement(tables.readDue())) {
        q.setString(1, sessionId);
        try (ResultSet rows = q.executeQuery()) {
          out.add(rows.next() ? nullableLong(rows, 1) : OptionalLong.empty());
        }
      }
    });
    return out.get(0);
  }

  @Override
  public OptionalLong earliest() {
    List<OptionalLong> out = new ArrayList<>(1);
    store.inTransaction(INDEX, Connection.TRANSACTION_READ_COMMITTED, c -> {
      try (PreparedStatement q = c.prepareStatement(tables.earliestDue()); ResultSet rows = q.executeQuery()) {
        out.add(rows.next() ? nullableLong(rows, 1) : OptionalLong.empty());
      }
    });
    return out.get(0);
  }

  private static OptionalLong nullableLong(ResultSet rows, int column) throws SQLException {
    long v = rows.getLong(column);
    return rows.wasNull() ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /**
   * Recomputes each stale session in a transaction of its own that holds its session row {@code
   * FOR UPDATE}, so no persist of it lands between the read and the entry.
   */
  @Override
  public int rebuild() {
    List<String> stale = new ArrayList<>();
    store.inTransaction(INDEX, Connection.TRANSACTION_READ_COMMITTED, c -> {
      try (PreparedStatement q = c.prepareStatement(tables.staleDue()); ResultSet rows = q.executeQuery()) {
        while (rows.next()) {
          stale.add(rows.getString(1));
        }
      }
    });
    for (String id : stale) {
      store.inTransaction(id, Connection.TRANSACTION_READ_COMMITTED, c -> {
        try (PreparedStatement lock = c.prepareStatement(tables.lockSession())) {
          lock.setString(1, id);
          try (ResultSet row = lock.executeQuery()) {
            if (!row.next()) {
              return;
            }
          }
        }
        Optional<StoredSession> s = store.loadIn(c, id);
        if (s.isPresent()) {
          // a fresh tracker: the cached one serves persists, which feed it only what they add
          DueTrackers.Advance a = trackers.detached().advance(s.get().header(), s.get().events());
          store.writeDue(c, id, a.length(), a.due());
        }
      });
    }
    return stale.size();
  }

  @Override
  public List<SessionLease> claim(SessionLeases leases, long nowMs, int limit, Set<String> skip) {
    if (!(leases instanceof JdbcSessionLeases mine) || !mine.on(store)) {
      return DueIndex.super.claim(leases, nowMs, limit, skip);
    }
    List<SessionLease> claimed = new ArrayList<>();
    if (limit <= 0) {
      return claimed;
    }
    long leaseNow = mine.nowMs();
    store.inTransaction(INDEX, Connection.TRANSACTION_READ_COMMITTED, c -> {
      claimed.clear();
      List<String> due = new ArrayList<>();
      Array skipped = c.createArrayOf("text", skip.toArray());
      try (PreparedStatement q = c.prepareStatement(tables.claimDue())) {
        q.setLong(1, nowMs);
        q.setArray(2, skipped);
        q.setLong(3, leaseNow);
        q.setInt(4, limit);
        try (ResultSet rows = q.executeQuery()) {
          while (rows.next()) {
            due.add(rows.getString(1));
          }
        }
      } finally {
        skipped.free();
      }
      for (String id : due) {
        try (PreparedStatement insert = c.prepareStatement(tables.insertLease())) {
          insert.setString(1, id);
          insert.executeUpdate();
        }
        LeaseRules.LeaseRecord current;
        try (PreparedStatement lock = c.prepareStatement(tables.lockLeaseOrSkip())) {
          lock.setString(1, id);
          try (ResultSet row = lock.executeQuery()) {
            if (!row.next()) {
              // a persist or an acquisition holds it right now: somebody is serving this session
              continue;
            }
          }
        }
        current = store.readLease(c, id, tables.lockLease());
        Optional<LeaseRules.LeaseRecord> next = LeaseRules.acquire(current, mine.owner(), leaseNow, mine.durationMs());
        if (next.isPresent()) {
          mine.update(c, id, next.get());
          claimed.add(Leases.held(id, next.get()));
        }
      }
    });
    return claimed;
  }
}

package dev.horae.store;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.store.internal.LeaseRules.Holder;
import dev.horae.store.internal.LeaseRules.LeaseRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * One owner's session leases on a {@link JdbcSessionStore}; see {@link JdbcSessionStore#leases}.
 * Each operation reads the clock once, before its transaction, and decides on the lease row it
 * holds {@code FOR UPDATE}.
 */
final class JdbcSessionLeases extends RecordedLeases {

  private final JdbcSessionStore store;

  JdbcSessionLeases(JdbcSessionStore store, String owner, Duration duration, InstantSource clock) {
    super(owner, duration, clock);
    this.store = store;
  }

  /** Whether these are leases on {@code other}. */
  boolean on(JdbcSessionStore other) {
    return store == other;
  }

  @Override
  String storeName() {
    return "the JDBC session store (" + store.tables().leases() + ")";
  }

  @Override
  public SessionStore store() {
    return store;
  }

  @Override
  <T> T locked(String sessionId, boolean create, Function<LeaseRecord, Decision<T>> decide) {
    List<T> result = new ArrayList<>(1);
    store.inTransaction(sessionId, Connection.TRANSACTION_READ_COMMITTED, c -> {
      if (create) {
        // a concurrent first acquisition waits here on the primary key until the other commits;
        // a refusal rolls this insert back too, so it leaves nothing behind
        try (PreparedStatement insert = c.prepareStatement(store.tables().insertLease())) {
          insert.setString(1, sessionId);
          insert.executeUpdate();
        }
      }
      Decision<T> decision = decide.apply(store.readLease(c, sessionId, store.tables().lockLease()));
      LeaseRecord write = decision.write();
      if (write != null) {
        update(c, sessionId, write);
      }
      result.add(decision.result());
    });
    return result.get(0);
  }

  @Override
  LeaseRecord read(String sessionId) {
    List<LeaseRecord> result = new ArrayList<>(1);
    store.inTransaction(sessionId, Connection.TRANSACTION_READ_COMMITTED,
        c -> result.add(store.readLease(c, sessionId, store.tables().readLease())));
    return result.get(0);
  }

  @Override
  public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log, SessionLease lease) {
    try {
      return store.write(header, log, Leases.fenced(lease, header, storeName()));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Writes a lease row the caller's transaction holds locked. */
  void update(Connection c, String sessionId, LeaseRecord next) throws SQLException {
    try (PreparedStatement update = c.prepareStatement(store.tables().updateLease())) {
      Holder h = next.holder();
      if (h == null) {
        update.setNull(1, Types.VARCHAR);
        update.setLong(2, next.epoch());
        update.setNull(3, Types.BIGINT);
        update.setNull(4, Types.BIGINT);
      } else {
        update.setString(1, h.owner());
        update.setLong(2, next.epoch());
        update.setLong(3, h.acquiredAtMs());
        update.setLong(4, h.expiresAtMs());
      }
      update.setString(5, sessionId);
      update.executeUpdate();
    }
  }
}

package dev.horae.store;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.store.internal.LeaseRules;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One owner's session leases on a {@link JdbcSessionStore}; see {@link JdbcSessionStore#leases}.
 * Each operation reads the clock once, before its transaction, and decides with {@link LeaseRules}
 * on the row it holds locked.
 */
final class JdbcSessionLeases implements SessionLeases {

  private static final String NAME = "the JDBC session store";

  private final JdbcSessionStore store;
  private final String owner;
  private final Duration duration;
  private final long durationMs;
  private final InstantSource clock;

  JdbcSessionLeases(JdbcSessionStore store, String owner, Duration duration, long durationMs, InstantSource clock) {
    this.store = store;
    this.owner = owner;
    this.duration = duration;
    this.durationMs = durationMs;
    this.clock = clock;
  }

  @Override
  public String owner() {
    return owner;
  }

  @Override
  public Optional<Duration> duration() {
    return Optional.of(duration);
  }

  @Override
  public SessionStore store() {
    return store;
  }

  @Override
  public SessionLease acquire(String sessionId) {
    LeaseRules.sessionId(sessionId);
    long now = clock.millis();
    List<SessionLease> result = new ArrayList<>(1);
    store.inTransaction(sessionId, Connection.TRANSACTION_READ_COMMITTED, c -> {
      // a concurrent first acquisition waits here on the primary key until the other commits
      try (PreparedStatement insert = c.prepareStatement(store.tables().insertLease())) {
        insert.setString(1, sessionId);
        insert.executeUpdate();
      }
      LeaseRules.LeaseRecord current = store.readLease(c, sessionId, store.tables().lockLease());
      // the refusal rolls back the row insert too: a refused acquisition leaves nothing behind
      LeaseRules.LeaseRecord next = LeaseRules.acquire(current, owner, now, durationMs)
          .orElseThrow(() -> Leases.held(sessionId, owner, current));
      update(c, sessionId, next);
      result.add(Leases.held(sessionId, next));
    });
    return result.get(0);
  }

  @Override
  public Optional<SessionLease> renew(SessionLease lease) {
    SessionLease.Fenced mine = Leases.fenced(lease, lease.sessionId(), NAME);
    long now = clock.millis();
    List<SessionLease> result = new ArrayList<>(1);
    store.inTransaction(mine.sessionId(), Connection.TRANSACTION_READ_COMMITTED, c -> {
      LeaseRules.LeaseRecord current = store.readLease(c, mine.sessionId(), store.tables().lockLease());
      if (LeaseRules.current(current, mine.owner(), mine.epoch())) {
        LeaseRules.LeaseRecord next = LeaseRules.renewed(current, now, durationMs);
        update(c, mine.sessionId(), next);
        result.add(Leases.held(mine.sessionId(), next));
      }
    });
    return result.stream().findFirst();
  }

  @Override
  public boolean release(SessionLease lease) {
    SessionLease.Fenced mine = Leases.fenced(lease, lease.sessionId(), NAME);
    boolean[] released = {false};
    store.inTransaction(mine.sessionId(), Connection.TRANSACTION_READ_COMMITTED, c -> {
      LeaseRules.LeaseRecord current = store.readLease(c, mine.sessionId(), store.tables().lockLease());
      if (LeaseRules.current(current, mine.owner(), mine.epoch())) {
        update(c, mine.sessionId(), LeaseRules.released(current));
        released[0] = true;
      }
    });
    return released[0];
  }

  @Override
  public Optional<SessionLease> current(String sessionId) {
    List<Optional<SessionLease>> result = new ArrayList<>(1);
    store.inTransaction(sessionId, Connection.TRANSACTION_READ_COMMITTED,
        c -> result.add(Leases.of(sessionId, store.readLease(c, sessionId, store.tables().readLease()))));
    return result.get(0);
  }

  @Override
  public Optional<Duration> remaining(SessionLease lease) {
    return Leases.remaining(lease, clock);
  }

  @Override
  public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log, SessionLease lease) {
    try {
      return store.write(header, log, Leases.fenced(lease, header, NAME));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private void update(Connection c, String sessionId, LeaseRules.LeaseRecord next) throws SQLException {
    try (PreparedStatement update = c.prepareStatement(store.tables().updateLease())) {
      LeaseRules.Holder h = next.holder();
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

  @Override
  public String toString() {
    return "leases of " + owner + " on " + NAME + " (" + store.tables().leases() + ")";
  }
}

package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * The shared store contract, and the JDBC store's own rules, on a real PostgreSQL (embedded, one
 * server per test JVM: {@link Postgres}). Each test gets its own tables through a fresh prefix.
 * Tagged {@code postgres} as well as {@code slow}, so that PIT runs it (session-store's pom).
 */
@Tag("slow")
@Tag("postgres")
class JdbcSessionStoreTest extends SessionStoreContract {

  private static final AtomicInteger TABLES = new AtomicInteger();

  private String prefix = "";
  private @Nullable JdbcSessionStore store;

  @BeforeAll
  // longer than the build's 60 s default: unpacking and starting the embedded PostgreSQL server
  // took about 16 s under a load of 15-18 on the 2-core CI machine
  @Timeout(180)
  static void startPostgres() throws Exception {
    Postgres.start();
  }

  private static DataSource dataSource() {
    return Postgres.dataSource();
  }

  @BeforeEach
  void freshTables() {
    prefix = "t" + TABLES.incrementAndGet() + "_";
    store = JdbcSessionStore.create(dataSource(), prefix);
    store.migrate();
  }

  @Override
  SessionStore store() {
    if (store == null) {
      throw new IllegalStateException("no store");
    }
    return store;
  }

  @Override
  SessionStore reopen() {
    store = JdbcSessionStore.create(dataSource(), prefix);
    return store;
  }

  private void sql(String statement) throws SQLException {
    try (Connection c = dataSource().getConnection(); Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  @Test
  void migrateIsIdempotent() {
    JdbcSessionStore again = JdbcSessionStore.create(dataSource(), prefix);
    again.migrate();
    again.migrate();
    assertThat(again.ddl()).hasSize(10).allMatch(s -> s.startsWith("CREATE TABLE IF NOT EXISTS " + prefix)
        || s.startsWith("CREATE INDEX IF NOT EXISTS " + prefix) || s.startsWith("ALTER TABLE " + prefix + "session ")
        || s.startsWith("UPDATE " + prefix + "session "));
    assertThat(again.ddl().get(2)).startsWith("CREATE TABLE IF NOT EXISTS " + prefix + "lease (");
    assertThat(again.ddl().get(3)).startsWith("CREATE TABLE IF NOT EXISTS " + prefix + "due (");
  }

  @Test
  void twoNodesSeeEachOthersCommits() {
    JdbcSessionStore a = JdbcSessionStore.create(dataSource(), prefix);
    JdbcSessionStore b = JdbcSessionStore.create(dataSource(), prefix);
    a.persist(header("s"), log(2)).toCompletableFuture().join();
    b.persist(header("s"), log(5)).toCompletableFuture().join();
    assertThat(a.load("s").orElseThrow().events()).isEqualTo(log(5));
    assertThat(b.ids()).containsExactly("s");
  }

  @Test
  void rowsThatAreNotAContiguousLogAreReportedNotTruncated() throws SQLException {
    store().persist(header("s"), log(4)).toCompletableFuture().join();
    sql("DELETE FROM " + prefix + "event WHERE session_id = 's' AND seq = 2");
    assertThatThrownBy(() -> store().load("s"))
        .isInstanceOf(SessionStoreException.class)
        .hasMessage("session s in " + prefix + "event and " + prefix + "segment is not contiguous: expected seq 2, found 3");
    sql("DELETE FROM " + prefix + "event WHERE session_id = 's' AND seq = 3");
    assertThatThrownBy(() -> store().load("s"))
        .isInstanceOf(SessionStoreException.class)
        .hasMessage("session s has length 4 in " + prefix + "session but 2 events in " + prefix + "event and " + prefix
            + "segment");
  }

  @Test
  void aCorruptEventRowNamesSessionAndSeq() throws SQLException {
    store().persist(header("s"), log(2)).toCompletableFuture().join();
    sql("UPDATE " + prefix + "event SET event = '{\"seq\":1}' WHERE session_id = 's' AND seq = 1");
    assertThatThrownBy(() -> store().load("s"))
        .isInstanceOf(SessionStoreException.class)
        .hasMessageStartingWith("session s has a corrupt event at seq 1 in " + prefix + "event: ");
  }

  /**
   * A data source that hands out one physical connection again and again (its {@code close}
   * keeps it open), as a pool of one does; {@code driverVisible} false hides the driver's own
   * connection from {@code unwrap}.
   */
  private static DataSource oneConnection(Connection physical, boolean driverVisible) {
    Connection handed = (Connection) java.lang.reflect.Proxy.newProxyInstance(
        Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
          String name = method.getName();
          if (name.equals("close")) {
            return null;
          }
          if (!driverVisible && name.equals("unwrap")) {
            throw new SQLException("not a wrapper of " + args[0]);
          }
          if (!driverVisible && name.equals("isWrapperFor")) {
            return false;
          }
          try {
            return method.invoke(physical, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        });
    return (DataSource) java.lang.reflect.Proxy.newProxyInstance(
        DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
          if (method.getName().equals("getConnection")) {
            return handed;
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }

  @Test
  void aLoadThatFailsMidLogLeavesItsConnectionUsable() throws SQLException {
    try (Connection physical = dataSource().getConnection()) {
      JdbcSessionStore one = JdbcSessionStore.create(oneConnection(physical, true), prefix);
      one.persist(header("bad"), log(300)).toCompletableFuture().join();
      one.persist(header("good"), log(3)).toCompletableFuture().join();
      // segments and rows after the corrupt segment are still on their way when the load fails
      sql("UPDATE " + prefix + "segment SET events = '[{\"seq\":0}]' WHERE session_id = 'bad' AND first_seq = 0");
      for (long pipelineAt : new long[] {Long.MAX_VALUE, 1}) {
        one.pipelineAt(pipelineAt);
        assertThatThrownBy(() -> one.load("bad"))
            .isInstanceOf(SessionStoreException.class)
            .hasMessageStartingWith("session bad has a corrupt segment from seq 0 in " + prefix + "segment: ")
            .satisfies(e -> assertThat(e.getSuppressed()).isEmpty());
        assertThat(one.load("good").orElseThrow().events()).isEqualTo(log(3));
        assertThat(physical.getAutoCommit()).isTrue();
      }
    }
  }

  @Test
  void aConnectionThatDoesNotUnwrapToTheDriverCannotLoadAndSaysWhy() throws SQLException {
    try (Connection physical = dataSource().getConnection()) {
      JdbcSessionStore hidden = JdbcSessionStore.create(oneConnection(physical, false), prefix);
      hidden.persist(header("s"), log(2)).toCompletableFuture().join();
      assertThatThrownBy(() -> hidden.load("s"))
          .isInstanceOf(SessionStoreException.class)
          .hasMessageStartingWith("database failure on session s: the JDBC store reads a session's log with COPY and"
              + " needs connections that unwrap to org.postgresql.PGConnection: not a wrapper of");
      assertThat(store().load("s").orElseThrow().events()).isEqualTo(log(2));
    }
  }

  @Test
  void sessionIdsAreBoundNeverSplicedIntoTheStatements() {
    java.util.List<String> hostile = java.util.List.of("'; DROP TABLE " + prefix + "event; --", "../x", "\\", "x\ny",
        "\ud83d\udd70", "' OR '1'='1");
    for (String id : hostile) {
      store().persist(header(id), log(2)).toCompletableFuture().join();
    }
    SessionStore again = reopen();
    assertThat(again.ids()).containsExactlyInAnyOrderElementsOf(hostile);
    for (String id : hostile) {
      assertThat(again.load(id).orElseThrow().events()).isEqualTo(log(2));
    }
  }

  @Test
  void aBadPrefixIsRefused() {
    assertThatThrownBy(() -> JdbcSessionStore.create(dataSource(), "x; DROP TABLE y"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("table prefix must match");
  }

  private long count(String query) throws SQLException {
    try (Connection c = dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rows = s.executeQuery(query)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  /**
   * The lease contract with two stores ("nodes") on one database, each through its own {@link
   * JdbcSessionStore} instance, and what only PostgreSQL shows: the rows.
   */
  @Nested
  class Leases extends SessionLeasesContract {

    @Override
    SessionLeases leases(String owner, Duration duration, InstantSource clock) {
      // every owner gets its own store instance, as a node of its own would
      return JdbcSessionStore.create(dataSource(), prefix).leases(owner, duration, clock);
    }

    @Override
    long storedEvents(String id) {
      try {
        long rows = count("SELECT count(*) FROM " + prefix + "event WHERE session_id = '" + id + "'");
        long length = count("SELECT coalesce(max(length), 0) FROM " + prefix + "session WHERE session_id = '" + id + "'");
        assertThat(length).as("committed length of " + id).isEqualTo(rows);
        return rows;
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    /** A table lock both acquisitions queue behind, released at once when the gate closes. */
    @Override
    Gate acquisitionGate() throws SQLException {
      Connection holder = dataSource().getConnection();
      holder.setAutoCommit(false);
      try (Statement s = holder.createStatement()) {
        s.execute("LOCK TABLE " + prefix + "lease IN EXCLUSIVE MODE");
      }
      return new Gate() {
        @Override
        public void awaitWaiting(int acquisitions) {
          Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> count(
              "SELECT count(*) FROM pg_locks l JOIN pg_class r ON l.relation = r.oid WHERE r.relname = '" + prefix
                  + "lease' AND NOT l.granted") >= acquisitions);
        }

        @Override
        public void close() throws SQLException {
          holder.commit();
          holder.close();
        }
      };
    }

    @Test
    void leaseTimesComeFromTheNodesClockNotTheDatabases() throws SQLException {
      SessionLease la = leases("node-a").acquire("s");
      clock.advance(Duration.ofSeconds(5));
      var unused = leases("node-a").renew(la);
      try (Connection c = dataSource().getConnection();
          Statement s = c.createStatement();
          ResultSet row = s.executeQuery(
              "SELECT owner, epoch, acquired_at_ms, expires_at_ms FROM " + prefix + "lease WHERE session_id = 's'")) {
        assertThat(row.next()).isTrue();
        assertThat(row.getString(1)).isEqualTo("node-a");
        assertThat(row.getLong(2)).isEqualTo(1);
        assertThat(row.getLong(3)).isEqualTo(T0.toEpochMilli());
        assertThat(row.getLong(4)).isEqualTo(T0.plusSeconds(35).toEpochMilli());
      }
    }

    @Test
    void aReleasedLeaseKeepsItsEpochInTheRow() throws SQLException {
      SessionLeases a = leases("node-a");
      SessionLease la = a.acquire("s");
      assertThat(a.release(la)).isTrue();
      assertThat(count("SELECT count(*) FROM " + prefix + "lease WHERE session_id = 's' AND owner IS NULL "
          + "AND acquired_at_ms IS NULL AND expires_at_ms IS NULL AND epoch = 1")).isEqualTo(1);
    }

    @Test
    void aRefusedAcquisitionChangesNoRow() throws SQLException {
      SessionLeases a = leases("node-a");
      SessionLease la = a.acquire("s");
      assertThatThrownBy(() -> leases("node-b").acquire("s")).isInstanceOf(SessionLeaseException.class);
      assertThat(a.current("s")).contains(la);
      assertThat(count("SELECT count(*) FROM " + prefix + "lease")).isEqualTo(1);
    }

    @Test
    void anAcquisitionWaitsWhileAPersistHoldsTheLeaseRowAndFencesItAfterwards() throws Exception {
      SessionLeases a = leases("node-a");
      SessionLease la = a.acquire("s");
      a.persist(header("s"), log(1), la).toCompletableFuture().join();
      clock.advance(LEASE.plusMillis(1));
      // a persist of A that is in flight holds the lease row shared: simulated by a transaction
      // that reads it FOR SHARE, as the persist does, and stays open
      try (Connection inFlight = dataSource().getConnection()) {
        inFlight.setAutoCommit(false);
        try (Statement s = inFlight.createStatement()) {
          s.executeQuery("SELECT epoch FROM " + prefix + "lease WHERE session_id = 's' FOR SHARE").close();
        }
        SessionLeases b = leases("node-b");
        CompletableFuture<SessionLease> taking = CompletableFuture.supplyAsync(() -> b.acquire("s"));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> count(
            "SELECT count(*) FROM pg_locks WHERE NOT granted") >= 1);
        assertThat(taking).isNotDone();
        inFlight.commit();
        assertThat(taking.get(30, TimeUnit.SECONDS).owner()).isEqualTo("node-b");
      }
      refusal(Logs.failure(a.persist(header("s"), log(2), la)));
      assertThat(storedEvents("s")).isEqualTo(1);
    }

    @Test
    void twoLeasedNodesOnPostgresWriteOneAtATimeAndTheDisplacedOneHearsItOnce() throws SQLException {
      List<String> lostOnA = new ArrayList<>();
      List<String> warningsOnA = new ArrayList<>();
      ManualClock.NodeTimers timersA = clock.timers();
      SessionLeaseKeeper keeperA =
          SessionLeaseKeeper.of(leases("node-a"), timersA, Runnable::run, (m, c) -> warningsOnA.add(m));
      keeperA.onLost((lease, why) -> lostOnA.add(lease.sessionId() + ": " + why));
      LogSessions nodeA = LogSessions.leased(keeperA, clock, (m, c) -> warningsOnA.add(m));
      SessionLeaseKeeper keeperB = SessionLeaseKeeper.of(leases("node-b"), clock.timers(), Runnable::run, (m, c) -> { });
      LogSessions nodeB = LogSessions.leased(keeperB, clock, (m, c) -> { });

      Session onA = nodeA.create(new CreateOptions(Optional.of("s"), Optional.empty(), Optional.empty()));
      onA.append("test/event", JsonNodeFactory.instance.objectNode());
      assertThat(nodeA.flush(onA).toCompletableFuture().join()).isTrue();
      // A renews while awake
      clock.advance(Duration.ofSeconds(10));
      timersA.runDue();
      assertThatThrownBy(() -> nodeB.resume("s")).isInstanceOf(SessionLeaseException.class);

      // A pauses past its renewed lease; B takes the session over
      clock.advance(LEASE.plusMillis(1));
      Session onB = nodeB.resume("s");
      onB.append("test/event", JsonNodeFactory.instance.objectNode());
      assertThat(nodeB.flush(onB).toCompletableFuture().join()).isTrue();
      assertThat(storedEvents("s")).isEqualTo(2);

      // A's renewal finds the loss: the callback fires once and the session is detached
      timersA.runDue();
      assertThat(lostOnA).containsExactly("s: lease of session s (owner node-a, epoch 1, expires 2026-12-01T10:00:40Z) "
          + "is no longer current: another owner acquired the session or it was released");
      assertThat(nodeA.get("s")).isEmpty();
      assertThat(nodeA.flush(onA).toCompletableFuture()).isCompletedExceptionally();
      clock.advance(LEASE);
      timersA.runDue();
      assertThat(lostOnA).hasSize(1);
      assertThat(storedEvents("s")).isEqualTo(2);
      assertThat(count("SELECT epoch FROM " + prefix + "lease WHERE session_id = 's'")).isEqualTo(2);

      // B closes: the lease is released and A may open the session again at once
      nodeB.detachAll();
      keeperB.close();
      assertThat(nodeA.resume("s").events()).hasSize(2);
      assertThat(count("SELECT epoch FROM " + prefix + "lease WHERE session_id = 's'")).isEqualTo(3);
    }

    private void refusal(Throwable t) {
      assertThat(t).isInstanceOfSatisfying(SessionLeaseException.class,
          e -> assertThat(e.code()).isEqualTo(SessionLeaseException.Code.STALE_EPOCH));
    }
  }

  @Test
  void aDatabaseFailureFailsTheStage() throws SQLException {
    sql("DROP TABLE " + prefix + "event");
    assertThat(store().persist(header("s"), log(1)).toCompletableFuture())
        .isCompletedExceptionally();
    assertThatThrownBy(() -> store().persist(header("s"), log(1)).toCompletableFuture().join())
        .hasCauseInstanceOf(SessionStoreException.class)
        .hasMessageContaining("database failure on session s");
  }
}

package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.EventCodec;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JDBC store's rules beyond the shared contract: damaged rows are reported with the session,
 * table and seq instead of being read past, and a host's pooled connection goes back exactly as it
 * came (auto-commit and isolation), while persists still take turns whatever isolation the pool
 * hands out.
 */
@Tag("slow")
@Tag("postgres")
class JdbcStoreRulesTest {

  private static final AtomicInteger TABLES = new AtomicInteger();

  private String prefix = "";

  @BeforeAll
  // longer than the build's 60 s default: unpacking and starting the embedded PostgreSQL server
  // took about 16 s under a load of 15-18 on the 2-core CI machine
  @Timeout(180)
  static void startPostgres() throws Exception {
    Postgres.start();
  }

  @BeforeEach
  void freshTables() {
    prefix = "rules" + TABLES.incrementAndGet() + "_";
    store().migrate();
  }

  private JdbcSessionStore store() {
    return JdbcSessionStore.create(Postgres.dataSource(), prefix);
  }

  private void sql(String statement) throws SQLException {
    try (Connection c = Postgres.dataSource().getConnection(); Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  @Test
  void aRowWhoseEventClaimsAnotherSeqIsReported() throws SQLException {
    store().persist(header("s"), log(3)).toCompletableFuture().join();
    String zero = Json.write(EventCodec.toJson(log(1).get(0)));
    sql("UPDATE " + prefix + "event SET event = '" + zero + "' WHERE session_id = 's' AND seq = 2");
    assertThatThrownBy(() -> store().load("s"))
        .isInstanceOf(SessionStoreException.class)
        .hasMessage("session s has an event claiming seq 0 in the row of seq 2 in " + prefix + "event");
  }

  @Test
  void aCorruptHeaderRowIsReported() throws SQLException {
    store().persist(header("s"), log(1)).toCompletableFuture().join();
    sql("UPDATE " + prefix + "session SET header = '{\"version\":1}' WHERE session_id = 's'");
    assertThatThrownBy(() -> store().load("s"))
        .isInstanceOf(SessionStoreException.class)
        .hasMessageStartingWith("session s has a corrupt header in " + prefix + "session: ");
  }

  @Test
  void aMissingLastEventRowFailsTheNextPersistAndAddsNothing() throws SQLException {
    store().persist(header("s"), log(3)).toCompletableFuture().join();
    sql("DELETE FROM " + prefix + "event WHERE session_id = 's' AND seq = 2");
    assertThatThrownBy(() -> store().persist(header("s"), log(5)).toCompletableFuture().join())
        .hasCauseInstanceOf(SessionStoreException.class)
        .hasMessageContaining("session s has no stored event at seq 2 in " + prefix + "event");
    sql("INSERT INTO " + prefix + "event (session_id, seq, type, event) VALUES ('s', 2, 'test/event', '"
        + Json.write(EventCodec.toJson(log(3).get(2))) + "'::json)");
    assertThat(store().load("s").orElseThrow().events()).isEqualTo(log(3));
  }

  @Test
  void aLogOfTheStoredLengthWhoseLastEventDiffersIsRefused() {
    store().persist(header("s"), log(3)).toCompletableFuture().join();
    List<SessionEvent> other = new ArrayList<>(log(3));
    other.set(2, SessionEvent.of(2, "other/type", 7, Json.parse("{}")));
    assertThatThrownBy(() -> store().persist(header("s"), other).toCompletableFuture().join())
        .hasCauseInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not continue the stored log: seq 2 is stored as test/event@1700000000002"
            + " but given as other/type@7");
    // the same log again is still harmless
    store().persist(header("s"), log(3)).toCompletableFuture().join();
    assertThat(store().load("s").orElseThrow().events()).isEqualTo(log(3));
  }

  @Test
  void aLogOfManyEventsLandsWholeAcrossInsertBatches() {
    store().persist(header("s"), log(3)).toCompletableFuture().join();
    store().persist(header("s"), log(1203)).toCompletableFuture().join();
    assertThat(JdbcSessionStore.create(Postgres.dataSource(), prefix).load("s").orElseThrow().events())
        .isEqualTo(log(1203));
  }

  @Test
  void aPooledConnectionGoesBackAsItCame() throws SQLException {
    try (Pool pool = new Pool(1, true)) {
      usePooled(pool);
    }
  }

  private void usePooled(Pool pool) {
    JdbcSessionStore pooled = JdbcSessionStore.create(pool, prefix);
    pooled.migrate();
    pooled.persist(header("s"), log(2)).toCompletableFuture().join();
    assertThat(pooled.load("s").orElseThrow().events()).isEqualTo(log(2));
    assertThat(pooled.persist(header("s"), log(1).subList(0, 0)).toCompletableFuture()).isDone();
    assertThatThrownBy(() -> pooled.persist(header("other"), List.of(Logs.event(1))).toCompletableFuture().join())
        .hasCauseInstanceOf(IllegalArgumentException.class);
    assertThat(pooled.ids()).containsExactly("s");
    assertThat(pooled.contains("s")).isTrue();
    assertThat(pooled.contains("other")).isFalse();
    assertThat(pooled.contains("s' OR '1'='1")).isFalse();
    assertThat(pool.returned).isNotEmpty().allSatisfy(state -> assertThat(state).isEqualTo("autoCommit=true isolation="
        + Connection.TRANSACTION_SERIALIZABLE));
  }

  @Test
  void persistsTakeTurnsEvenWhenThePoolHandsOutSerializableConnections() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try (Pool pool = new Pool(4, true)) {
      JdbcSessionStore pooled = JdbcSessionStore.create(pool, prefix);
      List<CompletableFuture<Void>> all = new ArrayList<>();
      for (int n = 1; n <= 24; n++) {
        int size = n;
        all.add(CompletableFuture.runAsync(
            () -> pooled.persist(header("busy"), log(size)).toCompletableFuture().join(), threads));
      }
      CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
      assertThat(pooled.load("busy").orElseThrow().events()).isEqualTo(log(24));
    } finally {
      threads.shutdownNow();
    }
  }

  /**
   * A stand-in for a host's connection pool: each connection starts with the given auto-commit and
   * serializable isolation, and its state is recorded when the store hands it back. At most {@code
   * size} physical connections, reused; closing the pool closes them (a test JVM under PIT runs
   * these tests once per mutant, so none may leak).
   */
  private static final class Pool implements DataSource, AutoCloseable {
    private final int size;
    private final boolean autoCommit;
    private final List<Connection> idle = new ArrayList<>();
    private int opened;
    final List<String> returned = new ArrayList<>();

    Pool(int size, boolean autoCommit) {
      this.size = size;
      this.autoCommit = autoCommit;
    }

    @Override
    public synchronized Connection getConnection() throws SQLException {
      Connection physical;
      if (!idle.isEmpty()) {
        physical = idle.remove(idle.size() - 1);
      } else if (opened < size) {
        physical = Postgres.dataSource().getConnection();
        physical.setAutoCommit(autoCommit);
        physical.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        opened++;
      } else {
        throw new SQLException("pool exhausted: " + size + " connections in use");
      }
      Connection real = physical;
      return (Connection) Proxy.newProxyInstance(
          Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
            if (method.getName().equals("close")) {
              giveBack(real);
              return null;
            }
            try {
              return method.invoke(real, args);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            }
          });
    }

    private synchronized void giveBack(Connection real) throws SQLException {
      returned.add("autoCommit=" + real.getAutoCommit() + " isolation=" + real.getTransactionIsolation());
      idle.add(real);
    }

    @Override
    public synchronized void close() throws SQLException {
      for (Connection c : idle) {
        c.close();
      }
      idle.clear();
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      throw new SQLFeatureNotSupportedException("no per-user connections");
    }

    @Override
    public PrintWriter getLogWriter() {
      return new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      throw new SQLFeatureNotSupportedException("no parent logger");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
      return false;
    }
  }

  @Test
  void anEventTheStoreCouldNotReadBackIsRefusedAndNothingIsWritten() {
    store().persist(header("s"), log(2)).toCompletableFuture().join();
    com.fasterxml.jackson.databind.node.ArrayNode deep = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
    com.fasterxml.jackson.databind.node.ArrayNode at = deep;
    // 1000 levels: as deep as an event's payload may be, but the stored event object adds one
    for (int i = 1; i < 1_000; i++) {
      at = at.addArray();
    }
    com.fasterxml.jackson.databind.node.ArrayNode deeper = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
    deeper.add(deep.deepCopy());
    // one level more and the event cannot even be built, so nothing reaches the store
    assertThatThrownBy(() -> SessionEvent.of(2, "test/event", 0, deeper)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("JSON value cannot be stored and read back: ");
    List<SessionEvent> longer = new ArrayList<>(log(2));
    longer.add(SessionEvent.of(2, "test/event", 0, deep));
    longer.add(SessionEvent.of(3, "test/event", 0, Json.parse("{}")));
    CompletableFuture<Void> refused = store().persist(header("s"), longer).toCompletableFuture();
    assertThat(refused).isCompletedExceptionally();
    assertThatThrownBy(refused::join).hasCauseInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("JSON value cannot be stored and read back: ");
    assertThat(store().load("s").orElseThrow().events()).isEqualTo(log(2));
  }

  @Test
  void aHeaderTheStoreCouldNotReadBackIsRefusedAndNoSessionIsCreated() {
    dev.horae.spi.session.SessionHeader hugeCwd = new dev.horae.spi.session.SessionHeader(1, "t", 0,
        java.util.Optional.of("/".repeat(20_000_001)), java.util.Optional.empty(), 0, java.util.Optional.empty(),
        java.util.OptionalInt.empty(), java.util.Optional.empty(), java.util.Optional.empty());
    CompletableFuture<Void> refused = store().persist(hugeCwd, log(1)).toCompletableFuture();
    assertThat(refused).isCompletedExceptionally();
    assertThatThrownBy(refused::join).hasCauseInstanceOf(IllegalArgumentException.class);
    assertThat(store().ids()).isEmpty();
  }
}

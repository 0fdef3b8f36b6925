package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.SessionStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
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
    assertThat(again.ddl()).hasSize(2).allMatch(s -> s.startsWith("CREATE TABLE IF NOT EXISTS " + prefix));
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
        .hasMessage("session s in " + prefix + "event is not contiguous: expected seq 2, found 3");
    sql("DELETE FROM " + prefix + "event WHERE session_id = 's' AND seq = 3");
    assertThatThrownBy(() -> store().load("s"))
        .isInstanceOf(SessionStoreException.class)
        .hasMessage("session s has length 4 in " + prefix + "session but 2 events in " + prefix + "event");
  }

  @Test
  void aCorruptEventRowNamesSessionAndSeq() throws SQLException {
    store().persist(header("s"), log(2)).toCompletableFuture().join();
    sql("UPDATE " + prefix + "event SET event = '{\"seq\":1}' WHERE session_id = 's' AND seq = 1");
    assertThatThrownBy(() -> store().load("s"))
        .isInstanceOf(SessionStoreException.class)
        .hasMessageStartingWith("session s has a corrupt event at seq 1 in " + prefix + "event: ");
  }

  @Test
  void aBadPrefixIsRefused() {
    assertThatThrownBy(() -> JdbcSessionStore.create(dataSource(), "x; DROP TABLE y"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("table prefix must match");
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

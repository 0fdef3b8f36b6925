package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The versioned schema of the JDBC store (docs/persistence.md, "Schema versions"): each migration
 * is applied once and recorded with its checksum; an unversioned database is adopted; a changed or
 * newer history is refused and nothing changes.
 */
@Tag("slow")
@Tag("postgres")
@Timeout(120)
class JdbcMigrationTest {

  private static final AtomicInteger TABLES = new AtomicInteger();
  private String prefix = "";

  @BeforeAll
  static void server() throws Exception {
    Postgres.start();
  }

  @BeforeEach
  void freshPrefix() {
    prefix = "mig" + TABLES.incrementAndGet() + "_";
  }

  private JdbcSessionStore store() {
    return JdbcSessionStore.create(Postgres.dataSource(), prefix);
  }

  private void sql(String statement) throws SQLException {
    try (Connection c = Postgres.dataSource().getConnection(); Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  private List<String> history() throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = Postgres.dataSource().getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT version, description, checksum FROM " + prefix + "schema_version ORDER BY version")) {
      while (r.next()) {
        rows.add(r.getInt(1) + " " + r.getString(2) + " " + r.getString(3));
      }
    }
    return rows;
  }

  private boolean exists(String table) throws SQLException {
    try (Connection c = Postgres.dataSource().getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT to_regclass('" + table + "') IS NOT NULL")) {
      r.next();
      return r.getBoolean(1);
    }
  }

  private static String checksum(int version) {
    return new dev.horae.store.internal.SessionTables("horae_").migrations().get(version - 1).checksum();
  }

  @Test
  void eachMigrationIsAppliedOnceAndRecordedWithAChecksumThatNoPrefixChanges() throws Exception {
    JdbcSessionStore store = store();
    store.migrate();
    store.migrate();
    assertThat(history()).containsExactly("1 sessions and events " + checksum(1), "2 session leases " + checksum(2),
        "3 due index " + checksum(3), "4 sealed segments " + checksum(4));
    assertThat(checksum(1)).matches("[0-9a-f]{64}").isNotEqualTo(checksum(2));
    assertThat(checksum(3)).matches("[0-9a-f]{64}").isNotEqualTo(checksum(2));
    assertThat(checksum(4)).matches("[0-9a-f]{64}").isNotEqualTo(checksum(3));
    assertThat(new dev.horae.store.internal.SessionTables(prefix).migrations())
        .extracting(dev.horae.store.internal.SessionTables.Migration::checksum)
        .containsExactly(checksum(1), checksum(2), checksum(3), checksum(4));
    assertThat(exists(prefix + "due")).isTrue();
    store.persist(header("s"), log(3)).toCompletableFuture().join();
    assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(3));
  }

  @Test
  void aDatabaseTheUnversionedSchemaCreatedIsAdoptedWithItsData() throws Exception {
    JdbcSessionStore store = store();
    for (String statement : store.ddl()) {
      sql(statement);
    }
    store.persist(header("s"), log(2)).toCompletableFuture().join();
    assertThat(exists(prefix + "schema_version")).isFalse();

    store.migrate();
    assertThat(history()).hasSize(4);
    assertThat(store().load("s").orElseThrow().events()).isEqualTo(log(2));
  }

  @Test
  void aLogStoredBeforeSegmentsKeepsItsRowsAndIsSealedFromItsLengthOn() throws Exception {
    dev.horae.store.internal.SessionTables tables = new dev.horae.store.internal.SessionTables(prefix);
    // a database version 3 made, with a log of 100 events stored a row each
    sql(tables.historyDdl());
    for (dev.horae.store.internal.SessionTables.Migration m : tables.migrations().subList(0, 3)) {
      for (String statement : m.statements()) {
        sql(statement);
      }
      sql("INSERT INTO " + prefix + "schema_version (version, description, checksum) VALUES (" + m.version() + ", '"
          + m.description() + "', '" + m.checksum() + "')");
    }
    sql("INSERT INTO " + prefix + "session (session_id, header, length) VALUES ('s', '"
        + dev.horae.spi.session.Json.write(header("s").toJson()) + "', 100)");
    for (dev.horae.spi.session.SessionEvent e : log(100)) {
      sql("INSERT INTO " + prefix + "event (session_id, seq, type, event) VALUES ('s', " + e.seq() + ", '" + e.type()
          + "', '" + dev.horae.spi.session.EventCodec.write(e) + "')");
    }

    store().migrate();
    assertThat(history()).hasSize(4);
    assertThat(Postgres.query("SELECT seal_from || ' ' || sealed FROM " + prefix + "session")).isEqualTo("100 100");
    assertThat(store().load("s").orElseThrow().events()).isEqualTo(log(100));
    // its rows stay rows; the events after them are sealed from its length on
    store().persist(header("s"), log(200)).toCompletableFuture().join();
    assertThat(Postgres.query("SELECT seal_from || ' ' || sealed FROM " + prefix + "session")).isEqualTo("100 196");
    assertThat(Postgres.query("SELECT count(*) || ' ' || max(seq) FROM " + prefix + "event WHERE seq < 100")).isEqualTo("100 99");
    assertThat(Postgres.query("SELECT string_agg(first_seq::text, ',' ORDER BY first_seq) FROM " + prefix + "segment"))
        .isEqualTo("100,132,164");
    assertThat(store().load("s").orElseThrow().events()).isEqualTo(log(200));
    // a new session is sealed from seq 0
    store().persist(header("t"), log(40)).toCompletableFuture().join();
    assertThat(Postgres.query("SELECT seal_from || ' ' || sealed FROM " + prefix + "session WHERE session_id = 't'")).isEqualTo("0 32");
    // running the statements again (as one applying them by hand might) changes nothing
    for (String statement : store().ddl()) {
      sql(statement);
    }
    assertThat(Postgres.query("SELECT string_agg(session_id || ' ' || seal_from || ' ' || sealed, ',' ORDER BY session_id) FROM "
        + prefix + "session")).isEqualTo("s 100 196,t 0 32");
    assertThat(store().load("s").orElseThrow().events()).isEqualTo(log(200));
    assertThat(store().load("t").orElseThrow().events()).isEqualTo(log(40));
    // the sealed range lies inside the log, whatever writes the row
    for (String broken : List.of("sealed = length + 1", "sealed = seal_from - 1", "seal_from = -1, sealed = 0",
        "seal_from = NULL", "sealed = NULL")) {
      assertThatThrownBy(() -> sql("UPDATE " + prefix + "session SET " + broken + " WHERE session_id = 't'"))
          .as(broken).isInstanceOf(SQLException.class);
    }
  }


  @Test
  void anAppliedMigrationWithAnotherChecksumIsRefusedAndNothingChanges() throws Exception {
    store().migrate();
    // version 1 now differs, and version 2 is missing with its table: a migrate that went on
    // would create the lease table again
    sql("UPDATE " + prefix + "schema_version SET checksum = 'abc' WHERE version = 1");
    sql("DELETE FROM " + prefix + "schema_version WHERE version = 2");
    sql("DROP TABLE " + prefix + "lease");

    assertThatThrownBy(() -> store().migrate()).isInstanceOf(SessionStoreException.class)
        .hasMessage("schema migration 1 (sessions and events) in " + prefix + "schema_version was applied with checksum abc,"
            + " but this library's is " + checksum(1) + ": the tables are not the ones this library creates; nothing was changed");
    assertThat(exists(prefix + "lease")).isFalse();
    assertThat(history()).containsExactly("1 sessions and events abc", "3 due index " + checksum(3),
        "4 sealed segments " + checksum(4));
  }

  @Test
  void aNewerSchemaIsLeftAlone() throws Exception {
    store().migrate();
    sql("INSERT INTO " + prefix + "schema_version (version, description, checksum) VALUES (5, 'from the future', 'f')");
    sql("DELETE FROM " + prefix + "schema_version WHERE version = 2");

    assertThatThrownBy(() -> store().migrate()).isInstanceOf(SessionStoreException.class)
        .hasMessage(prefix + "schema_version records schema version 5, newer than this library's 4;"
            + " a newer Horae migrated this database, so this one leaves it alone");
    assertThat(history()).extracting(r -> r.substring(0, 1)).containsExactly("1", "3", "4", "5");
  }

  @Test
  void nodesMigratingAtOnceRecordEachVersionOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Void>> runs = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Callable<Void> migrate = () -> {
          store().migrate();
          return null;
        };
        runs.add(pool.submit(migrate));
      }
      for (Future<Void> run : runs) {
        run.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(history()).hasSize(4);
  }

  @Test
  void aRefusalAfterAMigrationWasAppliedRollsThatBackToo() throws Exception {
    store().migrate();
    // version 1 is unrecorded (so a migrate applies and records it again) and version 2 differs:
    // the refusal at 2 must not leave 1's record behind
    sql("DELETE FROM " + prefix + "schema_version WHERE version = 1");
    sql("UPDATE " + prefix + "schema_version SET checksum = 'abc' WHERE version = 2");

    assertThatThrownBy(() -> store().migrate()).isInstanceOf(SessionStoreException.class)
        .hasMessageStartingWith("schema migration 2 (session leases) in " + prefix + "schema_version was applied with checksum abc,");
    assertThat(history()).containsExactly("2 session leases abc", "3 due index " + checksum(3),
        "4 sealed segments " + checksum(4));
  }
}

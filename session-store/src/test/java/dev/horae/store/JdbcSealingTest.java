package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static dev.horae.store.Logs.nested;
import static dev.horae.store.Postgres.query;
import static dev.horae.store.Postgres.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.SessionEvent;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JDBC store seals a log's events into segments of 32 as it grows: whether the events came one
 * persist at a time (sealed inside the database from their rows) or many at once (written as
 * segments), the tables hold the same segments, the last event is always a row of its own, and
 * the log loads the same. A persist that cannot seal (a stored row is missing) commits nothing,
 * and a row is refused unless it also reads back inside a segment.
 */
@Tag("slow")
@Tag("postgres")
@Timeout(120)
class JdbcSealingTest {

  private static final AtomicInteger TABLES = new AtomicInteger();

  private String prefix = "";

  @BeforeAll
  // unpacking and starting the embedded PostgreSQL server (JdbcStoreRulesTest says why 180 s)
  @Timeout(180)
  static void startPostgres() throws Exception {
    Postgres.start();
  }

  @BeforeEach
  void freshTables() {
    prefix = "seal" + TABLES.incrementAndGet() + "_";
    store().migrate();
  }

  private JdbcSessionStore store() {
    return JdbcSessionStore.create(Postgres.dataSource(), prefix);
  }


  /** The session's segments (first seq and text) and its rows' seqs, as one text. */
  private String layout(String id) throws SQLException {
    return query("SELECT (SELECT length || ' ' || seal_from || ' ' || sealed FROM " + prefix + "session WHERE session_id = '"
        + id + "') || ' | ' || coalesce((SELECT string_agg(first_seq || '=' || events::text, ' ' ORDER BY first_seq) FROM "
        + prefix + "segment WHERE session_id = '" + id + "'), '') || ' | ' || coalesce((SELECT string_agg(seq::text, ','"
        + " ORDER BY seq) FROM " + prefix + "event WHERE session_id = '" + id + "'), '')");
  }

  @Test
  void aLogGrownOneEventAtATimeIsSealedAsTheSameLogPersistedAtOnce() throws SQLException {
    JdbcSessionStore store = store();
    List<SessionEvent> log = log(100);
    for (int n = 1; n <= log.size(); n++) {
      store.persist(header("one"), log.subList(0, n)).toCompletableFuture().join();
      // the last event is always a row: the next persist compares with it
      assertThat(query("SELECT count(*) FROM " + prefix + "event WHERE session_id = 'one' AND seq = " + (n - 1)))
          .as("after %d events", n).isEqualTo("1");
    }
    // and in steps that end inside, at and past segment bounds
    for (int n : new int[] {3, 31, 32, 33, 64, 65, 97, 100}) {
      store.persist(header("steps"), log.subList(0, n)).toCompletableFuture().join();
    }
    store.persist(header("all"), log).toCompletableFuture().join();

    String all = layout("all");
    assertThat(all).startsWith("100 0 96 | 0=[{\"seq\":0,").contains(" 32=[{\"seq\":32,", " 64=[{\"seq\":64,")
        .endsWith("}] | 96,97,98,99");
    assertThat(layout("one")).isEqualTo(all);
    assertThat(layout("steps")).isEqualTo(all);
    for (String id : List.of("one", "steps", "all")) {
      assertThat(store.load(id).orElseThrow().events()).as(id).isEqualTo(log);
    }
  }

  @Test
  void aPersistThatCannotSealItsRowsCommitsNothing() throws SQLException {
    store().persist(header("s"), log(31)).toCompletableFuture().join();
    sql("DELETE FROM " + prefix + "event WHERE session_id = 's' AND seq = 5");
    String before = layout("s");
    assertThatThrownBy(() -> store().persist(header("s"), log(34)).toCompletableFuture().join())
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(SessionStoreException.class)
        .cause().hasMessage("session s has 31 rows in " + prefix + "event for seqs 0 to 31, not 32: the events cannot be sealed");
    assertThat(layout("s")).isEqualTo(before);
  }

  @Test
  void aRowMustAlsoReadBackInsideASegment() throws SQLException {
    List<SessionEvent> log = new ArrayList<>(log(2));
    // 999 levels of data: an event row alone reads back (1,000 levels), inside a segment's array it would not
    List<SessionEvent> deep = new ArrayList<>(log);
    deep.add(SessionEvent.of(2, "test/event", 0, nested(999)));
    assertThatThrownBy(() -> store().persist(header("s"), deep).toCompletableFuture().join())
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("JSON value cannot be stored and read back: ");
    assertThat(store().contains("s")).isFalse();
    // the deepest data a file store's line holds is stored, sealed and read back
    log.add(SessionEvent.of(2, "test/event", 0, nested(998)));
    log.addAll(log(40).subList(3, 40));
    store().persist(header("s"), log).toCompletableFuture().join();
    assertThat(query("SELECT sealed FROM " + prefix + "session")).isEqualTo("32");
    assertThat(store().load("s").orElseThrow().events()).isEqualTo(log);
  }
}

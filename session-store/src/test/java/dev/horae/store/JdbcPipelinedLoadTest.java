package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.EventCodec;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A long JDBC load decodes its rows and segments on a second thread while it fetches the next
 * ones: its answer is the one of decoding on the caller's thread — the same events, or the same
 * first error for a corrupt row or segment, an event claiming another seq or a missing row or
 * segment, wherever in the batches it stands. The log is stored as the store writes it (segments
 * of 32, its last event a row) or, for the row tests, as a log stored before segments existed (a
 * row each).
 */
@Tag("slow")
@Tag("postgres")
@Timeout(120)
class JdbcPipelinedLoadTest {

  private static final AtomicInteger TABLES = new AtomicInteger();
  private static final int EVENTS = 4_321;

  private String prefix = "";

  @BeforeAll
  // unpacking and starting the embedded PostgreSQL server (JdbcStoreRulesTest says why 180 s)
  @Timeout(180)
  static void startPostgres() throws Exception {
    Postgres.start();
  }

  @BeforeEach
  void freshTables() {
    prefix = "pipe" + TABLES.incrementAndGet() + "_";
    store(Long.MAX_VALUE).migrate();
    store(Long.MAX_VALUE).persist(header("s"), log(EVENTS)).toCompletableFuture().join();
  }

  private JdbcSessionStore store(long pipelineAt) {
    JdbcSessionStore store = JdbcSessionStore.create(Postgres.dataSource(), prefix);
    store.pipelineAt(pipelineAt);
    return store;
  }

  /** Turns the stored log into the layout of a log stored before segments: a row per event. */
  private void asRows() throws SQLException {
    sql("INSERT INTO " + prefix + "event (session_id, seq, type, event) SELECT session_id, (e ->> 'seq')::bigint, "
        + "e ->> 'type', e FROM " + prefix + "segment, json_array_elements(events) e");
    sql("DELETE FROM " + prefix + "segment");
    sql("UPDATE " + prefix + "session SET seal_from = length, sealed = length");
  }

  private void sql(String statement) throws SQLException {
    try (Connection c = Postgres.dataSource().getConnection(); Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  /** The events of a load, or its error's class and text. */
  private String outcome(long pipelineAt) {
    try {
      List<SessionEvent> events = store(pipelineAt).load("s").orElseThrow().events();
      return new String(EventCodec.writeArray(events), StandardCharsets.UTF_8);
    } catch (RuntimeException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  private void assertBothReadersAgree(String expectedStart) {
    String direct = outcome(Long.MAX_VALUE);
    assertThat(direct).startsWith(expectedStart);
    assertThat(outcome(1)).isEqualTo(direct);
    assertThat(outcome(EVENTS)).isEqualTo(direct);
  }

  @Test
  void aLongLogLoadsTheSameEvents() throws SQLException {
    assertBothReadersAgree("[{\"seq\":0,");
    assertThat(store(1).load("s").orElseThrow().events()).isEqualTo(log(EVENTS));
    asRows();
    assertBothReadersAgree("[{\"seq\":0,");
    assertThat(store(1).load("s").orElseThrow().events()).isEqualTo(log(EVENTS));
  }

  @Test
  void aCorruptSegmentInALaterBatchIsTheErrorEitherWay() throws SQLException {
    sql("UPDATE " + prefix + "segment SET events = '[{\"seq\":2496,\"type\":\"t\"}]' WHERE first_seq = 2496");
    assertBothReadersAgree("SessionStoreException: session s has a corrupt segment from seq 2496 in " + prefix + "segment: ");
  }

  @Test
  void anEventClaimingAnotherSeqInASegmentIsTheErrorEitherWay() throws SQLException {
    // the segment from 1984 holds the one from 2016 (its events claim 2016 on), the segment from 4000 is corrupt
    sql("UPDATE " + prefix + "segment SET events = (SELECT events FROM " + prefix + "segment WHERE first_seq = 2016)"
        + " WHERE first_seq = 1984");
    sql("UPDATE " + prefix + "segment SET events = '[{\"seq\":4000}]' WHERE first_seq = 4000");
    assertBothReadersAgree("SessionStoreException: session s has an event claiming seq 2016 at seq 1984 of the segment"
        + " from seq 1984 in " + prefix + "segment");
  }

  @Test
  void aMissingSegmentIsAGapEitherWay() throws SQLException {
    sql("DELETE FROM " + prefix + "segment WHERE first_seq = 3008");
    assertBothReadersAgree("SessionStoreException: session s in " + prefix + "event and " + prefix
        + "segment is not contiguous: expected seq 3008, found 3040");
  }

  @Test
  void aCorruptRowInALaterBatchIsTheErrorEitherWay() throws SQLException {
    asRows();
    sql("UPDATE " + prefix + "event SET event = '{\"seq\":2500,\"type\":\"t\"}' WHERE session_id = 's' AND seq = 2500");
    assertBothReadersAgree("SessionStoreException: session s has a corrupt event at seq 2500 in " + prefix + "event: ");
  }

  @Test
  void theFirstOfTwoBadRowsIsReported() throws SQLException {
    asRows();
    String zero = Json.write(EventCodec.toJson(log(1).get(0)));
    sql("UPDATE " + prefix + "event SET event = '" + zero + "' WHERE session_id = 's' AND seq = 1999");
    sql("UPDATE " + prefix + "event SET event = '{\"seq\":4000}' WHERE session_id = 's' AND seq = 4000");
    assertBothReadersAgree(
        "SessionStoreException: session s has an event claiming seq 0 in the row of seq 1999 in " + prefix + "event");
  }

  @Test
  void aMissingRowIsAGapEitherWay() throws SQLException {
    asRows();
    sql("DELETE FROM " + prefix + "event WHERE session_id = 's' AND seq = 3001");
    assertBothReadersAgree("SessionStoreException: session s in " + prefix + "event and " + prefix
        + "segment is not contiguous: expected seq 3001, found 3002");
  }
}

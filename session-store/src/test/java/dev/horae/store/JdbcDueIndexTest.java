package dev.horae.store;

import static dev.horae.store.Logs.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.SessionEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The due index of the JDBC store on an embedded PostgreSQL: {@code <prefix>due} (migration 3) is
 * written in the persist's transaction, rebuilt from the logs when missing or stale, and claimed
 * with {@code FOR UPDATE SKIP LOCKED}, so claimers on several nodes never take one session twice.
 * Tagged {@code postgres} as well as {@code slow}, like the other PostgreSQL tests.
 */
@Tag("slow")
@Tag("postgres")
class JdbcDueIndexTest extends DueIndexContract {

  private static final AtomicInteger TABLES = new AtomicInteger();

  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z"));
  private String prefix = "";
  private @Nullable JdbcSessionStore store;

  @BeforeAll
  // the embedded server's first start; see JdbcSessionStoreTest
  @Timeout(180)
  static void startPostgres() throws Exception {
    Postgres.start();
  }

  private static DataSource dataSource() {
    return Postgres.dataSource();
  }

  @BeforeEach
  void freshTables() {
    prefix = "due" + TABLES.incrementAndGet() + "_";
    JdbcSessionStore s = JdbcSessionStore.create(dataSource(), prefix, Reminders.INDEXER);
    s.migrate();
    store = s;
  }

  @Override
  JdbcSessionStore store() {
    JdbcSessionStore s = store;
    if (s == null) {
      throw new IllegalStateException("no store");
    }
    return s;
  }

  @Override
  SessionLeases leases(String owner) {
    return store().leases(owner, Duration.ofSeconds(30), clock);
  }

  private List<String> rows() throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT session_id, length, due_at_ms FROM " + prefix + "due ORDER BY session_id")) {
      while (r.next()) {
        long due = r.getLong(3);
        String shown = r.wasNull() ? "-" : Long.toString(due);
        out.add(r.getString(1) + " " + r.getLong(2) + " " + shown);
      }
    }
    return out;
  }

  private void sql(String statement) throws Exception {
    try (Connection c = dataSource().getConnection(); Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  @Test
  void eachPersistWritesTheRowWithTheLengthItWasComputedAt() throws Exception {
    Reminders.Log log = new Reminders.Log().other().create("r", 5_000);
    persist(header("s"), log.events());
    assertThat(rows()).containsExactly("s 2 5000");
    persist(header("s"), log.end("r").events());
    assertThat(rows()).containsExactly("s 3 -");
  }

  @Test
  void missingAndStaleRowsAreRebuiltFromTheLogs() throws Exception {
    persist(header("a"), new Reminders.Log().create("r", 1_000).events());
    persist(header("b"), new Reminders.Log().create("r", 2_000).events());
    Reminders.Log c = new Reminders.Log().create("r", 3_000);
    persist(header("c"), c.events());
    sql("DELETE FROM " + prefix + "due WHERE session_id = 'a'");
    // a node without an indexer writes c on: its row is left at the old length
    List<SessionEvent> grown = c.end("r").create("later", 8_000).events();
    JdbcSessionStore.create(dataSource(), prefix).persist(header("c"), grown).toCompletableFuture().join();
    assertThat(rows()).containsExactly("b 1 2000", "c 1 3000");

    assertThat(index().rebuild()).isEqualTo(2);
    assertThat(rows()).containsExactly("a 1 1000", "b 1 2000", "c 3 8000");
    assertThat(index().rebuild()).isZero();
  }

  @Test
  void aClaimPassesOverDueRowsAnotherTransactionHoldsInsteadOfWaiting() throws Exception {
    for (String id : List.of("a", "b", "c")) {
      persist(header(id), new Reminders.Log().create("r", 1_000).events());
    }
    try (Connection held = dataSource().getConnection()) {
      held.setAutoCommit(false);
      try (PreparedStatement lock = held.prepareStatement("SELECT 1 FROM " + prefix + "due WHERE session_id = 'a' FOR UPDATE")) {
        lock.execute();
      }
      // without SKIP LOCKED this claim would wait for the open transaction and time the test out
      assertThat(index().claim(leases("node-a"), 2_000, 10, Set.of())).extracting(SessionLease::sessionId)
          .containsExactly("b", "c");
      held.rollback();
    }
    assertThat(index().claim(leases("node-b"), 2_000, 10, Set.of())).extracting(SessionLease::sessionId)
        .containsExactly("a");
  }

  @Test
  void concurrentClaimersNeverTakeTheSameSession() throws Exception {
    int sessions = 40;
    for (int i = 0; i < sessions; i++) {
      persist(header("s" + i), new Reminders.Log().create("r", 1_000 + i).events());
    }
    int claimers = 4;
    CyclicBarrier start = new CyclicBarrier(claimers);
    ExecutorService pool = Executors.newFixedThreadPool(claimers);
    List<List<String>> taken = new ArrayList<>();
    try {
      List<Future<List<String>>> runs = new ArrayList<>();
      for (int n = 0; n < claimers; n++) {
        SessionLeases mine = leases("node-" + n);
        Callable<List<String>> claim = () -> {
          List<String> ids = new ArrayList<>();
          start.await(30, TimeUnit.SECONDS);
          // small claims, many rounds, so the claimers' transactions overlap
          for (int round = 0; round < sessions; round++) {
            for (SessionLease lease : index().claim(mine, 2_000, 3, Set.of())) {
              ids.add(lease.sessionId());
            }
          }
          return ids;
        };
        runs.add(pool.submit(claim));
      }
      for (Future<List<String>> run : runs) {
        taken.add(run.get(60, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
    Set<String> all = new HashSet<>();
    int total = 0;
    for (List<String> ids : taken) {
      all.addAll(ids);
      total += ids.size();
    }
    assertThat(total).isEqualTo(sessions);
    assertThat(all).hasSize(sessions);
  }
}

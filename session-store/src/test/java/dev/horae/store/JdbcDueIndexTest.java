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

  @Test
  void aWindowOfNoSessionsReadsAndClaimsNothing() {
    persist(header("a"), new Reminders.Log().create("r", 1_000).events());
    for (int limit : new int[] {0, -1}) {
      assertThat(index().dueBy(2_000, limit)).as("limit %d", limit).isEmpty();
      assertThat(index().claim(leases("node-a"), 2_000, limit, Set.of())).as("limit %d", limit).isEmpty();
    }
    assertThat(leases("node-a").current("a")).isEmpty();
    assertThat(index().dueBy(2_000, 1)).containsExactly(new DueEntry("a", 1_000));
  }

  @Test
  void aSessionNeverIndexedHasNoEntryAndAnEmptyIndexNoEarliest() {
    assertThat(index().earliest()).isEmpty();
    assertThat(index().dueAt("nobody")).isEmpty();
    persist(header("a"), new Reminders.Log().other().events());
    assertThat(index().earliest()).isEmpty();
    assertThat(index().dueAt("a")).isEmpty();
  }

  @Test
  void aClaimTakesASessionOnlyOnceItsLeaseExpiredOnTheClaimersClock() throws Exception {
    persist(header("a"), new Reminders.Log().create("r", 1_000).events());
    persist(header("b"), new Reminders.Log().create("r", 1_500).events());
    SessionLease heldByB = leases("node-b").acquire("a");
    // the due time is the caller's (the reminders' clock); the lease's liveness is the leases' clock
    clock.advance(Duration.ofSeconds(30));
    assertThat(index().claim(leases("node-a"), 2_000, 10, Set.of())).extracting(SessionLease::sessionId)
        .as("live up to and including its expiry").containsExactly("b");
    clock.advance(Duration.ofMillis(1));
    List<SessionLease> taken = index().claim(leases("node-c"), 2_000, 10, Set.of());
    assertThat(taken).containsExactly(new SessionLease.Fenced("a", "node-c", 2, clock.instant().plusSeconds(30)));
    assertThat(leases("node-b").renew(heldByB)).isEmpty();
    assertThat(rows()).containsExactly("a 1 1000", "b 1 1500");
  }

  @Test
  void aClaimPassesOverASessionWhoseLeaseRowAnotherTransactionHolds() throws Exception {
    for (String id : List.of("a", "b")) {
      persist(header(id), new Reminders.Log().create("r", 1_000).events());
    }
    // a free lease row (acquired once, released), held by a transaction in flight, as an
    // acquisition or a leased persist would hold it
    assertThat(leases("node-x").release(leases("node-x").acquire("a"))).isTrue();
    try (Connection held = dataSource().getConnection()) {
      held.setAutoCommit(false);
      try (PreparedStatement lock = held.prepareStatement("SELECT 1 FROM " + prefix + "lease WHERE session_id = 'a' FOR UPDATE")) {
        lock.execute();
      }
      assertThat(index().claim(leases("node-a"), 2_000, 10, Set.of())).extracting(SessionLease::sessionId)
          .containsExactly("b");
      held.rollback();
    }
    assertThat(index().claim(leases("node-b"), 2_000, 10, Set.of()))
        .containsExactly(new SessionLease.Fenced("a", "node-b", 2, clock.instant().plusSeconds(30)));
  }

  @Test
  void claimsWithLeasesOfAnotherStoreAcquireOneAfterAnother() {
    for (String id : List.of("a", "b", "c")) {
      persist(header(id), new Reminders.Log().create("r", 1_000).events());
    }
    // the same tables through another store instance: not this index's own leases, so the claim
    // cannot join their transaction and acquires through them one by one
    SessionLeases elsewhere = JdbcSessionStore.create(dataSource(), prefix).leases("node-e", Duration.ofSeconds(30), clock);
    SessionLease heldByB = leases("node-b").acquire("b");
    assertThat(index().claim(elsewhere, 2_000, 10, Set.of("c"))).extracting(SessionLease::sessionId)
        .containsExactly("a");
    assertThat(leases("node-b").release(heldByB)).isTrue();
  }

  @Test
  void aStoreCreatedWithoutAnIndexerHasNoIndex() {
    assertThat(JdbcSessionStore.create(dataSource(), prefix).dueIndex()).isEmpty();
  }

  @Test
  void aPersistThatAddsNoEventsFeedsNoTrackerAndMovesNoRow() throws Exception {
    Reminders.Log log = new Reminders.Log().create("r", 4_000);
    List<SessionEvent> older = log.events();
    persist(header("s"), log.other().end("r").events());
    List<SessionEvent> whole = log.events();
    assertThat(rows()).containsExactly("s 3 -");
    // another node's store (no trackers cached): an older snapshot and the stored log itself add
    // nothing, so nothing is fed and the row stays
    JdbcSessionStore other = JdbcSessionStore.create(dataSource(), prefix, Reminders.INDEXER);
    int fed = Reminders.FED.get();
    other.persist(header("s"), older).toCompletableFuture().join();
    other.persist(header("s"), whole).toCompletableFuture().join();
    assertThat(Reminders.FED.get()).isEqualTo(fed);
    assertThat(rows()).containsExactly("s 3 -");
  }
}

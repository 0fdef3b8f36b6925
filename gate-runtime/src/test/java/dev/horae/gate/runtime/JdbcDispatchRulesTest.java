package dev.horae.gate.runtime;

import dev.horae.store.Postgres;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.gate.AwaitTarget;
import dev.horae.gate.PendingTool;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.ToolAwaitReason;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What only the PostgreSQL dispatch backend has (gate specification §12.4, §12.5.2): the versioned
 * schema and its checksums, claims that pass over rows another transaction holds, failures that
 * roll back and are reported, and the table prefix spliced into SQL.
 */
@Tag("slow")
@Tag("postgres")
@Timeout(120)
class JdbcDispatchRulesTest {

  private static final long LEASE = 1_000;

  private LogHost host;
  private String prefix;
  private Session session;

  @BeforeEach
  void fresh() {
    host = LogHost.create();
    prefix = Postgres.freshPrefix();
    session = host.sessions().create(CreateOptions.DEFAULT);
  }

  private JdbcDispatchQueue queue(DataSource ds) {
    return JdbcDispatchQueue.over(ds, prefix, host.clock(), host.sessions()::get, host.sessions()::flush);
  }

  private JdbcDispatchQueue migrated() {
    JdbcDispatchQueue q = queue(Postgres.started());
    q.migrate();
    return q;
  }

  private static void sql(String statement) throws SQLException {
    try (Connection c = Postgres.started().getConnection(); Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  private List<String> history() throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = Postgres.started().getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT version, checksum, applied_at_ms FROM " + prefix + "schema ORDER BY version")) {
      while (r.next()) {
        rows.add(r.getInt(1) + " " + r.getString(2) + " " + r.getLong(3));
      }
    }
    return rows;
  }

  private static boolean exists(String relation) throws SQLException {
    try (Connection c = Postgres.started().getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT to_regclass('" + relation + "') IS NOT NULL")) {
      r.next();
      return r.getBoolean(1);
    }
  }

  private RunActivation act(String runId) {
    return new RunActivation(runId, session.id(), "snap", "go");
  }

  // ---------------------------------------------------------------- schema

  @Test
  void migrateCreatesTheTablesOnceAndRecordsTheChecksumAtTheClocksTime() throws SQLException {
    JdbcDispatchQueue q = migrated();
    q.migrate();
    queue(Postgres.started()).migrate();
    assertThat(history()).containsExactly("1 " + JdbcDispatchQueue.checksum(1) + " " + host.clock().millis());
    assertThat(JdbcDispatchQueue.checksum(1)).hasSize(64).isEqualTo(JdbcDispatchQueue.checksum(1));
    for (String relation : List.of("dispatch", "resume_inbox", "schema", "dispatch_claimable", "resume_inbox_run")) {
      assertThat(exists(prefix + relation)).as(relation).isTrue();
    }
    assertThat(q.ddl()).hasSize(4).allSatisfy(s -> assertThat(s).contains(prefix).doesNotContain("${prefix}"));
    assertThat(q.submit(act("r1"), 0)).isTrue();
  }

  @Test
  void theClaimIndexIsOnStatusThenAvailability() throws SQLException {
    migrated();
    try (Connection c = Postgres.started().getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT indexdef FROM pg_indexes WHERE indexname = '" + prefix + "dispatch_claimable'")) {
      assertThat(r.next()).isTrue();
      assertThat(r.getString(1)).endsWith("(status, available_at_ms)");
    }
  }

  @Test
  void aChangedChecksumIsRefusedAndNothingChanges() throws SQLException {
    migrated();
    sql("UPDATE " + prefix + "schema SET checksum = 'edited'");
    sql("DROP INDEX " + prefix + "dispatch_claimable");
    assertThatThrownBy(() -> queue(Postgres.started()).migrate()).isInstanceOf(CommitStoreException.class)
        .hasMessageContaining("dispatch schema version 1 in " + prefix + "schema was applied with checksum edited, "
            + "but this library's is " + JdbcDispatchQueue.checksum(1))
        .hasMessageContaining("nothing was changed");
    assertThat(exists(prefix + "dispatch_claimable")).isFalse();
    assertThat(history()).singleElement().asString().startsWith("1 edited ");
  }

  @Test
  void aNewerVersionIsRefusedAndNothingChanges() throws SQLException {
    migrated();
    sql("INSERT INTO " + prefix + "schema (version, checksum, applied_at_ms) VALUES (2, 'future', 7)");
    sql("DROP INDEX " + prefix + "dispatch_claimable");
    assertThatThrownBy(() -> queue(Postgres.started()).migrate()).isInstanceOf(CommitStoreException.class)
        .hasMessageContaining(prefix + "schema records dispatch schema version 2, newer than this library's 1");
    assertThat(exists(prefix + "dispatch_claimable")).isFalse();
    assertThat(history()).hasSize(2);
  }

  @Test
  void aFailingMigrationRollsBackEveryStatement() throws SQLException {
    // a view where the inbox table goes: CREATE TABLE IF NOT EXISTS passes over it, its index fails
    sql("CREATE VIEW " + prefix + "resume_inbox AS SELECT 1 AS id");
    assertThatThrownBy(() -> queue(Postgres.started()).migrate()).isInstanceOf(CommitStoreException.class)
        .hasMessageStartingWith("cannot migrate the dispatch tables " + prefix + "dispatch, " + prefix + "resume_inbox: ");
    assertThat(exists(prefix + "dispatch")).isFalse();
    assertThat(exists(prefix + "schema")).isFalse();
  }

  @Test
  void unknownSchemaVersionsAreRefused() {
    assertThatThrownBy(() -> JdbcDispatchQueue.schemaText(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no dispatch schema version 0 (known: 1 to 1)");
    assertThatThrownBy(() -> JdbcDispatchQueue.schemaText(2)).isInstanceOf(IllegalArgumentException.class);
  }

  // ---------------------------------------------------------------- prefix

  @Test
  void thePrefixMustBeALowercaseIdentifierPrefix() {
    for (String bad : List.of("", "Gate_", "1gate_", "gate-", "gate_; DROP TABLE x; --", "a".repeat(32))) {
      assertThatThrownBy(() -> JdbcDispatchQueue.over(Postgres.started(), bad, host.clock(), host.sessions()::get))
          .as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("dispatch table prefix must match [a-z_][a-z0-9_]{0,30}, got \"" + bad + "\"");
    }
    assertThat(JdbcDispatchQueue.over(Postgres.started(), "a".repeat(31), host.clock(), host.sessions()::get)
        .prefix()).hasSize(31);
    assertThat(JdbcDispatchQueue.over(Postgres.started(), JdbcDispatchQueue.DEFAULT_PREFIX, host.clock(),
        host.sessions()::get).ddl().get(0)).startsWith("CREATE TABLE IF NOT EXISTS gate_dispatch (");
  }

  // ---------------------------------------------------------------- concurrency

  @Test
  void aClaimPassesOverARowAnotherTransactionHoldsWithoutWaiting() throws SQLException {
    JdbcDispatchQueue q = migrated();
    q.submit(act("r-a"), 0);
    q.submit(act("r-b"), 0);
    try (Connection holder = Postgres.started().getConnection()) {
      holder.setAutoCommit(false);
      try (Statement s = holder.createStatement()) {
        s.executeQuery("SELECT 1 FROM " + prefix + "dispatch WHERE run_id = 'r-a' FOR UPDATE").close();
        // a claimer that waited for the lock would hang here until the test's timeout
        assertThat(q.claim("b", LEASE, 0, 5).orElseThrow().runId()).isEqualTo("r-b");
        assertThat(q.claim("b", LEASE, 0, 5)).as("the held row is skipped, not waited for").isEmpty();
      }
      holder.rollback();
    }
    assertThat(q.claim("b", LEASE, 0, 5).orElseThrow().runId()).isEqualTo("r-a");
  }

  @Test
  void concurrentClaimersOnSeparateQueuesNeverTakeTheSameRun() throws Exception {
    JdbcDispatchQueue first = migrated();
    JdbcDispatchQueue second = queue(Postgres.started());
    int runs = 40;
    for (int i = 0; i < runs; i++) {
      first.submit(act("run-" + i), 0);
    }
    List<String> taken = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        JdbcDispatchQueue q = w % 2 == 0 ? first : second;
        String owner = "owner-" + w;
        workers.add(pool.submit(() -> {
          go.await();
          Optional<DispatchClaim> c = q.claim(owner, LEASE, 0, 5);
          while (c.isPresent()) {
            taken.add(c.get().runId());
            c = q.claim(owner, LEASE, 0, 5);
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<?> f : workers) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(taken).hasSize(runs).doesNotHaveDuplicates();
    assertThat(second.record("run-0").orElseThrow().epoch()).isEqualTo(1);
  }

  // ---------------------------------------------------------------- failures

  /** A data source whose connections fail to commit (and do nothing else differently). */
  private static DataSource failingCommits(DataSource real) {
    return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, m, args) -> {
          Object out = invoke(m, real, args);
          if (out instanceof Connection c) {
            return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (p2, m2, a2) -> {
                  if (m2.getName().equals("commit")) {
                    throw new SQLException("connection reset");
                  }
                  return invoke(m2, c, a2);
                });
          }
          return out;
        });
  }

  private static Object invoke(java.lang.reflect.Method m, Object target, Object[] args) throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Test
  void aTransactionThatFailsToCommitLeavesNothingAndIsReportedUncertain() {
    JdbcDispatchQueue q = migrated();
    JdbcDispatchQueue broken = queue(failingCommits(Postgres.started()));
    ResumeCommand answer = ResumeCommand.of("c1", "r1", session.id(), "snap", "fp", new ResumeResult.Input("hi"), 0);
    assertThatThrownBy(() -> broken.submitResume(answer, 5)).isInstanceOf(CommitStoreException.class)
        .hasMessage("cannot store an answer for run r1: the commit failed, so whether it landed is unknown: connection reset");
    assertThat(q.resumes("r1")).isEmpty();
    assertThat(q.record("r1")).isEmpty();
    assertThatThrownBy(() -> broken.submit(act("r2"), 0)).isInstanceOf(CommitStoreException.class);
    assertThat(q.record("r2")).isEmpty();
  }

  @Test
  void aFailedOutboxFailsTheCommitBeforeTheSessionAppend() {
    JdbcDispatchQueue broken = queue(failingCommits(Postgres.started()));
    migrated();
    ResumeTicket t = ResumeTicket.of("c", "r1", session.id(), "snap", "fp", AwaitTarget.toolCall(
        ToolAwaitReason.SCHEDULED_ACTION, "call-1", new PendingTool("echo", Json.mapper().createObjectNode())));
    ThreadCommit parked = new ThreadCommit(session.id(), new RunDisposition.Awaiting(t), List.of(), List.of(), List.of());
    int before = session.events().size();
    assertThatThrownBy(() -> broken.store().commit(parked, new CommitConditions(OptionalLong.empty(), Optional.empty()))
        .toCompletableFuture().join()).isInstanceOf(CompletionException.class).cause()
        .isInstanceOf(CommitStoreException.class)
        .hasMessageStartingWith("cannot write the dispatch outbox row of run r1: the commit failed");
    assertThat(session.events()).hasSize(before);
    assertThat(broken.store().view().run("r1")).isEmpty();
  }

  @Test
  void aRowWhoseCommitNeverLandedIsReleasedByTheDecisionProcedure() {
    // the outbox row is committed before the session append (docs/gate.md, "A JDBC backend"):
    // when the append then fails, the row is there and the worker finds no committed work
    DispatchRig rig = DispatchRig.of(DispatchRig.Kind.JDBC);
    JdbcDispatchQueue q = (JdbcDispatchQueue) rig.queue;
    Session s = rig.host.sessions().get(rig.thread).orElseThrow();
    JdbcDispatchQueue writer = JdbcDispatchQueue.over(Postgres.started(), q.prefix(), rig.host.clock(),
        id -> Optional.of(s));
    rig.host.sessions().detach(s);
    ResumeTicket t = ResumeTicket.of("c", "r1", rig.thread, "snap", "fp", AwaitTarget.toolCall(
        ToolAwaitReason.SCHEDULED_ACTION, "call-1", new PendingTool("echo", Json.mapper().createObjectNode())));
    ThreadCommit parked = new ThreadCommit(rig.thread, new RunDisposition.Awaiting(t), List.of(), List.of(), List.of());
    assertThatThrownBy(() -> writer.store().commit(parked, new CommitConditions(OptionalLong.empty(), Optional.empty()))
        .toCompletableFuture().join()).cause().isInstanceOf(CommitStoreException.class)
        .hasMessageStartingWith("appending the commit to thread " + rig.thread + " failed");
    assertThat(q.record("r1").orElseThrow().status()).isEqualTo(DispatchStatus.PENDING);
    DurableDispatcher.Attempt a = rig.dispatcher("d", DispatcherOptions.withLease(LEASE)).tick()
        .toCompletableFuture().join().orElseThrow();
    assertThat(a.claim().runId()).isEqualTo("r1");
    assertThat(a.result()).isEqualTo(DurableDispatcher.Result.DONE);
    assertThat(q.record("r1")).isEmpty();
    assertThat(rig.target.calls).as("no committed work, nothing driven").isEmpty();
  }

  @Test
  void anUnreachableDatabaseFailsEveryMethodWithACommitStoreError() {
    DataSource down = (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
        new Class<?>[] {DataSource.class}, (proxy, m, args) -> {
          throw new SQLException("connection refused");
        });
    JdbcDispatchQueue q = queue(down);
    assertThatThrownBy(() -> q.claim("a", LEASE, 0, 5)).isInstanceOf(CommitStoreException.class)
        .hasMessage("cannot claim a dispatch record: connection refused");
    assertThatThrownBy(() -> q.record("r1")).isInstanceOf(CommitStoreException.class)
        .hasMessage("cannot read the dispatch record of run r1: connection refused");
    assertThatThrownBy(q::migrate).isInstanceOf(CommitStoreException.class);
  }
}

package dev.horae.gate.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.GateJson;
import dev.horae.gate.ResumeCommand;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL dispatch backend (gate specification §12.4, §12.5.6): dispatch records in {@code
 * <prefix>dispatch}, the resume inbox in {@code <prefix>resume_inbox}, the applied schema in
 * {@code <prefix>schema}, over a host {@link DataSource} with plain JDBC. Several processes may
 * share the tables: every method is one READ COMMITTED transaction with explicit row locks, and a
 * claim passes over rows another claimer holds ({@code FOR UPDATE SKIP LOCKED}), so concurrent
 * claimers take different Runs and never wait on each other. Times are the callers' clock
 * readings, never the database's {@code now()}; leases therefore assume loosely synchronised
 * clocks, and the lease must exceed the worst clock skew by a wide margin.
 *
 * <p>The commits stay in the session log (§12.0): the queue's commit store is a {@link
 * SessionCommitStore}, whose fence and outbox hooks run under the store's lock before the
 * session append — the fence reads the row and applies {@link DispatchRecord#admits}, the outbox
 * upserts the pending row ({@link DispatchQueue#wakesOnCommit}) in its own transaction, committed
 * before the append. That order is the safe one: a row whose commit never became durable is
 * claimed and the worker's decision procedure (§12.5.4) finds no matching committed work and
 * releases it (no run fact and no activation, or a fresh claim on a running Run → settle done,
 * or another ticket → settle awaiting), while a durable scheduled-action ticket whose append
 * succeeded always has its row, because the row was committed first. The reverse order would
 * leave a durable ticket without a row after a crash between the append and the row's commit,
 * found only by reconciliation (docs/gate.md, "A JDBC backend").
 *
 * <p>Every change that makes a record claimable sooner sends a notification on {@link
 * #wakeChannel()} (§12.5.7), which a {@link PgWakeSignal} in any process turns into a wake: in the
 * same transaction for {@code submit}, {@code reconcile}, {@code submitResume}, {@code cancel} and
 * a settle that leaves the record pending, so it is delivered only if the change commits; for the
 * outbox after the commit's append, so a woken claimer finds the ticket committed rather than
 * releasing the row of a commit still being appended. Notifications are hints: one lost costs at
 * most the dispatchers' poll interval.
 */
public final class JdbcDispatchQueue implements DispatchQueue {

  /** The table prefix used when none is given. */
  public static final String DEFAULT_PREFIX = "gate_";

  /** The newest schema version this library knows. */
  public static final int SCHEMA_VERSION = 1;

  // spliced into SQL, so only lowercase identifiers; 31 leaves room for the longest suffix within
  // PostgreSQL's 63-byte identifiers
  private static final Pattern PREFIX = Pattern.compile("[a-z_][a-z0-9_]{0,30}");

  // serialises concurrent migrate() calls of several nodes (an arbitrary constant key, distinct
  // from the session store's)
  private static final long MIGRATION_LOCK = 0x686f7261655f6761L;

  private static final String PLACEHOLDER = "${prefix}";

  private static final Logger LOG = LoggerFactory.getLogger(JdbcDispatchQueue.class);

  private final DataSource dataSource;
  private final String prefix;
  private final InstantSource clock;
  private final SessionCommitStore store;
  // the commit store holds this across a commit's fence check, outbox and append
  private final Object lock = new Object();

  private final String dispatch;
  private final String inbox;
  private final String schema;
  private final String channel;
  // set by the outbox, read by applied(): both run under the commit store's hold of lock
  private boolean wakeAfterAppend;

  private JdbcDispatchQueue(DataSource dataSource, String prefix, InstantSource clock, SessionCommitStore store) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.prefix = validPrefix(prefix);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.store = store;
    this.dispatch = prefix + "dispatch";
    this.inbox = prefix + "resume_inbox";
    this.schema = prefix + "schema";
    this.channel = wakeChannel(prefix);
    store.attach(new CommitHook());
  }

  /**
   * A queue over the tables with {@code prefix}, paired with a new session commit store without
   * durability checkpoints. Call {@link #migrate} once unless the host applies the DDL itself.
   *
   * @param dataSource the host's PostgreSQL connections
   * @param prefix the table-name prefix ({@code [a-z_][a-z0-9_]*}, at most 31 characters)
   * @param clock the clock the outbox's {@code created_at_ms} and the schema history read
   * @param sessions thread id to live session
   * @return the queue
   * @throws IllegalArgumentException when the prefix is not a valid identifier prefix
   */
  public static JdbcDispatchQueue over(DataSource dataSource, String prefix, InstantSource clock,
      Function<String, Optional<Session>> sessions) {
    return new JdbcDispatchQueue(dataSource, prefix, clock, SessionCommitStore.over(sessions));
  }

  /**
   * A queue whose commit store flushes the session after every commit before reporting it.
   *
   * @param dataSource the host's PostgreSQL connections
   * @param prefix the table-name prefix ({@code [a-z_][a-z0-9_]*}, at most 31 characters)
   * @param clock the clock the outbox's {@code created_at_ms} and the schema history read
   * @param sessions thread id to live session
   * @param flush the durability checkpoint
   * @return the queue
   * @throws IllegalArgumentException when the prefix is not a valid identifier prefix
   */
  public static JdbcDispatchQueue over(DataSource dataSource, String prefix, InstantSource clock,
      Function<String, Optional<Session>> sessions, Function<Session, CompletionStage<Boolean>> flush) {
    return new JdbcDispatchQueue(dataSource, prefix, clock, SessionCommitStore.over(sessions, flush));
  }

  private static String validPrefix(String prefix) {
    Objects.requireNonNull(prefix, "prefix");
    if (!PREFIX.matcher(prefix).matches()) {
      throw new IllegalArgumentException("dispatch table prefix must match " + PREFIX.pattern() + ", got \"" + prefix + "\"");
    }
    return prefix;
  }

  /**
   * The table prefix.
   *
   * @return the prefix
   */
  public String prefix() {
    return prefix;
  }

  /**
   * The notification channel of the queues with {@code prefix} (§12.5.7): {@code
   * <prefix>dispatch_wake}, a lowercase identifier of at most 44 characters, so queues on other
   * prefixes in the same database do not wake each other's dispatchers.
   *
   * @param prefix the table prefix
   * @return the channel
   * @throws IllegalArgumentException when the prefix is not a valid table prefix
   */
  public static String wakeChannel(String prefix) {
    return validPrefix(prefix) + "dispatch_wake";
  }

  /**
   * This queue's notification channel, the one a {@link PgWakeSignal} for its prefix listens on.
   *
   * @return {@code <prefix>dispatch_wake}
   */
  public String wakeChannel() {
    return channel;
  }

  /**
   * Folds a session's commits now, so the view and reconciliation know its Runs (rediscovery at
   * start); the dispatch records need nothing, they are in the database.
   *
   * @param session a live session whose id is a thread id
   */
  @Override
  public void track(Session session) {
    store.track(session);
  }

  @Override
  public SessionCommitStore store() {
    return store;
  }

  // ---------------------------------------------------------------- schema

  /**
   * The DDL of a schema version as shipped (the classpath resource), with the placeholder
   * unreplaced: what its checksum is computed over.
   *
   * @param version from 1 to {@link #SCHEMA_VERSION}
   * @return the text
   * @throws IllegalArgumentException for an unknown version
   */
  public static String schemaText(int version) {
    if (version < 1 || version > SCHEMA_VERSION) {
      throw new IllegalArgumentException("no dispatch schema version " + version + " (known: 1 to " + SCHEMA_VERSION + ")");
    }
    String name = "dispatch-schema-v" + version + ".sql";
    try (InputStream in = JdbcDispatchQueue.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("the resource " + name + " is missing from gate-runtime");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the resource " + name + ": " + e.getMessage(), e);
    }
  }

  /**
   * The SHA-256 of a schema version's text, as lowercase hex; the same for every prefix.
   *
   * @param version from 1 to {@link #SCHEMA_VERSION}
   * @return the checksum
   */
  public static String checksum(int version) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(sha.digest(schemaText(version).getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      // every Java platform must provide SHA-256 (MessageDigest's specification)
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  /**
   * The statements of every schema version for this queue's prefix, in order: for a host that
   * applies the schema with its own migration tool.
   *
   * @return idempotent {@code CREATE … IF NOT EXISTS} statements
   */
  public List<String> ddl() {
    List<String> out = new ArrayList<>();
    for (int v = 1; v <= SCHEMA_VERSION; v++) {
      out.addAll(statements(v));
    }
    return out;
  }

  private List<String> statements(int version) {
    StringBuilder body = new StringBuilder();
    for (String line : schemaText(version).split("\n", -1)) {
      if (!line.strip().startsWith("--")) {
        body.append(line).append('\n');
      }
    }
    List<String> out = new ArrayList<>();
    for (String s : body.toString().replace(PLACEHOLDER, prefix).split(";", -1)) {
      if (!s.isBlank()) {
        out.add(s.strip());
      }
    }
    return out;
  }

  /**
   * Brings the dispatch schema to this library's version in one transaction, under an advisory
   * lock so several nodes may call it at once: creates {@code <prefix>schema} unless it exists,
   * then applies each version it does not record and records it with its checksum and the
   * clock's time. It refuses, changing nothing, a history that records a version with another
   * checksum (the tables are not this library's) or a version newer than this library knows.
   *
   * @throws CommitStoreException when the database fails or refuses, or the history does not match
   */
  public void migrate() {
    inTransaction("migrate the dispatch tables " + dispatch + ", " + inbox, c -> {
      try (PreparedStatement lockStmt = c.prepareStatement("SELECT pg_advisory_xact_lock(?)");
          Statement ddl = c.createStatement()) {
        lockStmt.setLong(1, MIGRATION_LOCK);
        lockStmt.execute();
        ddl.execute("CREATE TABLE IF NOT EXISTS " + schema + " (version integer PRIMARY KEY CHECK (version > 0), "
            + "checksum text NOT NULL, applied_at_ms bigint NOT NULL)");
        Map<Integer, String> applied = new TreeMap<>();
        try (ResultSet rows = ddl.executeQuery("SELECT version, checksum FROM " + schema)) {
          while (rows.next()) {
            applied.put(rows.getInt(1), rows.getString(2));
          }
        }
        for (Map.Entry<Integer, String> e : applied.entrySet()) {
          if (e.getKey() > SCHEMA_VERSION) {
            throw new CommitStoreException(schema + " records dispatch schema version " + e.getKey()
                + ", newer than this library's " + SCHEMA_VERSION + "; nothing was changed", null);
          }
          if (!e.getValue().equals(checksum(e.getKey()))) {
            throw new CommitStoreException("dispatch schema version " + e.getKey() + " in " + schema
                + " was applied with checksum " + e.getValue() + ", but this library's is " + checksum(e.getKey())
                + ": the tables are not the ones this library creates; nothing was changed", null);
          }
        }
        try (PreparedStatement record = c.prepareStatement(
            "INSERT INTO " + schema + " (version, checksum, applied_at_ms) VALUES (?, ?, ?)")) {
          for (int v = 1; v <= SCHEMA_VERSION; v++) {
            if (applied.containsKey(v)) {
              continue;
            }
            for (String statement : statements(v)) {
              ddl.execute(statement);
            }
            record.setInt(1, v);
            record.setString(2, checksum(v));
            record.setLong(3, clock.millis());
            record.executeUpdate();
          }
        }
      }
      return true;
    });
  }

  // ---------------------------------------------------------------- transactions

  @FunctionalInterface
  private interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * One READ COMMITTED transaction; any failure rolls it back. A failure of the commit itself
   * leaves the outcome unknown, which the message says.
   */
  private <T> T inTransaction(String what, Work<T> work) {
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      try {
        T out = work.run(c);
        try {
          c.commit();
        } catch (SQLException e) {
          throw new CommitStoreException("cannot " + what + ": the commit failed, so whether it landed is unknown: "
              + e.getMessage(), e);
        }
        return out;
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(c, e);
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new CommitStoreException("cannot " + what + ": " + e.getMessage(), e);
    }
  }

  private static void rollbackQuietly(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException r) {
      // the connection is likely broken; the server discards the transaction with it
      cause.addSuppressed(r);
    }
  }

  // ---------------------------------------------------------------- commit hooks

  // the paired store's view of this queue: a separate object, so the commit step's methods are
  // no public members of the queue
  private final class CommitHook implements LogCommitStore.DispatchHook {

    @Override
    public Object lock() {
      return lock;
    }

    @Override
    public boolean admits(LeaseFence fence, ThreadCommit commit) {
      // a plain READ COMMITTED read: the row as last committed by any claimer; the fence rule
      // itself is DispatchRecord.admits, shared with every backend
      return record(fence.runId()).map(r -> r.admits(fence, commit.run().runId(), commit.threadId())).orElse(false);
    }

    @Override
    public List<ObjectNode> outbox(ThreadCommit commit) {
      wakeAfterAppend = false;
      if (DispatchQueue.wakesOnCommit(commit)) {
        long now = clock.millis();
        // DispatchTable.planOutbox and apply("enqueue"): create pending (available at once), or turn
        // awaiting into pending; a pending or running record is left alone
        inTransaction("write the dispatch outbox row of run " + commit.run().runId(), c -> {
          try (PreparedStatement p = c.prepareStatement("INSERT INTO " + dispatch + " AS d (run_id, thread_id, status, epoch, "
              + "attempt_count, available_at_ms, cancel_requested, woken_while_running, created_at_ms) "
              + "VALUES (?, ?, 'pending', 0, 0, 0, false, false, ?) "
              + "ON CONFLICT (run_id) DO UPDATE SET status = 'pending', available_at_ms = 0 WHERE d.status = 'awaiting'")) {
            p.setString(1, commit.run().runId());
            p.setString(2, commit.threadId());
            p.setLong(3, now);
            // a row left running or pending by the WHERE is no new work: its worker or a claimer has it
            wakeAfterAppend = p.executeUpdate() == 1;
          }
          return true;
        });
      }
      // the row is in the database already; nothing goes into the session log
      return List.of();
    }

    @Override
    public void applied(String threadId, List<ObjectNode> facts, long logEnd) {
      // the outbox returned no facts and the row was committed before the append; the hint goes
      // now that the ticket is in the log too
      if (wakeAfterAppend) {
        wakeAfterAppend = false;
        notifyAlone(threadId);
      }
    }
  }

  // the commit has landed, so a failure here must not fail it: the hint is lost, the poll finds
  // the row (§12.5.7)
  private void notifyAlone(String threadId) {
    try {
      inTransaction("send the wake hint for thread " + threadId, c -> {
        notifyWake(c);
        return true;
      });
    } catch (CommitStoreException e) {
      LOG.warn("the wake hint on channel {} for thread {} was not sent; dispatchers find the work at their "
          + "next poll", channel, threadId, e);
    }
  }

  // delivered to the listeners when the calling transaction commits, and only then; the empty
  // payload lets PostgreSQL fold repeats within one transaction into one notification
  private void notifyWake(Connection c) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT pg_notify(?, '')")) {
      p.setString(1, channel);
      p.execute();
    }
  }

  // ---------------------------------------------------------------- claims

  @Override
  public Optional<DispatchClaim> claim(String owner, long leaseMs, long nowMs, int maxRecoveryAttempts) {
    // DispatchTable.planClaim: pending and available, or running with a strictly expired lease
    // and budget left; availability, then run id. A running row always has a lease (the table's
    // CHECK), so DispatchTable's "unknown lease counts as expired" has no case here
    return claimWhere("(status = 'pending' AND available_at_ms <= ?) OR (status = 'running' "
        + "AND lease_expires_ms < ? AND attempt_count < ?)",
        List.of(nowMs, nowMs, (long) maxRecoveryAttempts), owner, leaseMs, nowMs, true);
  }

  @Override
  public Optional<DispatchClaim> claimRetryExhausted(String owner, long leaseMs, int maxRecoveryAttempts, long nowMs) {
    // DispatchTable.planClaim with exhausted: strictly expired running records out of budget
    return claimWhere("status = 'running' AND lease_expires_ms < ? AND attempt_count >= ?",
        List.of(nowMs, (long) maxRecoveryAttempts), owner, leaseMs, nowMs, false);
  }

  private Optional<DispatchClaim> claimWhere(String where, List<Long> args, String owner, long leaseMs, long nowMs,
      boolean countRecovery) {
    return inTransaction("claim a dispatch record", c -> {
      String runId;
      boolean recovery;
      try (PreparedStatement p = c.prepareStatement("SELECT run_id, status FROM " + dispatch + " WHERE " + where
          + " ORDER BY available_at_ms, run_id LIMIT 1 FOR UPDATE SKIP LOCKED")) {
        for (int i = 0; i < args.size(); i++) {
          p.setLong(i + 1, args.get(i));
        }
        try (ResultSet r = p.executeQuery()) {
          if (!r.next()) {
            return Optional.empty();
          }
          runId = r.getString(1);
          recovery = r.getString(2).equals("running");
        }
      }
      // a recovery of an ordinary claim counts against the budget; the exhausted claim does not
      try (PreparedStatement u = c.prepareStatement("UPDATE " + dispatch + " SET status = 'running', owner = ?, "
          + "epoch = epoch + 1, lease_expires_ms = ?, attempt_count = attempt_count + ? WHERE run_id = ? "
          + "RETURNING thread_id, epoch, attempt_count, activation::text, cancel_requested")) {
        u.setString(1, owner);
        u.setLong(2, nowMs + leaseMs);
        u.setInt(3, recovery && countRecovery ? 1 : 0);
        u.setString(4, runId);
        try (ResultSet r = u.executeQuery()) {
          r.next();
          return Optional.of(new DispatchClaim(runId, r.getString(1), owner, r.getLong(2), nowMs + leaseMs,
              r.getInt(3), recovery, activation(r.getString(4)), r.getBoolean(5)));
        }
      }
    });
  }

  @Override
  public boolean renew(DispatchClaim claim, long leaseMs, long nowMs) {
    // DispatchTable.current: running, same owner and epoch
    return inTransaction("renew the claim on run " + claim.runId(), c -> {
      try (PreparedStatement p = c.prepareStatement("UPDATE " + dispatch + " SET lease_expires_ms = ? "
          + "WHERE run_id = ? AND status = 'running' AND owner = ? AND epoch = ?")) {
        p.setLong(1, nowMs + leaseMs);
        p.setString(2, claim.runId());
        p.setString(3, claim.owner());
        p.setLong(4, claim.epoch());
        return p.executeUpdate() == 1;
      }
    });
  }

  @Override
  public SettleResult settle(DispatchClaim claim, Settlement settlement, Collection<Long> consumed) {
    return inTransaction("settle the claim on run " + claim.runId(), c -> {
      // DispatchTable.current, under the row lock so no claim or wake interleaves
      try (PreparedStatement p = c.prepareStatement("SELECT 1 FROM " + dispatch
          + " WHERE run_id = ? AND status = 'running' AND owner = ? AND epoch = ? FOR UPDATE")) {
        p.setString(1, claim.runId());
        p.setString(2, claim.owner());
        p.setLong(3, claim.epoch());
        try (ResultSet r = p.executeQuery()) {
          if (!r.next()) {
            return SettleResult.FENCED;
          }
        }
      }
      if (settlement == Settlement.DONE) {
        // DispatchTable.apply("settle" done): the record and all its answers go
        try (PreparedStatement d = c.prepareStatement("DELETE FROM " + inbox + " WHERE run_id = ?");
            PreparedStatement r = c.prepareStatement("DELETE FROM " + dispatch + " WHERE run_id = ?")) {
          d.setString(1, claim.runId());
          d.executeUpdate();
          r.setString(1, claim.runId());
          r.executeUpdate();
        }
        return SettleResult.SETTLED;
      }
      if (!consumed.isEmpty()) {
        // DispatchTable.apply("consumed"): exactly the delivered or dropped ids
        try (PreparedStatement d = c.prepareStatement("DELETE FROM " + inbox + " WHERE run_id = ? AND id = ANY (?)")) {
          Array ids = c.createArrayOf("bigint", consumed.toArray(new Long[0]));
          d.setString(1, claim.runId());
          d.setArray(2, ids);
          d.executeUpdate();
        }
      }
      // DispatchTable.apply("settle" awaiting): pending instead when woken or cancelled meanwhile
      try (PreparedStatement u = c.prepareStatement("UPDATE " + dispatch + " SET status = CASE WHEN woken_while_running "
          + "OR cancel_requested THEN 'pending' ELSE 'awaiting' END, owner = NULL, lease_expires_ms = NULL, "
          + "attempt_count = 0, woken_while_running = false WHERE run_id = ? RETURNING status")) {
        u.setString(1, claim.runId());
        try (ResultSet r = u.executeQuery()) {
          if (r.next() && r.getString(1).equals("pending")) {
            notifyWake(c);
          }
        }
      }
      return SettleResult.SETTLED;
    });
  }

  // ---------------------------------------------------------------- submissions

  @Override
  public boolean submit(RunActivation activation, long availableAtMs) {
    return inTransaction("submit run " + activation.runId(), c ->
        insertIfAbsent(c, activation.runId(), activation.threadId(), availableAtMs, Optional.of(activation)));
  }

  @Override
  public boolean reconcile(String runId, String threadId, long nowMs) {
    return inTransaction("reconcile run " + runId, c -> insertIfAbsent(c, runId, threadId, nowMs, Optional.empty()));
  }

  // DispatchTable.apply("enqueue") on a missing record; an existing one is left alone
  private boolean insertIfAbsent(Connection c, String runId, String threadId, long at, Optional<RunActivation> a)
      throws SQLException {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO " + dispatch + " (run_id, thread_id, status, epoch, "
        + "attempt_count, available_at_ms, activation, cancel_requested, woken_while_running, created_at_ms) "
        + "VALUES (?, ?, 'pending', 0, 0, ?, ?::jsonb, false, false, ?) ON CONFLICT (run_id) DO NOTHING")) {
      p.setString(1, runId);
      p.setString(2, threadId);
      p.setLong(3, at);
      if (a.isPresent()) {
        p.setString(4, DispatchTable.encodeActivation(a.get()).toString());
      } else {
        p.setNull(4, Types.VARCHAR);
      }
      p.setLong(5, at);
      if (p.executeUpdate() == 0) {
        return false;
      }
    }
    notifyWake(c);
    return true;
  }

  @Override
  public long submitResume(ResumeCommand command, long nowMs) {
    return inTransaction("store an answer for run " + command.runId(), c -> {
      long id;
      try (PreparedStatement p = c.prepareStatement("INSERT INTO " + inbox
          + " (run_id, correlation_id, command, created_at_ms) VALUES (?, ?, ?::jsonb, ?) RETURNING id")) {
        p.setString(1, command.runId());
        p.setString(2, command.correlationId());
        p.setString(3, GateJson.encodeResumeCommand(command).toString());
        p.setLong(4, nowMs);
        try (ResultSet r = p.executeQuery()) {
          r.next();
          id = r.getLong(1);
        }
      }
      wake(c, command.runId(), command.threadId(), nowMs, false);
      return id;
    });
  }

  @Override
  public void cancel(String runId, String threadId, long nowMs) {
    inTransaction("record a cancel for run " + runId, c -> {
      wake(c, runId, threadId, nowMs, true);
      return true;
    });
  }

  // DispatchTable.wake: a missing record is created pending, an awaiting one becomes pending at
  // nowMs, a running one is marked so its settle makes it pending; a cancel also sets the intent.
  // A record left pending is work for any claimer, so it is notified; a running one waits for its
  // worker's settle, which notifies then
  private void wake(Connection c, String runId, String threadId, long nowMs, boolean cancel) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO " + dispatch + " AS d (run_id, thread_id, status, epoch, "
        + "attempt_count, available_at_ms, cancel_requested, woken_while_running, created_at_ms) "
        + "VALUES (?, ?, 'pending', 0, 0, ?, ?, false, ?) ON CONFLICT (run_id) DO UPDATE SET "
        + "status = CASE WHEN d.status = 'awaiting' THEN 'pending' ELSE d.status END, "
        + "available_at_ms = CASE WHEN d.status = 'awaiting' THEN EXCLUDED.available_at_ms ELSE d.available_at_ms END, "
        + "woken_while_running = d.woken_while_running OR d.status = 'running', "
        + "cancel_requested = d.cancel_requested OR EXCLUDED.cancel_requested RETURNING status")) {
      p.setString(1, runId);
      p.setString(2, threadId);
      p.setLong(3, nowMs);
      p.setBoolean(4, cancel);
      p.setLong(5, nowMs);
      try (ResultSet r = p.executeQuery()) {
        if (r.next() && r.getString(1).equals("pending")) {
          notifyWake(c);
        }
      }
    }
  }

  // ---------------------------------------------------------------- reads

  @Override
  public Optional<DispatchRecord> record(String runId) {
    return inTransaction("read the dispatch record of run " + runId, c -> {
      try (PreparedStatement p = c.prepareStatement("SELECT thread_id, status, owner, epoch, lease_expires_ms, "
          + "attempt_count, available_at_ms, activation::text, cancel_requested FROM " + dispatch + " WHERE run_id = ?")) {
        p.setString(1, runId);
        try (ResultSet r = p.executeQuery()) {
          if (!r.next()) {
            return Optional.empty();
          }
          long lease = r.getLong(5);
          OptionalLong leaseMs = r.wasNull() ? OptionalLong.empty() : OptionalLong.of(lease);
          return Optional.of(new DispatchRecord(runId, r.getString(1), status(r.getString(2)),
              Optional.ofNullable(r.getString(3)), r.getLong(4), leaseMs, r.getInt(6), r.getLong(7),
              activation(r.getString(8)), r.getBoolean(9)));
        }
      }
    });
  }

  @Override
  public List<PendingResume> resumes(String runId) {
    return inTransaction("read the answers for run " + runId, c -> {
      List<PendingResume> out = new ArrayList<>();
      try (PreparedStatement p = c.prepareStatement("SELECT id, command::text FROM " + inbox
          + " WHERE run_id = ? ORDER BY id")) {
        p.setString(1, runId);
        try (ResultSet r = p.executeQuery()) {
          while (r.next()) {
            out.add(new PendingResume(r.getLong(1), GateJson.decodeResumeCommand(json(r.getString(2)))));
          }
        }
      }
      return out;
    });
  }

  private static DispatchStatus status(String s) {
    return switch (s) {
      case "pending" -> DispatchStatus.PENDING;
      case "running" -> DispatchStatus.RUNNING;
      case "awaiting" -> DispatchStatus.AWAITING;
      default -> throw new CommitStoreException("dispatch row has unknown status \"" + s + "\"", null);
    };
  }

  private static Optional<RunActivation> activation(@Nullable String text) {
    return Optional.ofNullable(text).map(t -> DispatchTable.decodeActivation(json(t)));
  }

  private static JsonNode json(String text) {
    try {
      return Json.mapper().readTree(text);
    } catch (JsonProcessingException e) {
      throw new CommitStoreException("a dispatch row holds malformed JSON: " + e.getOriginalMessage(), e);
    }
  }
}

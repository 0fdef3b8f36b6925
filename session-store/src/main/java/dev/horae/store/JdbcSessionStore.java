package dev.horae.store;

import dev.horae.spi.session.EventCodec;
import dev.horae.spi.session.PayloadBlocks;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.internal.DueTrackers;
import dev.horae.store.internal.LeaseRules;
import dev.horae.store.internal.SessionTables;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A session store on PostgreSQL (12 or later) through a host-supplied {@link DataSource}: the store
 * for more than one machine. Each {@link #persist} is one transaction that locks the session's row,
 * writes the events beyond the committed length and advances it, so concurrent persists of one
 * session take turns, a persist lands whole or not at all (an atomic multi-event append is never
 * split), and every node reads every other node's commits. Events are written as rows and, once a
 * run of 32 before the log's last event is whole, kept as one segment row ({@link Sealing}): a load
 * reads a million events as about 31,000 rows ({@code docs/persistence.md}, "Segments").
 *
 * <p>The rules are those of {@link FileSessionStore}: the log must be contiguous from seq 0 and
 * continue what is stored, the header never changes, a fork's log includes its seed, and a stale
 * shorter snapshot is already stored. The store writes only what it is given: no database clock.
 *
 * <p>{@link #leases} makes a session writable by one node at a time: a node acquires a session's
 * lease (owner, epoch, expiry) before writing it and persists under that lease; a persist whose
 * epoch is no longer the recorded one is refused in the same transaction as its insert and writes
 * nothing. The plain {@link #persist} stays available for hosts that do not lease, and refuses a
 * session on which a lease is recorded.
 *
 * <p>Every persist, load, lease renewal and due-index read takes a connection from the {@link
 * DataSource} and returns it at once, so give a long-running node a pooled one: unpooled, each is
 * a new server process ({@code docs/persistence.md}, "Connections").
 */
public final class JdbcSessionStore implements DueIndexed {

  /** The default table-name prefix. */
  public static final String DEFAULT_PREFIX = "horae_";

  private static final int BATCH = 500;

  private final DataSource dataSource;
  private final SessionTables tables;
  private final @Nullable DueTrackers trackers;

  /**
   * The length from which a load decodes its rows on a second thread while it fetches the next
   * ones ({@link EventRows}): about 10 MB of rows.
   */
  static final long PIPELINE_AT = 50_000;

  private volatile long pipelineAt = PIPELINE_AT;

  private JdbcSessionStore(DataSource dataSource, SessionTables tables, @Nullable DueIndexer indexer) {
    this.dataSource = dataSource;
    this.tables = tables;
    this.trackers = indexer == null ? null : new DueTrackers(indexer, DueTrackers.DEFAULT_CAPACITY);
  }

  /**
   * A store on the default tables {@code horae_session} and {@code horae_event}.
   *
   * @param dataSource connections to PostgreSQL
   * @return the store; call {@link #migrate} once unless the host applies the DDL itself
   */
  public static JdbcSessionStore create(DataSource dataSource) {
    return create(dataSource, DEFAULT_PREFIX);
  }

  /**
   * A store on tables {@code <prefix>session} and {@code <prefix>event}.
   *
   * @param dataSource connections to PostgreSQL
   * @param tablePrefix lowercase identifier prefix, e.g. {@code horae_}
   * @return the store
   * @throws IllegalArgumentException when the prefix is not a lowercase SQL identifier
   */
  public static JdbcSessionStore create(DataSource dataSource, String tablePrefix) {
    return new JdbcSessionStore(dataSource, new SessionTables(tablePrefix), null);
  }

  /**
   * A store on tables {@code <prefix>session}, {@code <prefix>event}, {@code <prefix>lease} and
   * {@code <prefix>due} that keeps a {@link DueIndex}: every persist that adds events writes the
   * session's entry in {@code <prefix>due} in the same transaction ({@code docs/persistence.md}, "The
   * due index"). Every node writing the database should index with the same indexer; entries a
   * node without one left behind are found stale and recomputed by {@link DueIndex#rebuild}.
   *
   * @param dataSource connections to PostgreSQL
   * @param tablePrefix lowercase identifier prefix, e.g. {@code horae_}
   * @param indexer computes a session's due time from its log
   * @return the store
   * @throws IllegalArgumentException when the prefix is not a lowercase SQL identifier
   */
  public static JdbcSessionStore create(DataSource dataSource, String tablePrefix, DueIndexer indexer) {
    return new JdbcSessionStore(dataSource, new SessionTables(tablePrefix), java.util.Objects.requireNonNull(indexer, "indexer"));
  }

  /**
   * The store's due index, when it was created with a {@link DueIndexer}. Claims ({@link
   * DueIndex#claim}) with this store's leases take due rows with {@code FOR UPDATE SKIP LOCKED}.
   *
   * @return the index, or empty
   */
  @Override
  public Optional<DueIndex> dueIndex() {
    DueTrackers t = trackers;
    return t == null ? Optional.empty() : Optional.of(new JdbcDueIndex(this, t));
  }

  /**
   * The DDL this store needs, for hosts that apply schema changes with their own migration tool:
   * the statements of every migration, in order. Applied that way no history is recorded; a later
   * {@link #migrate} adopts the tables and records it.
   *
   * @return idempotent {@code CREATE TABLE IF NOT EXISTS} statements, in order
   */
  public List<String> ddl() {
    return tables.ddl();
  }

  /**
   * Brings the schema to this library's version: in one transaction, under an advisory lock so
   * several nodes may call it at once, it creates the history table {@code <prefix>schema_version}
   * unless it exists, then applies each migration the history does not record and records it with
   * its checksum. A database whose tables an earlier, unversioned {@code migrate()} created is
   * adopted (every statement is {@code CREATE TABLE IF NOT EXISTS}). It refuses, changing nothing,
   * a database whose history records a migration with another checksum (the applied schema is not
   * this library's) or a version newer than this library knows.
   *
   * @throws SessionStoreException when the database refuses, or the history does not match
   */
  public void migrate() {
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(?)");
          Statement ddl = c.createStatement()) {
        lock.setLong(1, SessionTables.MIGRATION_LOCK);
        lock.execute();
        ddl.execute(tables.historyDdl());
        Map<Integer, String> applied = new TreeMap<>();
        try (ResultSet rows = ddl.executeQuery("SELECT version, checksum FROM " + tables.history())) {
          while (rows.next()) {
            applied.put(rows.getInt(1), rows.getString(2));
          }
        }
        List<SessionTables.Migration> migrations = tables.migrations();
        int newest = migrations.get(migrations.size() - 1).version();
        for (int version : applied.keySet()) {
          if (version > newest) {
            throw new SessionStoreException(tables.history() + " records schema version " + version
                + ", newer than this library's " + newest + "; a newer Horae migrated this database, so this one leaves it alone");
          }
        }
        try (PreparedStatement record = c.prepareStatement(
            "INSERT INTO " + tables.history() + " (version, description, checksum) VALUES (?, ?, ?)")) {
          for (SessionTables.Migration m : migrations) {
            String seen = applied.get(m.version());
            if (seen != null) {
              if (!seen.equals(m.checksum())) {
                throw new SessionStoreException("schema migration " + m.version() + " (" + m.description() + ") in "
                    + tables.history() + " was applied with checksum " + seen + ", but this library's is " + m.checksum()
                    + ": the tables are not the ones this library creates; nothing was changed");
              }
              continue;
            }
            for (String statement : m.statements()) {
              ddl.execute(statement);
            }
            record.setInt(1, m.version());
            record.setString(2, m.description());
            record.setString(3, m.checksum());
            record.executeUpdate();
          }
        }
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new SessionStoreException("cannot migrate the session tables " + tables.sessions() + ", " + tables.events()
          + ", " + tables.leases() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Makes the session's log durable in one transaction. The stage is already complete when this
   * returns: normally once the transaction committed, exceptionally with {@link
   * IllegalArgumentException} when the log is not contiguous from seq 0, does not continue what is
   * stored, lacks a fork's seed, or comes with a different header, with {@link
   * SessionLeaseException} ({@code not-leased}) when a lease is recorded on the session (write it
   * through {@link SessionLeases#persist} then), and with {@link SessionStoreException} when the
   * database fails. A rejected persist changes nothing.
   *
   * @param header the session's header; stored with the first persist, must not change afterwards
   * @param log the whole raw log, an atomic snapshot
   * @return a completed stage
   */
  @Override
  public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log) {
    return write(header, log, null);
  }

  /**
   * One transaction: the lease check (the row held shared, so no acquisition slips in before the
   * commit), then the events. Any refusal rolls the whole transaction back.
   */
  CompletionStage<Void> write(SessionHeader header, List<SessionEvent> log, SessionLease.@Nullable Fenced lease) {
    try {
      if (header.seedLength() > log.size()) {
        throw new IllegalArgumentException(
            "log of session " + header.id() + " holds " + log.size() + " events, fewer than its seedLength "
                + header.seedLength() + " (a fork's log must include its seed)");
      }
      Json.checkReadable(header.toJson(), 0);
      List<DueTrackers.Advance> indexed = new ArrayList<>(1);
      // read committed: FOR UPDATE then waits for a concurrent persist and reads its result
      inTransaction(header.id(), Connection.TRANSACTION_READ_COMMITTED, c -> {
        indexed.clear();
        Optional<SessionLeaseException> refused =
            Leases.refusal(header.id(), readLease(c, header.id(), tables.shareLease()), lease);
        if (refused.isPresent()) {
          throw refused.get();
        }
        if (persistIn(c, header, log)) {
          DueTrackers t = trackers;
          if (t != null) {
            DueTrackers.Advance a = t.advance(header, log);
            writeDue(c, header.id(), a.length(), a.due());
            indexed.add(a);
          }
        }
      });
      // only a committed persist's tracker serves the next one (DueTrackers)
      DueTrackers t = trackers;
      if (t != null) {
        indexed.forEach(t::commit);
      }
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Writes a session's due entry; the caller's transaction holds the session row. */
  void writeDue(Connection c, String id, long length, java.util.OptionalLong due) throws SQLException {
    try (PreparedStatement upsert = c.prepareStatement(tables.upsertDue())) {
      upsert.setString(1, id);
      upsert.setLong(2, length);
      if (due.isPresent()) {
        upsert.setLong(3, due.getAsLong());
      } else {
        upsert.setNull(3, java.sql.Types.BIGINT);
      }
      upsert.executeUpdate();
    }
  }

  /** Inserts the events beyond the committed length; whether it inserted any. */
  private boolean persistIn(Connection c, SessionHeader header, List<SessionEvent> log) throws SQLException {
    String id = header.id();
    try (PreparedStatement insert = c.prepareStatement(tables.insertSession())) {
      insert.setString(1, id);
      insert.setString(2, Json.write(header.toJson()));
      insert.executeUpdate();
    }
    long length;
    long sealed;
    try (PreparedStatement lock = c.prepareStatement(tables.lockSession())) {
      lock.setString(1, id);
      try (ResultSet row = lock.executeQuery()) {
        if (!row.next()) {
          throw new SessionStoreException("session " + id + " vanished from " + tables.sessions() + " during a persist");
        }
        SessionHeader stored = readHeader(id, row.getString(1));
        if (!stored.equals(header)) {
          throw new IllegalArgumentException(
              "header of session " + id + " differs from the stored one: " + header.toJson() + " vs " + stored.toJson());
        }
        length = row.getLong(2);
        sealed = row.getLong(4);
      }
    }
    if (log.size() < length) {
      // a stale snapshot: a prefix of what is committed
      return false;
    }
    for (int i = (int) length; i < log.size(); i++) {
      if (log.get(i).seq() != i) {
        throw new IllegalArgumentException("log is not contiguous from seq 0: position " + i + " holds seq " + log.get(i).seq());
      }
    }
    if (length > 0) {
      // also for a log of the stored length: one that ends differently does not continue it
      checkContinues(c, id, log.get((int) length - 1));
    }
    if (log.size() == length) {
      return false;
    }
    Sealing plan = Sealing.plan(length, sealed, log.size());
    insertEvents(c, id, log, length, plan.directFrom());
    insertEvents(c, id, log, plan.directTo(), log.size());
    insertSegments(c, id, log, plan.directFrom(), plan.directTo());
    sealRows(c, id, sealed, plan.rowsTo());
    try (PreparedStatement update = c.prepareStatement(tables.updateLength())) {
      update.setLong(1, log.size());
      update.setLong(2, plan.sealed());
      update.setString(3, id);
      update.executeUpdate();
    }
    return true;
  }

  private void insertEvents(Connection c, String id, List<SessionEvent> log, long from, long to) throws SQLException {
    inBatches(c, tables.insertEvent(), (int) (to - from), BATCH, (insert, i) -> {
      SessionEvent e = log.get((int) from + i);
      insert.setString(1, id);
      insert.setLong(2, e.seq());
      insert.setString(3, e.type());
      // a row the decoder refuses, alone or sealed into a segment later, would make the session
      // unloadable: refuse the persist instead
      insert.setString(4, EventCodec.writeStorable(e));
    });
  }

  // stored rows become segments inside the database, from their own texts: a caller's copy of
  // events already committed is never what a segment holds (persist compares only the last one)
  private void sealRows(Connection c, String id, long from, long to) throws SQLException {
    if (from >= to) {
      return;
    }
    try (PreparedStatement seal = c.prepareStatement(tables.sealRows());
        PreparedStatement delete = c.prepareStatement(tables.deleteSealed())) {
      seal.setLong(1, from);
      seal.setLong(2, from);
      seal.setString(3, id);
      seal.setLong(4, from);
      seal.setLong(5, to);
      seal.executeUpdate();
      delete.setString(1, id);
      delete.setLong(2, from);
      delete.setLong(3, to);
      int deleted = delete.executeUpdate();
      if (deleted != to - from) {
        // a missing row would leave a short segment: nothing of this persist commits
        throw new SessionStoreException("session " + id + " has " + deleted + " rows in " + tables.events()
            + " for seqs " + from + " to " + (to - 1) + ", not " + (to - from) + ": the events cannot be sealed");
      }
    }
  }

  private void insertSegments(Connection c, String id, List<SessionEvent> log, long from, long to) throws SQLException {
    int k = SessionTables.SEGMENT_EVENTS;
    inBatches(c, tables.insertSegment(), (int) (to - from) / k, BATCH / k, (insert, i) -> {
      int first = (int) from + i * k;
      insert.setString(1, id);
      insert.setLong(2, first);
      insert.setString(3, new String(EventCodec.writeStorable(log.subList(first, first + k)), StandardCharsets.UTF_8));
    });
  }

  /** Binds row {@code i} of a batched insert. */
  @FunctionalInterface
  private interface RowBinder {
    void bind(PreparedStatement insert, int i) throws SQLException;
  }

  // rows sent a batch of `batch` at a time: a persist of a long log is not one statement per row
  private static void inBatches(Connection c, String sql, int rows, int batch, RowBinder binder) throws SQLException {
    if (rows <= 0) {
      return;
    }
    try (PreparedStatement insert = c.prepareStatement(sql)) {
      for (int i = 0; i < rows; i++) {
        binder.bind(insert, i);
        insert.addBatch();
        if ((i + 1) % batch == 0 || i == rows - 1) {
          insert.executeBatch();
        }
      }
    }
  }

  /**
   * A session's lease record; a session without a row was never leased.
   *
   * @param sql one of the lease reads of {@link SessionTables}
   */
  LeaseRules.LeaseRecord readLease(Connection c, String id, String sql) throws SQLException {
    try (PreparedStatement read = c.prepareStatement(sql)) {
      read.setString(1, id);
      try (ResultSet row = read.executeQuery()) {
        if (!row.next()) {
          return LeaseRules.LeaseRecord.NEVER_LEASED;
        }
        String owner = row.getString(1);
        long epoch = row.getLong(2);
        if (owner == null) {
          return new LeaseRules.LeaseRecord(epoch, null);
        }
        return new LeaseRules.LeaseRecord(epoch, new LeaseRules.Holder(owner, row.getLong(3), row.getLong(4)));
      }
    }
  }

  /**
   * Session leases on this store for one owner. Acquisition, renewal and release are each one
   * transaction on the session's row of {@code <prefix>lease}, locked {@code FOR UPDATE}; a persist
   * under a lease holds the row {@code FOR SHARE} while it checks owner and epoch and inserts its
   * events, so a concurrent acquisition waits for it and the persist after that acquisition is
   * refused ({@link SessionLeaseException.Code#STALE_EPOCH}).
   *
   * <p>Every time is read from {@code clock}, never from the database: the nodes' clocks must be
   * loosely synchronised, and {@code duration} must exceed their worst skew by a wide margin.
   *
   * @param owner the owner id, unique per running node (host, process and a random part, say)
   * @param duration how long an acquired or renewed lease lasts (at least 1 ms)
   * @param clock the node's clock
   * @return the owner's view of the leases
   * @throws IllegalArgumentException when the owner is blank or the duration shorter than 1 ms
   */
  public SessionLeases leases(String owner, Duration duration, InstantSource clock) {
    return new JdbcSessionLeases(this, owner, duration, clock);
  }

  SessionTables tables() {
    return tables;
  }

  DataSource dataSource() {
    return dataSource;
  }

  private void checkContinues(Connection c, String id, SessionEvent mine) throws SQLException {
    try (PreparedStatement read = c.prepareStatement(tables.readEvent())) {
      read.setString(1, id);
      read.setLong(2, mine.seq());
      try (ResultSet row = read.executeQuery()) {
        if (!row.next()) {
          throw new SessionStoreException("session " + id + " has no stored event at seq " + mine.seq() + " in " + tables.events());
        }
        String stored = row.getString(1);
        SessionEvent last = decode(id, mine.seq(), stored);
        // compared in their stored form, so payload node types (int or long) do not matter
        if (!stored.equals(EventCodec.write(mine))) {
          throw new IllegalArgumentException(
              "log of session " + id + " does not continue the stored log: seq " + last.seq() + " is stored as "
                  + last.type() + "@" + last.time() + " but given as " + mine.type() + "@" + mine.time());
        }
      }
    }
  }

  /**
   * Loads a session as last committed, in one repeatable-read transaction.
   *
   * @param id session id
   * @return header and events, or empty when the store has no such session
   * @throws SessionStoreException when the stored rows are not a contiguous log or the database fails
   */
  @Override
  public Optional<StoredSession> load(String id) {
    List<Optional<StoredSession>> result = new ArrayList<>(1);
    // repeatable read: the length and the events come from one snapshot
    inTransaction(id, Connection.TRANSACTION_REPEATABLE_READ, c -> {
      result.add(loadIn(c, id));
    });
    return result.get(0);
  }

  /** Sets the length from which a load decodes on a second thread (tests use short logs). */
  void pipelineAt(long rows) {
    pipelineAt = rows;
  }

  /**
   * Reads a session in the caller's transaction.
   *
   * @return the session, or empty when it has no row
   */
  Optional<StoredSession> loadIn(Connection c, String id) throws SQLException {
    SessionHeader header;
    long length;
    long sealFrom;
    long sealed;
    try (PreparedStatement read = c.prepareStatement(tables.readSession())) {
      read.setString(1, id);
      try (ResultSet row = read.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        header = readHeader(id, row.getString(1));
        length = row.getLong(2);
        sealFrom = row.getLong(3);
        sealed = row.getLong(4);
      }
    }
    List<SessionEvent> events;
    // the loaded log is retained whole: its payloads share blocks (PayloadBlocks says why)
    PayloadBlocks blocks = new PayloadBlocks();
    EventRows.Decoder decoder = (seq, bytes, offset, size) -> decode(id, seq, bytes, offset, size, blocks);
    EventRows.Segments segments = (first, bytes, offset, size) -> decodeSegment(id, first, bytes, offset, size, blocks);
    EventRows.Gap gap = (expected, found) -> new SessionStoreException("session " + id + " in " + tables.events() + " and "
        + tables.segments() + " is not contiguous: expected seq " + expected + ", found " + found);
    try (EventRows decoded = EventRows.forLength(length, pipelineAt, decoder, segments, gap)) {
      EventCopy.read(c, tables, id, sealFrom, sealed, length, decoded);
      events = decoded.finish();
    }
    if (events.size() != length) {
      throw new SessionStoreException(
          "session " + id + " has length " + length + " in " + tables.sessions() + " but " + events.size() + " events in "
              + tables.events() + " and " + tables.segments());
    }
    return Optional.of(new StoredSession(header, events));
  }

  /**
   * Whether the session has a row, read by its key alone.
   *
   * @param id the session id
   * @return true when it is stored
   * @throws SessionStoreException when the database fails
   */
  @Override
  public boolean contains(String id) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement exists = c.prepareStatement(tables.sessionExists())) {
      exists.setString(1, id);
      try (ResultSet row = exists.executeQuery()) {
        return row.next();
      }
    } catch (SQLException e) {
      throw new SessionStoreException("cannot read " + tables.sessions() + " for session " + id + ": " + e.getMessage(), e);
    }
  }

  /**
   * Ids of every stored session.
   *
   * @return the ids
   * @throws SessionStoreException when the database fails
   */
  @Override
  public Set<String> ids() {
    Set<String> ids = new HashSet<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement list = c.prepareStatement(tables.listSessions());
        ResultSet rows = list.executeQuery()) {
      while (rows.next()) {
        ids.add(rows.getString(1));
      }
    } catch (SQLException e) {
      throw new SessionStoreException("cannot list " + tables.sessions() + ": " + e.getMessage(), e);
    }
    return Set.copyOf(ids);
  }

  private SessionHeader readHeader(String id, String text) {
    try {
      return SessionHeader.fromJson(Json.parse(text));
    } catch (IllegalArgumentException e) {
      throw new SessionStoreException("session " + id + " has a corrupt header in " + tables.sessions() + ": " + e.getMessage(), e);
    }
  }

  private SessionEvent decode(String id, long seq, String text) {
    byte[] bytes;
    try {
      bytes = utf8(text);
    } catch (IllegalArgumentException e) {
      throw corrupt(id, seq, e);
    }
    return decode(id, seq, bytes, 0, bytes.length, null);
  }

  // blocks: where a whole load keeps its payloads; null for a single event read and dropped
  private SessionEvent decode(String id, long seq, byte[] bytes, int offset, int length, @Nullable PayloadBlocks blocks) {
    SessionEvent event;
    try {
      // a row in the layout the store writes is read without a parser, any other by the streaming
      // reader the file store uses: the payload stays text, no tree
      event = blocks == null
          ? EventCodec.readEvent(bytes, offset, length)
          : EventCodec.readEvent(bytes, offset, length, blocks);
    } catch (IllegalArgumentException | EventCodec.Unreadable e) {
      throw corrupt(id, seq, e);
    }
    if (event.seq() != seq) {
      throw new SessionStoreException(
          "session " + id + " has an event claiming seq " + event.seq() + " in the row of seq " + seq + " in " + tables.events());
    }
    return event;
  }

  private List<SessionEvent> decodeSegment(String id, long first, byte[] bytes, int offset, int length, PayloadBlocks blocks) {
    List<SessionEvent> events;
    try {
      events = EventCodec.readArray(bytes, offset, length, blocks);
    } catch (IllegalArgumentException | EventCodec.Unreadable e) {
      throw new SessionStoreException("session " + id + " has a corrupt segment from seq " + first + " in "
          + tables.segments() + ": " + e.getMessage(), e);
    }
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).seq() != first + i) {
        throw new SessionStoreException("session " + id + " has an event claiming seq " + events.get(i).seq() + " at seq "
            + (first + i) + " of the segment from seq " + first + " in " + tables.segments());
      }
    }
    return events;
  }

  private SessionStoreException corrupt(String id, long seq, Exception e) {
    return new SessionStoreException(
        "session " + id + " has a corrupt event at seq " + seq + " in " + tables.events() + ": " + e.getMessage(), e);
  }

  // text a row could hold but UTF-8 cannot (an unpaired surrogate) is refused, not replaced by '?'
  static byte[] utf8(String text) {
    // the plain encoding replaces an unpaired surrogate with '?', so bytes without a '?' replaced
    // nothing; a strict encoder for every row was a third of a million-row load (docs/performance.md,
    // "The JDBC store's load")
    byte[] plain = text.getBytes(StandardCharsets.UTF_8);
    if (!contains(plain, (byte) '?')) {
      return plain;
    }
    try {
      java.nio.ByteBuffer bytes = StandardCharsets.UTF_8.newEncoder().encode(java.nio.CharBuffer.wrap(text));
      byte[] out = new byte[bytes.remaining()];
      bytes.get(out);
      return out;
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new IllegalArgumentException("not JSON: the row's text is not well-formed Unicode", e);
    }
  }

  private static boolean contains(byte[] bytes, byte b) {
    for (byte x : bytes) {
      if (x == b) {
        return true;
      }
    }
    return false;
  }

  /** Work inside one transaction. */
  @FunctionalInterface
  interface Work {
    void run(Connection c) throws SQLException;
  }

  void inTransaction(String id, int isolation, Work work) {
    try (Connection c = dataSource.getConnection()) {
      // a pooled connection goes back as it came
      boolean autoCommit = c.getAutoCommit();
      int previousIsolation = c.getTransactionIsolation();
      c.setAutoCommit(false);
      c.setTransactionIsolation(isolation);
      try {
        work.run(c);
        c.commit();
      } catch (SQLException | RuntimeException e) {
        try {
          c.rollback();
        } catch (SQLException rollback) {
          e.addSuppressed(rollback);
        }
        throw e;
      } finally {
        c.setTransactionIsolation(previousIsolation);
        c.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new SessionStoreException("database failure on session " + id + ": " + e.getMessage(), e);
    }
  }
}

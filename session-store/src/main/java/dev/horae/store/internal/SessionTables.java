package dev.horae.store.internal;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The PostgreSQL schema and statements of the JDBC session store, with a table-name prefix. The
 * tables: {@code <prefix>session} (id, header, committed length, and the range {@code [seal_from,
 * sealed)} of seqs whose events live in segments), {@code <prefix>segment} (those events, {@value
 * #SEGMENT_EVENTS} a row, as the JSON array a file store's line holds), {@code <prefix>event} (one
 * row per event outside that range; the event's JSON form kept verbatim in a {@code json} column,
 * so member order and number spelling survive), {@code <prefix>lease} (one row per session
 * ever leased: owner, epoch and times in milliseconds of the nodes' clocks; no foreign key, because
 * a new session is leased before its first persist creates its row) and {@code <prefix>due} (the
 * due index).
 *
 * <p>Segments exist for the load: PostgreSQL spends much of its work on a row, not on its bytes,
 * so a million short events read as a row each cost its backend about three times the CPU they
 * cost as segments of 32, and events of text that compresses poorly about a third more
 * (docs/performance.md, "Sealed segments").
 *
 * @param prefix the table-name prefix
 */
public record SessionTables(String prefix) {

  private static final Pattern PREFIX = Pattern.compile("[a-z_][a-z0-9_]{0,30}");
  /** The transaction-local setting that names the session {@link #copyEvents} reads. */
  private static final String COPY_SESSION = "horae.copy_session";

  /**
   * How many events a segment row holds. A persist seals the events before the log's last one into
   * segments of this many, from the sealed length on; the last event always stays a row of its own.
   */
  public static final int SEGMENT_EVENTS = 32;

  /** Serialises concurrent {@code migrate()} calls of several nodes (an arbitrary constant key). */
  public static final long MIGRATION_LOCK = 0x686f726165L;

  // the prefix a migration's checksum is computed for, whatever prefix a store uses
  private static final SessionTables CANONICAL = new SessionTables("horae_");

  /**
   * Validates the prefix: it is spliced into SQL, so only lowercase identifiers are allowed.
   *
   * @param prefix the table-name prefix
   * @throws IllegalArgumentException when the prefix is not {@code [a-z_][a-z0-9_]*} (at most 31)
   */
  public SessionTables {
    if (!PREFIX.matcher(prefix).matches()) {
      throw new IllegalArgumentException("table prefix must match " + PREFIX.pattern() + ", got \"" + prefix + "\"");
    }
  }

  /**
   * The session table's name.
   *
   * @return the name
   */
  public String sessions() {
    return prefix + "session";
  }

  /**
   * The event table's name.
   *
   * @return the name
   */
  public String events() {
    return prefix + "event";
  }

  /**
   * The segment table's name.
   *
   * @return the name
   */
  public String segments() {
    return prefix + "segment";
  }

  /**
   * The lease table's name.
   *
   * @return the name
   */
  public String leases() {
    return prefix + "lease";
  }

  /**
   * The due index's table: one row per indexed session, with the log length its due time was
   * computed at.
   *
   * @return the name
   */
  public String due() {
    return prefix + "due";
  }

  /**
   * The table that records which schema migrations were applied.
   *
   * @return the name
   */
  public String history() {
    return prefix + "schema_version";
  }

  /**
   * One versioned step of the schema: its statements for this prefix, and a checksum of the
   * step's text that does not depend on the prefix, so every node and every prefix agrees on it.
   *
   * @param version the step's number, from 1
   * @param description what it creates
   * @param statements its idempotent statements for this prefix, in order
   * @param checksum the SHA-256 of its statements written for the canonical prefix {@code horae_},
   *     as lowercase hex
   */
  public record Migration(int version, String description, List<String> statements, String checksum) {}

  /**
   * The schema's steps, oldest first. A step, once released, never changes: a changed text would
   * change its checksum, and {@code migrate()} refuses a database whose applied step differs.
   *
   * @return the migrations
   */
  public List<Migration> migrations() {
    return List.of(
        migration(1, "sessions and events", SessionTables::v1),
        migration(2, "session leases", SessionTables::v2),
        migration(3, "due index", SessionTables::v3),
        migration(4, "sealed segments", SessionTables::v4));
  }

  private Migration migration(int version, String description, java.util.function.Function<SessionTables, List<String>> step) {
    return new Migration(version, description, step.apply(this), checksum(step.apply(CANONICAL)));
  }

  private static List<String> v1(SessionTables t) {
    return List.of(
        "CREATE TABLE IF NOT EXISTS " + t.sessions() + " ("
            + "session_id text PRIMARY KEY, "
            + "header json NOT NULL, "
            + "length bigint NOT NULL CHECK (length >= 0))",
        "CREATE TABLE IF NOT EXISTS " + t.events() + " ("
            + "session_id text NOT NULL REFERENCES " + t.sessions() + " (session_id), "
            + "seq bigint NOT NULL CHECK (seq >= 0), "
            + "type text NOT NULL, "
            + "event json NOT NULL, "
            + "PRIMARY KEY (session_id, seq))");
  }

  private static List<String> v2(SessionTables t) {
    return List.of(
        "CREATE TABLE IF NOT EXISTS " + t.leases() + " ("
            + "session_id text PRIMARY KEY, "
            + "owner text, "
            + "epoch bigint NOT NULL CHECK (epoch >= 0), "
            + "acquired_at_ms bigint, "
            + "expires_at_ms bigint, "
            + "CHECK ((owner IS NULL) = (expires_at_ms IS NULL) AND (owner IS NULL) = (acquired_at_ms IS NULL)))");
  }

  private static List<String> v3(SessionTables t) {
    return List.of(
        "CREATE TABLE IF NOT EXISTS " + t.due() + " ("
            + "session_id text PRIMARY KEY REFERENCES " + t.sessions() + " (session_id), "
            + "length bigint NOT NULL CHECK (length >= 0), "
            + "due_at_ms bigint)",
        "CREATE INDEX IF NOT EXISTS " + t.due() + "_at ON " + t.due() + " (due_at_ms, session_id) WHERE due_at_ms IS NOT NULL");
  }

  // a session stored before segments keeps its rows: sealing starts at its length (seal_from), so
  // no row written before the rule that every row also reads inside a segment's array is sealed;
  // the update touches only rows without the columns, so running the statements again is harmless
  private static List<String> v4(SessionTables t) {
    return List.of(
        "ALTER TABLE " + t.sessions() + " ADD COLUMN IF NOT EXISTS seal_from bigint CHECK (seal_from >= 0)",
        "ALTER TABLE " + t.sessions() + " ADD COLUMN IF NOT EXISTS sealed bigint CHECK (sealed >= seal_from AND sealed <= length)",
        "UPDATE " + t.sessions() + " SET seal_from = length, sealed = length WHERE seal_from IS NULL",
        "ALTER TABLE " + t.sessions() + " ALTER COLUMN seal_from SET DEFAULT 0, ALTER COLUMN seal_from SET NOT NULL, "
            + "ALTER COLUMN sealed SET DEFAULT 0, ALTER COLUMN sealed SET NOT NULL",
        "CREATE TABLE IF NOT EXISTS " + t.segments() + " ("
            + "session_id text NOT NULL REFERENCES " + t.sessions() + " (session_id), "
            + "first_seq bigint NOT NULL CHECK (first_seq >= 0), "
            + "events json NOT NULL, "
            + "PRIMARY KEY (session_id, first_seq))");
  }

  private static String checksum(List<String> statements) {
    try {
      java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
      for (String statement : statements) {
        sha.update(statement.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        sha.update((byte) ';');
      }
      return java.util.HexFormat.of().formatHex(sha.digest());
    } catch (java.security.NoSuchAlgorithmException e) {
      // every Java platform must provide SHA-256 (MessageDigest's specification)
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  /**
   * The statements of every migration, in order: for a host that applies the schema itself.
   *
   * @return idempotent {@code CREATE TABLE IF NOT EXISTS} statements
   */
  public List<String> ddl() {
    return migrations().stream().flatMap(m -> m.statements().stream()).toList();
  }

  /**
   * The migration history table: created first by every {@code migrate()}.
   *
   * @return the statement
   */
  public String historyDdl() {
    return "CREATE TABLE IF NOT EXISTS " + history() + " ("
        + "version integer PRIMARY KEY CHECK (version > 0), "
        + "description text NOT NULL, "
        + "checksum text NOT NULL, "
        + "applied_at timestamptz NOT NULL DEFAULT now())";
  }

  /**
   * Creates a session's lease row, free and at epoch 0, unless it exists.
   *
   * @return SQL with parameter id
   */
  public String insertLease() {
    return "INSERT INTO " + leases() + " (session_id, owner, epoch, acquired_at_ms, expires_at_ms) "
        + "VALUES (?, NULL, 0, NULL, NULL) ON CONFLICT (session_id) DO NOTHING";
  }

  /**
   * Reads and locks a lease row for a change: acquisitions, renewals and releases of one session
   * take turns here, and wait for the persists that hold it shared.
   *
   * @return SQL with parameter id; columns owner, epoch, acquired_at_ms, expires_at_ms
   */
  public String lockLease() {
    return "SELECT owner, epoch, acquired_at_ms, expires_at_ms FROM " + leases() + " WHERE session_id = ? FOR UPDATE";
  }

  /**
   * Reads a lease row and holds it shared until the persist's commit, so no acquisition can raise
   * the epoch between the check and the insert.
   *
   * @return SQL with parameter id; columns as {@link #lockLease}
   */
  public String shareLease() {
    return "SELECT owner, epoch, acquired_at_ms, expires_at_ms FROM " + leases() + " WHERE session_id = ? FOR SHARE";
  }

  /**
   * Reads a lease row without locking it.
   *
   * @return SQL with parameter id; columns as {@link #lockLease}
   */
  public String readLease() {
    return "SELECT owner, epoch, acquired_at_ms, expires_at_ms FROM " + leases() + " WHERE session_id = ?";
  }

  /**
   * Writes a locked lease row.
   *
   * @return SQL with parameters owner, epoch, acquired_at_ms, expires_at_ms, id
   */
  public String updateLease() {
    return "UPDATE " + leases() + " SET owner = ?, epoch = ?, acquired_at_ms = ?, expires_at_ms = ? WHERE session_id = ?";
  }

  /**
   * Creates the session row unless it exists.
   *
   * @return SQL with parameters id, header
   */
  public String insertSession() {
    return "INSERT INTO " + sessions() + " (session_id, header, length) VALUES (?, ?::json, 0) "
        + "ON CONFLICT (session_id) DO NOTHING";
  }

  /**
   * Reads and locks the session row: concurrent persists of one session take turns here.
   *
   * @return SQL with parameter id
   */
  public String lockSession() {
    return "SELECT header::text, length, seal_from, sealed FROM " + sessions() + " WHERE session_id = ? FOR UPDATE";
  }

  /**
   * Reads the session row.
   *
   * @return SQL with parameter id
   */
  public String readSession() {
    return "SELECT header::text, length, seal_from, sealed FROM " + sessions() + " WHERE session_id = ?";
  }

  /**
   * Advances the committed and the sealed length.
   *
   * @return SQL with parameters length, sealed, id
   */
  public String updateLength() {
    return "UPDATE " + sessions() + " SET length = ?, sealed = ? WHERE session_id = ?";
  }

  /**
   * Inserts one segment.
   *
   * @return SQL with parameters id, first seq, events (the JSON array)
   */
  public String insertSegment() {
    return "INSERT INTO " + segments() + " (session_id, first_seq, events) VALUES (?, ?, ?::json)";
  }

  /**
   * Seals stored event rows into segments of {@link #SEGMENT_EVENTS}, from a first seq on. Each
   * segment's text is the rows' texts, verbatim, joined as a JSON array: the layout a file store's
   * line has. The rows stay until {@link #deleteSealed} removes them in the same transaction.
   *
   * @return SQL with parameters from (the first seq, where the sealed length stands), from again,
   *     id, from again, to (the new sealed length, from plus a multiple of the segment size)
   */
  public String sealRows() {
    return "INSERT INTO " + segments() + " (session_id, first_seq, events) "
        + "SELECT session_id, ? + (seq - ?) / " + SEGMENT_EVENTS + " * " + SEGMENT_EVENTS + ", "
        + "('[' || string_agg(event::text, ',' ORDER BY seq) || ']')::json FROM " + events()
        + " WHERE session_id = ? AND seq >= ? AND seq < ? GROUP BY session_id, 2";
  }

  /**
   * Deletes the event rows {@link #sealRows} sealed.
   *
   * @return SQL with parameters id, from, to
   */
  public String deleteSealed() {
    return "DELETE FROM " + events() + " WHERE session_id = ? AND seq >= ? AND seq < ?";
  }

  /**
   * Inserts one event.
   *
   * @return SQL with parameters id, seq, type, event
   */
  public String insertEvent() {
    return "INSERT INTO " + events() + " (session_id, seq, type, event) VALUES (?, ?, ?, ?::json)";
  }

  /**
   * Reads one event.
   *
   * @return SQL with parameters id, seq
   */
  public String readEvent() {
    return "SELECT event::text FROM " + events() + " WHERE session_id = ? AND seq = ?";
  }

  /**
   * Names the session whose segments and events {@link #copySegments} and {@link #copyEvents} read,
   * for the rest of the transaction.
   *
   * @return SQL with parameter id
   */
  public String setCopySession() {
    return "SELECT set_config('" + COPY_SESSION + "', ?, true)";
  }

  /**
   * Copies the segments of the session {@link #setCopySession} named, in seq order, as binary rows
   * of {@code first_seq} and {@code events}. COPY takes no parameters; the id is read from the
   * setting, so no text of it is ever part of a statement.
   *
   * @param from the first seq of the first segment to read
   * @param to where the segments end: those starting before it are read
   * @return a {@code COPY … TO STDOUT (FORMAT binary)} statement
   */
  public String copySegments(long from, long to) {
    return "COPY (SELECT first_seq, events FROM " + segments() + " WHERE session_id = current_setting('" + COPY_SESSION
        + "') AND first_seq >= " + from + " AND first_seq < " + to + " ORDER BY first_seq) TO STDOUT (FORMAT binary)";
  }

  /**
   * Copies the event rows of seqs {@code [from, to)} of the session {@link #setCopySession} named,
   * in seq order, as binary rows of {@code seq} and {@code event}, as {@link #copySegments} does.
   *
   * @param from the first seq to read
   * @param to the seq after the last one to read
   * @return a {@code COPY … TO STDOUT (FORMAT binary)} statement
   */
  public String copyEvents(long from, long to) {
    return "COPY (SELECT seq, event FROM " + events() + " WHERE session_id = current_setting('" + COPY_SESSION
        + "') AND seq >= " + from + " AND seq < " + to + " ORDER BY seq) TO STDOUT (FORMAT binary)";
  }

  /**
   * Whether a session has a row.
   *
   * @return SQL with parameter id
   */
  public String sessionExists() {
    return "SELECT 1 FROM " + sessions() + " WHERE session_id = ?";
  }

  /**
   * Lists the session ids.
   *
   * @return SQL without parameters
   */
  public String listSessions() {
    return "SELECT session_id FROM " + sessions();
  }

  /**
   * Writes a session's due entry inside a persist's transaction, unless one computed at a longer
   * log is there.
   *
   * @return SQL with parameters id, length, due_at_ms (nullable)
   */
  public String upsertDue() {
    return "INSERT INTO " + due() + " AS d (session_id, length, due_at_ms) VALUES (?, ?, ?) "
        + "ON CONFLICT (session_id) DO UPDATE SET length = EXCLUDED.length, due_at_ms = EXCLUDED.due_at_ms "
        + "WHERE d.length <= EXCLUDED.length";
  }

  /**
   * Reads one session's due time.
   *
   * @return SQL with parameter id; column due_at_ms
   */
  public String readDue() {
    return "SELECT due_at_ms FROM " + due() + " WHERE session_id = ?";
  }

  /**
   * The due sessions, earliest first.
   *
   * @return SQL with parameters now, limit; columns session_id, due_at_ms
   */
  public String dueBy() {
    return "SELECT session_id, due_at_ms FROM " + due() + " WHERE due_at_ms IS NOT NULL AND due_at_ms <= ? "
        + "ORDER BY due_at_ms, session_id LIMIT ?";
  }

  /**
   * The earliest due time.
   *
   * @return SQL without parameters; one column, null when nothing is due
   */
  public String earliestDue() {
    return "SELECT min(due_at_ms) FROM " + due();
  }

  /**
   * The sessions whose due entry is missing or was computed at another length than the log's.
   *
   * @return SQL without parameters; column session_id
   */
  public String staleDue() {
    return "SELECT s.session_id FROM " + sessions() + " s LEFT JOIN " + due() + " d ON d.session_id = s.session_id "
        + "WHERE d.session_id IS NULL OR d.length <> s.length ORDER BY s.session_id";
  }

  /**
   * Claims due sessions: locks the due rows of sessions no live lease holds, passing over rows
   * another claimer has locked, so concurrent claimers take disjoint sessions.
   *
   * @return SQL with parameters now (due), skipped ids (text array), now (lease), limit; columns
   *     session_id, due_at_ms
   */
  public String claimDue() {
    return "SELECT d.session_id, d.due_at_ms FROM " + due() + " d WHERE d.due_at_ms IS NOT NULL AND d.due_at_ms <= ? "
        + "AND NOT (d.session_id = ANY (?)) "
        + "AND NOT EXISTS (SELECT 1 FROM " + leases() + " l WHERE l.session_id = d.session_id "
        + "AND l.owner IS NOT NULL AND l.expires_at_ms >= ?) "
        + "ORDER BY d.due_at_ms, d.session_id LIMIT ? FOR UPDATE OF d SKIP LOCKED";
  }

  /**
   * Locks a lease row for a claim, or passes over it when another transaction holds it (a
   * persist, an acquisition), so a claim never waits while it holds due rows.
   *
   * @return SQL with parameter id; columns as {@link #lockLease}
   */
  public String lockLeaseOrSkip() {
    return "SELECT owner, epoch, acquired_at_ms, expires_at_ms FROM " + leases() + " WHERE session_id = ? FOR UPDATE SKIP LOCKED";
  }
}

package dev.horae.store.internal;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The PostgreSQL schema and statements of the JDBC session store, with a table-name prefix. Three
 * tables: {@code <prefix>session} (id, header, committed length), {@code <prefix>event} (one row
 * per event; the event's JSON form kept verbatim in a {@code json} column, so member order and
 * number spelling survive) and {@code <prefix>lease} (one row per session ever leased: owner, epoch
 * and times in milliseconds of the nodes' clocks; no foreign key, because a new session is leased
 * before its first persist creates its row).
 *
 * @param prefix the table-name prefix
 */
public record SessionTables(String prefix) {

  private static final Pattern PREFIX = Pattern.compile("[a-z_][a-z0-9_]{0,30}");

  /** Serialises concurrent {@code migrate()} calls of several nodes (an arbitrary constant key). */
  public static final long MIGRATION_LOCK = 0x686f726165L;

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
   * The lease table's name.
   *
   * @return the name
   */
  public String leases() {
    return prefix + "lease";
  }

  /**
   * The idempotent DDL.
   *
   * @return the statements, in order
   */
  public List<String> ddl() {
    return List.of(
        "CREATE TABLE IF NOT EXISTS " + sessions() + " ("
            + "session_id text PRIMARY KEY, "
            + "header json NOT NULL, "
            + "length bigint NOT NULL CHECK (length >= 0))",
        "CREATE TABLE IF NOT EXISTS " + events() + " ("
            + "session_id text NOT NULL REFERENCES " + sessions() + " (session_id), "
            + "seq bigint NOT NULL CHECK (seq >= 0), "
            + "type text NOT NULL, "
            + "event json NOT NULL, "
            + "PRIMARY KEY (session_id, seq))",
        "CREATE TABLE IF NOT EXISTS " + leases() + " ("
            + "session_id text PRIMARY KEY, "
            + "owner text, "
            + "epoch bigint NOT NULL CHECK (epoch >= 0), "
            + "acquired_at_ms bigint, "
            + "expires_at_ms bigint, "
            + "CHECK ((owner IS NULL) = (expires_at_ms IS NULL) AND (owner IS NULL) = (acquired_at_ms IS NULL)))");
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
    return "SELECT header::text, length FROM " + sessions() + " WHERE session_id = ? FOR UPDATE";
  }

  /**
   * Reads the session row.
   *
   * @return SQL with parameter id
   */
  public String readSession() {
    return "SELECT header::text, length FROM " + sessions() + " WHERE session_id = ?";
  }

  /**
   * Advances the committed length.
   *
   * @return SQL with parameters length, id
   */
  public String updateLength() {
    return "UPDATE " + sessions() + " SET length = ? WHERE session_id = ?";
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
   * Reads the committed events in order.
   *
   * @return SQL with parameters id, length
   */
  public String readEvents() {
    return "SELECT seq, event::text FROM " + events() + " WHERE session_id = ? AND seq < ? ORDER BY seq";
  }

  /**
   * Lists the session ids.
   *
   * @return SQL without parameters
   */
  public String listSessions() {
    return "SELECT session_id FROM " + sessions();
  }
}

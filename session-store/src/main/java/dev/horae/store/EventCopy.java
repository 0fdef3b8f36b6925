package dev.horae.store;

import dev.horae.store.internal.SessionTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

/**
 * Reads a session's event rows and segments with {@code COPY … TO STDOUT (FORMAT binary)} and hands
 * each one's text, as the bytes PostgreSQL sent, to {@link EventRows}.
 *
 * <p>Why COPY: a million rows through a cursor ({@code SELECT}, 1,000 a fetch) took PostgreSQL and
 * the driver about 1.5–2 s on this project's machine, the same rows as a binary COPY about 0.7 s
 * (docs/performance.md, "The event rows as one binary COPY", issue 19): no per-row result message and no
 * text conversion of the {@code seq}, and the event text is not turned into a {@code String} and
 * back into UTF-8 before the streaming decoder reads it.
 *
 * <p>The binary format (PostgreSQL's documentation of {@code COPY}, "Binary Format"): an 11-byte
 * signature, a 32-bit flags field and a 32-bit header extension length (with the extension), then
 * per row a 16-bit field count and each field as a 32-bit length and its bytes, and a count of -1
 * as the trailer; all integers big-endian. The protocol sends each row in a CopyData message of
 * its own (its documentation of COPY operations: "always one per row"; the header comes with the
 * first), so a row is decoded from its message in place.
 *
 * <p>This class is the store's only use of the PostgreSQL driver's own API; the driver is an
 * optional dependency of the module, loaded only when a JDBC store loads a session.
 */
final class EventCopy {

  private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0};

  private EventCopy() {}

  /** Where a COPY's rows go: {@link EventRows#add} or {@link EventRows#addSegment}. */
  @FunctionalInterface
  interface Sink {
    /**
     * Takes one row.
     *
     * @param seq the row's seq (a segment's first)
     * @param bytes holds the row's text, UTF-8
     * @param offset where the text starts
     * @param length its length in bytes
     */
    void add(long seq, byte[] bytes, int offset, int length);
  }

  /**
   * Reads the first {@code length} events of session {@code id} in seq order into {@code rows}, in
   * the connection's transaction: the rows before {@code sealFrom}, the segments of {@code
   * [sealFrom, sealed)}, the rows from {@code sealed} on, each part a COPY of its own.
   *
   * @param c a connection to PostgreSQL inside a transaction, which unwraps to the driver's
   *     {@link PGConnection}
   * @param tables the store's tables
   * @param id the session
   * @param sealFrom the session row's {@code seal_from}
   * @param sealed the session row's {@code sealed}
   * @param length how many events the session row says the log has
   * @param rows where each row and segment goes
   * @throws SQLException when the database fails or the connection is not the PostgreSQL driver's
   * @throws SessionStoreException when a row is corrupt (from {@code rows}) or the COPY data is not
   *     the binary format of two columns
   */
  static void read(Connection c, SessionTables tables, String id, long sealFrom, long sealed, long length, EventRows rows)
      throws SQLException {
    PGConnection pg;
    try {
      pg = c.unwrap(PGConnection.class);
    } catch (SQLException e) {
      throw new SQLException(
          "the JDBC store reads a session's log with COPY and needs connections that unwrap to"
              + " org.postgresql.PGConnection: " + e.getMessage(), e);
    }
    // COPY takes no parameters: the id reaches it as a setting of this transaction, never as text
    // inside the statement
    try (PreparedStatement set = c.prepareStatement(tables.setCopySession())) {
      set.setString(1, id);
      set.execute();
    }
    if (sealFrom > 0) {
      copy(pg, tables.copyEvents(0, sealFrom), id, rows::add);
    }
    if (sealed > sealFrom) {
      copy(pg, tables.copySegments(sealFrom, sealed), id, rows::addSegment);
    }
    if (length > sealed) {
      copy(pg, tables.copyEvents(sealed, length), id, rows::add);
    }
  }

  private static void copy(PGConnection pg, String sql, String id, Sink rows) throws SQLException {
    CopyOut copy = pg.getCopyAPI().copyOut(sql);
    rows(id, new Messages() {
      @Override
      public byte @Nullable [] next() throws SQLException {
        return copy.readFromCopy();
      }

      @Override
      public boolean active() {
        return copy.isActive();
      }
    }, rows);
  }

  /** The messages of one COPY out of the database. */
  interface Messages {
    /**
     * The next message.
     *
     * @return its bytes, or null once the COPY has ended
     * @throws SQLException when the database fails
     */
    byte @Nullable [] next() throws SQLException;

    /**
     * Whether the COPY has messages left to read.
     *
     * @return false once {@link #next} answered null
     */
    boolean active();
  }

  /**
   * Hands the rows of a COPY's messages to {@code rows}. After a failure (a corrupt row, a broken
   * format) it reads the COPY to its end before rethrowing, so that the transaction can roll back
   * and the connection goes back to its pool usable. The driver's {@code cancelCopy} is not used:
   * after it the driver reported the cancel at the rollback and then misread the replies of later
   * statements (PgJDBC 42.7.14; docs/persistence.md, "Loading a session").
   *
   * @param id the session, for errors
   * @param messages the COPY's messages
   * @param rows where each row goes
   * @throws SQLException when the database fails
   * @throws SessionStoreException when a row is corrupt or the data is not the binary format of a
   *     seq and an event a row
   */
  static void rows(String id, Messages messages, Sink rows) throws SQLException {
    try {
      readRows(id, messages, rows);
    } catch (RuntimeException | SQLException e) {
      drain(messages, e);
      throw e;
    }
  }

  private static void readRows(String id, Messages copy, Sink rows) throws SQLException {
    byte[] message = copy.next();
    if (message == null) {
      throw notBinary(id, "no header");
    }
    int at = header(id, message);
    while (at == message.length || row(id, message, at, rows)) {
      // (a header in a message of its own is read past as well)
      message = copy.next();
      if (message == null) {
        throw notBinary(id, "no trailer");
      }
      at = 0;
    }
    if (copy.next() != null) {
      throw notBinary(id, "data after the trailer");
    }
  }

  private static void drain(Messages copy, Exception failure) {
    try {
      while (copy.active() && copy.next() != null) {
        // the rest of the rows, unread
      }
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  /** Checks the file header at the start of the first message; answers where its first row starts. */
  static int header(String id, byte[] message) {
    if (message.length < SIGNATURE.length + 8) {
      throw notBinary(id, "a short header");
    }
    for (int i = 0; i < SIGNATURE.length; i++) {
      if (message[i] != SIGNATURE[i]) {
        throw notBinary(id, "no binary signature");
      }
    }
    int extension = int32(message, SIGNATURE.length + 4);
    long start = SIGNATURE.length + 8L + extension;
    if (extension < 0 || start > message.length) {
      throw notBinary(id, "a header extension of " + extension + " bytes");
    }
    return (int) start;
  }

  /**
   * One row's message from {@code at}: a (seq, event) row goes to {@code rows}; the trailer answers
   * false.
   */
  static boolean row(String id, byte[] message, int at, Sink rows) {
    if (message.length - at < 2) {
      throw notBinary(id, "a message without a field count");
    }
    int fields = (short) (((message[at] & 0xFF) << 8) | (message[at + 1] & 0xFF));
    if (fields == -1) {
      if (message.length != at + 2) {
        throw notBinary(id, "bytes after the trailer");
      }
      return false;
    }
    // field count, seq's length and 8 bytes, the event's length
    if (fields != 2 || message.length - at < 2 + 4 + 8 + 4 || int32(message, at + 2) != 8) {
      throw notBinary(id, "a row that is not a seq and an event");
    }
    long seq = int64(message, at + 6);
    int length = int32(message, at + 14);
    int start = at + 18;
    if (length < 0 || length != message.length - start) {
      throw notBinary(id, "an event of " + length + " bytes in a row message of " + (message.length - at));
    }
    rows.add(seq, message, start, length);
    return true;
  }

  private static SessionStoreException notBinary(String id, String what) {
    return new SessionStoreException("session " + id + ": the COPY of its events sent " + what
        + ", not PostgreSQL's binary format of a seq and an event a row");
  }

  private static int int32(byte[] b, int at) {
    return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
  }

  private static long int64(byte[] b, int at) {
    return ((long) int32(b, at) << 32) | (int32(b, at + 4) & 0xFFFF_FFFFL);
  }
}

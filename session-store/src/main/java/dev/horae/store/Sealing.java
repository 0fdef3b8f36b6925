package dev.horae.store;

import dev.horae.store.internal.SessionTables;

/**
 * Where one persist of the JDBC store writes a log's new events, and which rows it seals. Segments
 * cover seqs from the sealed length on, {@link SessionTables#SEGMENT_EVENTS} a row, and end before
 * the log's last event, which always stays a row: a persist compares its log's last event with
 * that row.
 *
 * <p>The new events {@code [stored, length)} are inserted as rows, except {@code [directFrom,
 * directTo)}, which are written as segments; then the rows {@code [sealedFrom, rowsTo)} (stored
 * ones and new ones) are sealed into segments inside the database, and the sealed length becomes
 * {@code sealed}.
 *
 * @param rowsTo where the rows to seal end
 * @param directFrom the first new event written as part of a segment, or the new length
 * @param directTo the event after the last one written as part of a segment, or the new length
 * @param sealed the new sealed length
 */
record Sealing(long rowsTo, long directFrom, long directTo, long sealed) {

  /**
   * Plans a persist that grows a log from {@code stored} to {@code length} events.
   *
   * @param stored the committed length
   * @param sealedFrom the committed sealed length, at most {@code stored}
   * @param length the new length, greater than {@code stored}
   * @return the plan
   */
  static Sealing plan(long stored, long sealedFrom, long length) {
    if (sealedFrom < 0 || sealedFrom > stored || length <= stored) {
      throw new IllegalArgumentException("sealed " + sealedFrom + ", stored " + stored + ", new length " + length);
    }
    long k = SessionTables.SEGMENT_EVENTS;
    long target = sealedFrom + (length - 1 - sealedFrom) / k * k;
    // segments that start before the stored length hold stored rows: the database seals those
    long rowsTo = Math.min(target, sealedFrom + (stored - sealedFrom + k - 1) / k * k);
    return rowsTo < target ? new Sealing(rowsTo, rowsTo, target, target) : new Sealing(rowsTo, length, length, target);
  }
}

package dev.horae.store.internal;

import dev.horae.store.DueEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The in-memory form of a due index (the in-memory store's, and the file store's view of its
 * index files): each session's entry with the log length it was computed at, and the due sessions
 * ordered by due time, then id. An entry only moves forward: an update computed at a shorter log
 * than the one recorded is a late persist overtaken by a newer one and is ignored. Thread-safe.
 */
public final class DueTable {

  private static final Comparator<DueEntry> ORDER =
      Comparator.comparingLong(DueEntry::dueAtMs).thenComparing(DueEntry::sessionId);

  /**
   * One session's entry.
   *
   * @param length the log length it was computed at
   * @param due the due time, or empty when nothing is due
   */
  public record Row(long length, OptionalLong due) {}

  private final Map<String, Row> rows = new HashMap<>();
  private final TreeSet<DueEntry> ordered = new TreeSet<>(ORDER);

  /** An empty table. */
  public DueTable() {}

  /**
   * Records an entry unless one computed at a longer log is recorded already.
   *
   * @param sessionId the session
   * @param length the log length the entry was computed at
   * @param due the due time
   * @return whether the entry was recorded
   */
  public synchronized boolean update(String sessionId, long length, OptionalLong due) {
    Row old = rows.get(sessionId);
    if (old != null && old.length() > length) {
      return false;
    }
    replace(sessionId, new Row(length, due));
    return true;
  }

  /**
   * Records an entry whatever is recorded (a log replaced wholesale).
   *
   * @param sessionId the session
   * @param length the log length the entry was computed at
   * @param due the due time
   */
  public synchronized void replace(String sessionId, long length, OptionalLong due) {
    replace(sessionId, new Row(length, due));
  }

  private void replace(String sessionId, Row row) {
    Row old = rows.put(sessionId, row);
    if (old != null && old.due().isPresent()) {
      ordered.remove(new DueEntry(sessionId, old.due().getAsLong()));
    }
    if (row.due().isPresent()) {
      ordered.add(new DueEntry(sessionId, row.due().getAsLong()));
    }
  }

  /**
   * A session's entry.
   *
   * @param sessionId the session
   * @return the row, or null when the session has none
   */
  public synchronized @org.jspecify.annotations.Nullable Row row(String sessionId) {
    return rows.get(sessionId);
  }

  /**
   * A session's due time.
   *
   * @param sessionId the session
   * @return the due time, or empty
   */
  public synchronized OptionalLong dueAt(String sessionId) {
    Row row = rows.get(sessionId);
    return row == null ? OptionalLong.empty() : row.due();
  }

  /**
   * The sessions due at {@code nowMs} or earlier, earliest first.
   *
   * @param nowMs the time
   * @param limit at most this many
   * @return the entries
   */
  public synchronized List<DueEntry> dueBy(long nowMs, int limit) {
    List<DueEntry> out = new ArrayList<>();
    for (DueEntry e : ordered) {
      if (out.size() >= limit || e.dueAtMs() > nowMs) {
        break;
      }
      out.add(e);
    }
    return out;
  }

  /**
   * The earliest due time.
   *
   * @return it, or empty when no session is due
   */
  public synchronized OptionalLong earliest() {
    return ordered.isEmpty() ? OptionalLong.empty() : OptionalLong.of(ordered.first().dueAtMs());
  }
}

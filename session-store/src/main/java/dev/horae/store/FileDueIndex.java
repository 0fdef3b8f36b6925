package dev.horae.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.internal.DueTable;
import dev.horae.store.internal.DueTrackers;
import dev.horae.store.internal.FolderNames;
import dev.horae.store.internal.SessionFolder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file store's due index: a derived file {@code due.json} in each session folder, {@code
 * {"bytes":<events.log length>,"length":<events>,"dueAtMs":<ms or null>}}, and an in-memory table
 * of every session's entry, built from those files when the index is first read and moved by every
 * persist after its fsync, before the persist returns. The file is written by the persist that moves
 * the due time (and by a session's first persist in this store), and brought up to the log's length
 * when the session is released or the store closes; a persist that leaves the due time where it was
 * writes no file (an extra temporary file and rename per flush would cost more than the flush).
 *
 * <p>The event file stays the truth. An entry is fresh only while its {@code bytes} equal the event
 * file's length, which a stat answers without reading the log; any other entry (missing, torn,
 * older than the log because the process died between a flush's fsync and its entry's write, or
 * written by a store opened without an indexer) is recomputed from the log by {@link #rebuild}. So
 * the entry file needs no fsync: losing it loses nothing.
 */
final class FileDueIndex implements DueIndex {

  private static final Logger LOG = LoggerFactory.getLogger(FileDueIndex.class);

  /** The entry file's name inside a session folder. */
  static final String FILE_NAME = "due.json";

  private final FileSessionStore store;
  private final DueTrackers trackers;
  private final DueTable table = new DueTable();
  /** What the entry file of each open session says, and the event file length of its last persist. */
  private final Map<String, Filed> filed = new ConcurrentHashMap<>();

  /**
   * An open session's entry file and log as this store last saw them.
   *
   * @param fileBytes the {@code bytes} the entry file carries
   * @param fileDue the due time the entry file carries
   * @param bytes the event file's length after the session's last persist
   * @param length the log length after it
   * @param due the due time after it
   */
  private record Filed(long fileBytes, OptionalLong fileDue, long bytes, long length, OptionalLong due) {}
  private final Object loading = new Object();
  private volatile boolean loaded;

  FileDueIndex(FileSessionStore store, DueIndexer indexer) {
    this.store = store;
    this.trackers = new DueTrackers(indexer, DueTrackers.DEFAULT_CAPACITY);
  }

  /** What a persist of an open folder runs once its log is durable, under the folder's lock. */
  void durable(SessionHeader header, List<SessionEvent> log, long bytes) {
    DueTrackers.Advance a = trackers.advance(header, log);
    trackers.commit(a);
    String id = header.id();
    var unused = table.update(id, a.length(), a.due());
    Filed before = filed.get(id);
    if (before == null || !before.fileDue().equals(a.due())) {
      write(dir(id), id, bytes, a.length(), a.due());
      filed.put(id, new Filed(bytes, a.due(), bytes, a.length(), a.due()));
    } else {
      filed.put(id, new Filed(before.fileBytes(), before.fileDue(), bytes, a.length(), a.due()));
    }
  }

  /**
   * The session's folder is being closed here: its entry file is brought up to its last persist, so
   * the next open finds it fresh; its tracker goes, its table entry stays.
   */
  void released(String sessionId) {
    trackers.forget(sessionId);
    Filed f = filed.remove(sessionId);
    if (f != null && f.fileBytes() != f.bytes()) {
      write(dir(sessionId), sessionId, f.bytes(), f.length(), f.due());
    }
  }

  private Path dir(String sessionId) {
    return store.root().resolve(FolderNames.encode(sessionId));
  }

  @Override
  public List<DueEntry> dueBy(long nowMs, int limit) {
    ensureLoaded();
    return table.dueBy(nowMs, limit);
  }

  @Override
  public OptionalLong dueAt(String sessionId) {
    ensureLoaded();
    return table.dueAt(sessionId);
  }

  @Override
  public OptionalLong earliest() {
    ensureLoaded();
    return table.earliest();
  }

  private void ensureLoaded() {
    if (!loaded) {
      synchronized (loading) {
        if (!loaded) {
          var unused = rebuild();
        }
      }
    }
  }

  /**
   * Reads every session folder's entry file and recomputes, from the event file, each one that is
   * not fresh. A session another process holds is read without its lock ({@link
   * FileSessionStore#peek}); its recomputed entry is written all the same, and a later rebuild
   * finds it stale again if the holder wrote more meanwhile.
   */
  @Override
  public int rebuild() {
    int rebuilt = 0;
    for (String id : store.ids()) {
      Path dir = store.root().resolve(FolderNames.encode(id));
      long bytes;
      try {
        bytes = eventBytes(dir);
      } catch (IOException e) {
        throw new SessionStoreException("cannot stat " + dir.resolve(SessionFolder.EVENTS_FILE) + ": " + e.getMessage(), e);
      }
      Optional<DueTable.Row> fresh = read(dir, bytes);
      if (fresh.isPresent()) {
        var unused = table.update(id, fresh.get().length(), fresh.get().due());
        continue;
      }
      Optional<StoredSession> session;
      try {
        session = FileSessionStore.peek(store.root(), id);
      } catch (RuntimeException e) {
        // a corrupt log cannot come due: opening it fails loudly wherever it is opened
        LOG.warn("cannot index session {}: {}", id, e.getMessage());
        continue;
      }
      if (session.isEmpty()) {
        continue;
      }
      StoredSession s = session.get();
      // a fresh tracker, not cached: an unlocked read may include lines the holder never acknowledged
      DueTrackers once = trackers.detached();
      DueTrackers.Advance a = once.advance(s.header(), s.events());
      var unused = table.update(id, a.length(), a.due());
      if (bytesOf(dir) == bytes) {
        write(dir, id, bytes, a.length(), a.due());
      }
      rebuilt++;
    }
    loaded = true;
    return rebuilt;
  }

  private static long bytesOf(Path dir) {
    try {
      return eventBytes(dir);
    } catch (IOException e) {
      return -1;
    }
  }

  private static long eventBytes(Path dir) throws IOException {
    try {
      return Files.size(dir.resolve(SessionFolder.EVENTS_FILE));
    } catch (NoSuchFileException e) {
      return 0;
    }
  }

  /** The folder's entry, if it is fresh for an event file of {@code bytes}. */
  private static Optional<DueTable.Row> read(Path dir, long bytes) {
    Path file = dir.resolve(FILE_NAME);
    JsonNode json;
    try {
      json = Json.parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      // torn or foreign: recomputed from the log
      return Optional.empty();
    }
    JsonNode b = json.get("bytes");
    JsonNode length = json.get("length");
    JsonNode due = json.get("dueAtMs");
    if (b == null || !b.canConvertToLong() || b.asLong() != bytes || length == null || !length.canConvertToLong()
        || due == null || !(due.isNull() || due.canConvertToLong())) {
      return Optional.empty();
    }
    return Optional.of(new DueTable.Row(length.asLong(), due.isNull() ? OptionalLong.empty() : OptionalLong.of(due.asLong())));
  }

  /** Writes an entry file: a temporary file renamed over the old one, no fsync (it is derived). */
  private static void write(Path dir, String id, long bytes, long length, OptionalLong due) {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("bytes", bytes);
    json.put("length", length);
    if (due.isPresent()) {
      json.put("dueAtMs", due.getAsLong());
    } else {
      json.putNull("dueAtMs");
    }
    Path tmp = null;
    try {
      tmp = Files.createTempFile(dir, "due", ".tmp");
      Files.writeString(tmp, Json.write(json), StandardCharsets.UTF_8);
      Files.move(tmp, dir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      // the log is durable; a missing or old entry is recomputed at the next rebuild
      LOG.warn("cannot write the due index entry of session {} in {}: {}", id, dir, e.getMessage());
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // a stray temporary file is harmless
        }
      }
    }
  }
}

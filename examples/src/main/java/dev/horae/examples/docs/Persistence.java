package dev.horae.examples.docs;

import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.CommitLogCorruptException;
import dev.horae.store.CommitLogLockedException;
import dev.horae.store.FileSessionStore;
import dev.horae.store.LogSessions;
import dev.horae.store.SyncMode;
import dev.horae.spi.time.SystemTime;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The file store snippets of {@code docs/persistence.md}. */
public final class Persistence {

  private Persistence() {}

  /**
   * Opens a file store and describes every session in it, reporting a corrupt or locked session
   * instead of failing the whole listing.
   *
   * @param root the store folder, e.g. {@code ./horae-data}
   * @return one line per session
   */
  public static List<String> describe(Path root) {
    List<String> lines = new ArrayList<>();
    // snippet:file-store-load
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.ALWAYS)) {
      for (String id : store.ids()) {
        try {
          Optional<StoredSession> s = store.load(id);   // opens, locks and repairs a torn tail
          s.ifPresent(stored -> lines.add(id + ": " + stored.events().size() + " events, seedLength "
              + stored.header().seedLength()));
        } catch (CommitLogCorruptException e) {
          lines.add(id + ": corrupt at line " + e.line() + ", seq " + e.seq() + " in " + e.file());
        } catch (CommitLogLockedException e) {
          lines.add(id + ": " + e.getMessage());
        }
      }
    }
    // end-snippet
    return lines;
  }

  /**
   * Resumes every stored session of a store into a sessions service that persists through it.
   *
   * @param store any session store: the file store, the JDBC store or your own
   * @return the sessions service, with every stored session live again
   */
  public static LogSessions resumeAll(SessionStore store) {
    // snippet:plug-store
    LogSessions sessions = LogSessions.over(store, SystemTime.wallClock(), (message, cause) -> { });
    for (String id : store.ids()) {
      sessions.resume(id);            // header and events as last made durable
    }
    // end-snippet
    return sessions;
  }

  /**
   * Describes a data folder.
   *
   * @param args the folder, {@code horae-data} by default
   */
  public static void main(String[] args) {
    describe(Path.of(args.length > 0 ? args[0] : "horae-data")).forEach(System.out::println);
    resumeAll(new MapSessionStore());
  }
}

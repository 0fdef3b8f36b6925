package dev.horae.store.internal;

import dev.horae.spi.session.EventCodec;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.CommitLogCorruptException;
import dev.horae.store.CommitLogLockedException;
import dev.horae.store.SessionStoreException;
import dev.horae.store.internal.frame.LineFrame;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open session folder: {@code header.json}, the append-only {@code events.log} and the held
 * {@code gate.lock}.
 *
 * <p>A persist writes everything beyond what is already written as one framed line, then waits
 * until an fsync started after its write has completed ({@link GroupCommit}: persists that write
 * while an fsync runs share the next one). A failed write is cut off again; a failed fsync leaves the
 * page cache in an unknown state, so the folder refuses every later persist until it is reopened.
 */
public final class SessionFolder implements AutoCloseable {

  /** The event file's name inside a session folder. */
  public static final String EVENTS_FILE = "events.log";

  /** The name of the lock file, held with an exclusive OS lock while the folder is open. */
  public static final String LOCK_FILE = FolderLock.FILE_NAME;

  private static final Logger LOG = LoggerFactory.getLogger(SessionFolder.class);

  private final String id;
  private final Path dir;
  private final Path eventsFile;
  private final Forcer forcer;
  private final FolderLock lock;
  private final EventFile file;

  private final ReentrantLock mutex = new ReentrantLock();
  private final GroupCommit commit;

  // all guarded by mutex
  private Optional<SessionHeader> header;
  private long written;
  private long end;
  private @Nullable SessionEvent lastWritten;
  private @Nullable List<SessionEvent> openedEvents;
  private @Nullable Exception failure;
  private boolean closed;

  private SessionFolder(
      String id, Path dir, Forcer forcer, FolderLock lock, EventFile file, Optional<SessionHeader> header,
      List<SessionEvent> events, long end) {
    this.id = id;
    this.dir = dir;
    this.eventsFile = dir.resolve(EVENTS_FILE);
    this.forcer = forcer;
    this.lock = lock;
    this.file = file;
    this.header = header;
    this.written = events.size();
    this.commit = new GroupCommit(mutex, events.size());
    this.end = end;
    this.lastWritten = events.isEmpty() ? null : events.get(events.size() - 1);
    this.openedEvents = events;
  }

  /**
   * Opens a session folder, creating it when asked: takes its lock, reads its header, replays its
   * event file and cuts off a torn last line (with a warning) before anything else is written.
   *
   * @param root the store root
   * @param id the session id
   * @param forcer the fsync seam
   * @return the open folder
   * @throws CommitLogLockedException when another process holds the session
   * @throws CommitLogCorruptException when the event file is corrupt before its last line
   * @throws SessionStoreException when files cannot be read, written or locked
   */
  public static SessionFolder open(Path root, String id, Forcer forcer) {
    Path dir = root.resolve(FolderNames.encode(id));
    try {
      if (!Files.isDirectory(dir)) {
        Files.createDirectories(dir);
        Directories.force(root, forcer);
      }
    } catch (IOException e) {
      throw new SessionStoreException("cannot create session folder " + dir + ": " + e.getMessage(), e);
    }
    FolderLock lock = FolderLock.acquire(dir);
    EventFile file = null;
    boolean wasInterrupted = Thread.interrupted();
    try {
      Optional<SessionHeader> header = HeaderFile.read(dir);
      Path eventsFile = dir.resolve(EVENTS_FILE);
      file = EventFile.open(eventsFile, forcer);
      SessionFolder folder;
      if (header.isEmpty()) {
        discardUncommittedCreation(id, file);
        Directories.force(dir, forcer);
        folder = new SessionFolder(id, dir, forcer, lock, file, header, List.of(), 0);
      } else {
        checkHeader(id, dir, header.get());
        LogScanner.Scan scan = LogScanner.scan(eventsFile);
        if (scan.torn().isPresent()) {
          LogScanner.Torn torn = scan.torn().get();
          LOG.warn(
              "Dropping the torn last line {} of {} ({} bytes: {}); it held a flush that was never acknowledged",
              torn.line(), eventsFile, torn.bytes(), torn.why());
          file.truncate(scan.goodBytes());
        }
        // lines a killed writer wrote but never forced are in the page cache only; what load
        // returns must be durable, so force once before anyone reads them
        file.force();
        if (header.get().seedLength() > scan.events().size()) {
          throw new SessionStoreException(
              "session " + id + " has seedLength " + header.get().seedLength() + " but its log " + eventsFile
                  + " holds only " + scan.events().size() + " events");
        }
        folder = new SessionFolder(id, dir, forcer, lock, file, header, scan.events(), scan.goodBytes());
      }
      return folder;
    } catch (IOException e) {
      closeAfterFailedOpen(lock, file);
      throw new SessionStoreException("cannot open session folder " + dir + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      closeAfterFailedOpen(lock, file);
      throw e;
    } finally {
      restoreInterrupt(wasInterrupted);
    }
  }

  /**
   * Reads a session folder without opening it: no lock is taken and nothing is repaired or
   * written, so it may run while another process holds the session. A torn last line is left out
   * (the holder cuts it on its next open); lines a live writer has written but not yet forced are
   * included.
   *
   * @param root the store root
   * @param id the session id
   * @return header and events, or empty when the folder holds no committed session
   * @throws CommitLogCorruptException when the event file is corrupt before its last line
   * @throws SessionStoreException when the files cannot be read or the header names another session
   */
  public static Optional<StoredSession> peek(Path root, String id) {
    Path dir = root.resolve(FolderNames.encode(id));
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    Optional<SessionHeader> header = HeaderFile.read(dir);
    if (header.isEmpty()) {
      return Optional.empty();
    }
    checkHeader(id, dir, header.get());
    Path eventsFile = dir.resolve(EVENTS_FILE);
    if (!Files.exists(eventsFile)) {
      return Optional.of(new StoredSession(header.get(), List.of()));
    }
    try {
      return Optional.of(new StoredSession(header.get(), LogScanner.scan(eventsFile).events()));
    } catch (IOException e) {
      throw new SessionStoreException("cannot read " + eventsFile + ": " + e.getMessage(), e);
    }
  }

  private static void discardUncommittedCreation(String id, EventFile file) throws IOException {
    long size = file.size();
    if (size > 0) {
      LOG.warn(
          "Discarding {} bytes of {}: session {} has no header, so its first flush was never acknowledged",
          size, file.path(), id);
      file.truncate(0);
      file.force();
    }
  }

  private static void checkHeader(String id, Path dir, SessionHeader header) {
    if (!header.id().equals(id)) {
      throw new SessionStoreException(
          "session header " + dir.resolve(HeaderFile.FILE_NAME) + " names session " + header.id() + ", not " + id);
    }
  }

  private static void closeAfterFailedOpen(FolderLock lock, @Nullable EventFile file) {
    try {
      if (file != null) {
        file.close();
      }
    } catch (IOException e) {
      // nothing acknowledged depends on this file yet
    } finally {
      lock.close();
    }
  }

  /**
   * The session as last made durable.
   *
   * @return header and events, or empty when the session's creation was never committed
   * @throws CommitLogCorruptException when the event file became corrupt since it was opened
   * @throws SessionStoreException when the file cannot be read or the folder is closed
   */
  public Optional<StoredSession> load() {
    boolean wasInterrupted = Thread.interrupted();
    mutex.lock();
    try {
      ensureOpen();
      if (header.isEmpty()) {
        return Optional.empty();
      }
      List<SessionEvent> events = openedEvents;
      // the replay of the open serves one load; the host keeps its own copy after that
      openedEvents = null;
      if (events == null) {
        try {
          events = LogScanner.scan(eventsFile).events();
        } catch (IOException e) {
          throw new SessionStoreException("cannot read " + eventsFile + ": " + e.getMessage(), e);
        }
      }
      // lines written but not yet forced belong to persists that have not completed
      return Optional.of(new StoredSession(header.get(), events.subList(0, (int) Math.min(commit.durable(), events.size()))));
    } finally {
      mutex.unlock();
      restoreInterrupt(wasInterrupted);
    }
  }

  /**
   * Makes the log durable: writes the part beyond what is stored as one line and waits for an fsync
   * that covers it.
   *
   * @param newHeader the session's header; must equal the stored one once stored
   * @param log the whole raw log, contiguous from seq 0
   * @throws IllegalArgumentException when the log or header do not continue what is stored
   * @throws SessionStoreException when writing or forcing fails, or the folder is closed
   */
  public void persist(SessionHeader newHeader, List<SessionEvent> log) {
    persist(newHeader, log, null);
  }

  /**
   * Told, under the folder's lock, that a log is durable and is the whole of what the event file
   * holds: the moment a derived file (the due index entry) can be written for exactly that log.
   */
  @FunctionalInterface
  public interface AfterDurable {

    /**
     * The log is durable and the event file holds exactly it.
     *
     * @param header the session's header
     * @param log the whole log
     * @param bytes the event file's length in bytes after that log
     */
    void durable(SessionHeader header, List<SessionEvent> log, long bytes);
  }

  /**
   * {@link #persist(SessionHeader, List)}, then {@code after} under the folder's lock when the
   * event file holds exactly this log (not when a later persist already wrote more: that one
   * reports its own longer log).
   *
   * @param newHeader the session's header
   * @param log the whole raw log
   * @param after told once the log is durable, or null
   */
  public void persist(SessionHeader newHeader, List<SessionEvent> log, @Nullable AfterDurable after) {
    boolean wasInterrupted = Thread.interrupted();
    mutex.lock();
    try {
      ensureOpen();
      if (header.isEmpty()) {
        checkContiguous(log, 0);
        create(newHeader, log);
        tell(after, newHeader, log);
        return;
      }
      // the stored prefix was checked when it was written; only the new part can break the seqs
      checkContiguous(log, written);
      checkContinues(newHeader, log);
      if (log.size() > written) {
        writeLine(log.subList((int) written, log.size()));
      }
      awaitDurable(log.size());
      tell(after, newHeader, log);
    } finally {
      mutex.unlock();
      restoreInterrupt(wasInterrupted);
    }
  }

  /** Caller holds the mutex. */
  private void tell(@Nullable AfterDurable after, SessionHeader h, List<SessionEvent> log) {
    if (after != null && log.size() == written && commit.durable() >= written) {
      after.durable(h, log, end);
    }
  }

  /**
   * The folder's directory.
   *
   * @return the path
   */
  public Path dir() {
    return dir;
  }

  /**
   * A pending interrupt would make the file channel close itself on the next write or force; it is
   * set aside for the duration of a store operation and restored afterwards, so interrupting a
   * flushing thread never takes the session down for everyone else.
   */
  private static void restoreInterrupt(boolean wasInterrupted) {
    if (wasInterrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** The first persist: events durable first, then the header, whose rename commits the creation. */
  private void create(SessionHeader newHeader, List<SessionEvent> log) {
    if (!newHeader.id().equals(id)) {
      throw new IllegalArgumentException("header names session " + newHeader.id() + ", not " + id);
    }
    Json.checkReadable(newHeader.toJson(), 0);
    if (newHeader.seedLength() > log.size()) {
      throw new IllegalArgumentException(
          "log of session " + id + " holds " + log.size() + " events, fewer than its seedLength "
              + newHeader.seedLength() + " (a fork's log must include its seed)");
    }
    if (!log.isEmpty()) {
      writeLine(log);
    }
    try {
      file.force();
      HeaderFile.write(dir, newHeader, forcer);
    } catch (IOException e) {
      rollBack(0, 0, Optional.empty(), e);
      throw new SessionStoreException("cannot create session " + id + " in " + dir + ": " + e.getMessage(), e);
    }
    header = Optional.of(newHeader);
    commit.markDurable(written);
  }

  private void checkContinues(SessionHeader newHeader, List<SessionEvent> log) {
    SessionHeader stored = header.orElseThrow();
    if (!stored.equals(newHeader)) {
      throw new IllegalArgumentException(
          "header of session " + id + " differs from the stored one: " + newHeader.toJson() + " vs " + stored.toJson());
    }
    if (log.size() < written) {
      // a snapshot older than one already written (concurrent flushes may arrive out of order):
      // it is a prefix of what is stored, so it is durable once the fsync covering that is
      return;
    }
    SessionEvent last = lastWritten;
    if (last != null) {
      SessionEvent mine = log.get((int) written - 1);
      // compared in their stored form, so payload node types (int or long) do not matter
      if (!sameStoredForm(mine, last)) {
        throw new IllegalArgumentException(
            "log of session " + id + " does not continue the stored log: seq " + last.seq() + " is stored as "
                + last.type() + "@" + last.time() + " but given as " + mine.type() + "@" + mine.time());
      }
    }
  }

  private static boolean sameStoredForm(SessionEvent a, SessionEvent b) {
    return EventCodec.write(a).equals(EventCodec.write(b));
  }

  private static void checkContiguous(List<SessionEvent> log, long from) {
    for (int i = (int) from; i < log.size(); i++) {
      long seq = log.get(i).seq();
      if (seq != i) {
        throw new IllegalArgumentException(
            "log is not contiguous from seq 0: position " + i + " holds seq " + seq);
      }
    }
  }

  private void writeLine(List<SessionEvent> events) {
    ByteBuffer bytes = ByteBuffer.wrap(LineFrame.encode(events));
    long position;
    try {
      position = file.write(bytes, end);
    } catch (IOException e) {
      rollBack(end, written, Optional.ofNullable(lastWritten), e);
      throw new SessionStoreException("cannot write to " + eventsFile + ": " + e.getMessage(), e);
    }
    end = position;
    written += events.size();
    lastWritten = events.get(events.size() - 1);
    openedEvents = null;
  }

  /** Cuts a partly written line off again; when even that fails, the folder refuses further writes. */
  private void rollBack(long toBytes, long toCount, Optional<SessionEvent> last, IOException cause) {
    try {
      file.truncate(toBytes);
      end = toBytes;
      written = toCount;
      lastWritten = last.orElse(null);
      openedEvents = null;
    } catch (IOException e) {
      cause.addSuppressed(e);
      failure = cause;
    }
  }

  /** Waits for an fsync that covers {@code target} events; a failed fsync poisons the folder. */
  private void awaitDurable(long target) {
    try {
      commit.await(target, () -> written, this::ensureOpen, file::force);
    } catch (IOException e) {
      failure = e;
      throw new SessionStoreException("cannot force " + eventsFile + ": " + e.getMessage(), e);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new SessionStoreException("session " + id + " is closed in this store");
    }
    ensureHealthy();
  }

  private void ensureHealthy() {
    Exception f = failure;
    if (f != null) {
      throw new SessionStoreException(
          "session " + id + " refuses writes after an I/O failure on " + eventsFile + "; reopen the store", f);
    }
  }

  /** Closes the event file and releases the lock. */
  @Override
  public void close() {
    mutex.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      try {
        file.close();
      } catch (IOException e) {
        LOG.warn("Closing {} failed: {}", eventsFile, e.getMessage());
      } finally {
        lock.close();
      }
    } finally {
      mutex.unlock();
    }
  }
}

package dev.horae.store;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.internal.FolderNames;
import dev.horae.store.internal.LeaseRules;
import dev.horae.store.internal.Forcer;
import dev.horae.store.internal.SessionFolder;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The embedded default session store: one folder per session under a root directory, holding
 * {@code header.json}, an append-only {@code events.log} of CRC32C-framed JSON lines and a {@code
 * gate.lock}.
 *
 * <p>Each {@link #persist} writes everything beyond what is already stored as one line
 * {@code <crc32c> <json array of events>} and returns once an fsync covers it; concurrent persists
 * of one session share one fsync. An atomic multi-event append is therefore never split, and a
 * crash loses at most whole unacknowledged flushes: their torn line is dropped with a warning when
 * the session is next opened, while a bad line anywhere else makes the open fail with {@link
 * CommitLogCorruptException}.
 *
 * <p>A session is opened by the first {@link #load} or {@link #persist} that touches it and stays
 * open, holding an exclusive OS lock, until {@link #release} or {@link #close}: a second process
 * (or a second store in this JVM) touching it fails with {@link CommitLogLockedException}. A fork is stored like any
 * session: its log includes the seed events and its header carries {@code parentSession} and
 * {@code seedLength}.
 *
 * <p>The store writes only what it is given; it reads no clock. It is thread-safe.
 *
 * <p>Because the lock already keeps every other process out, {@link #leases} needs no epochs: its
 * leases are {@link SessionLease.Exclusive}, held from acquisition until released, and only tell
 * owners within this process apart.
 */
public final class FileSessionStore implements DueIndexed, AutoCloseable {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FileSessionStore.class);

  private final Path root;
  private final Forcer forcer;
  private final Hooks<Runnable> fsyncHooks = new Hooks<>();
  private final Map<String, SessionFolder> open = new ConcurrentHashMap<>();
  /** Changed under {@link #opening}. */
  private final Map<String, SessionLease.Exclusive> leased = new ConcurrentHashMap<>();
  private final Object opening = new Object();
  private volatile boolean closed;
  private final @Nullable FileDueIndex dueIndex;

  private FileSessionStore(Path root, Forcer forcer, @Nullable DueIndexer indexer) {
    this.root = root;
    this.dueIndex = indexer == null ? null : new FileDueIndex(this, indexer);
    // every fsync of the store goes through this one forcer, so the hooks see each of them once;
    // a store that forces nothing has nothing to report
    this.forcer = forcer == Forcer.NONE ? forcer : channel -> {
      forcer.force(channel);
      for (Runnable hook : fsyncHooks.snapshot()) {
        try {
          hook.run();
        } catch (RuntimeException e) {
          // an observer must never turn a completed fsync into a failed persist
          LOG.warn("an fsync hook of the file session store {} failed", root, e);
        }
      }
    };
  }

  /**
   * Observes every fsync this store completes: of an event file after a write (one per group
   * commit, shared by the persists it covers), of a header file and of a folder when a session is
   * created. Meant for metrics ({@code horae-micrometer} counts them as {@code horae.store.fsyncs});
   * a store opened with {@link SyncMode#NEVER} forces nothing and reports nothing. The hook runs on
   * the persisting thread right after the fsync returned; a hook that throws is ignored.
   *
   * @param hook called once per completed fsync
   * @return a handle that removes it
   */
  public dev.horae.spi.Registration onFsync(Runnable hook) {
    return fsyncHooks.add(java.util.Objects.requireNonNull(hook, "hook"));
  }

  /**
   * Opens (creating if needed) a store that forces every persist to the device.
   *
   * @param root the directory holding one folder per session
   * @return the store
   * @throws SessionStoreException when the directory cannot be created
   */
  public static FileSessionStore open(Path root) {
    return open(root, SyncMode.ALWAYS);
  }

  /**
   * Opens (creating if needed) a store.
   *
   * @param root the directory holding one folder per session
   * @param sync whether persists force written lines to the device
   * @return the store
   * @throws SessionStoreException when the directory cannot be created
   */
  public static FileSessionStore open(Path root, SyncMode sync) {
    return open(root, sync == SyncMode.ALWAYS ? Forcer.DATA : Forcer.NONE, null);
  }

  /**
   * Opens (creating if needed) a store that keeps a {@link DueIndex}: after the fsync of every
   * persist, and before the persist returns, the session's entry is written to {@code due.json} in
   * its folder with the event file's length; the index is read from those files, and entries older
   * than their log recomputed, when it is first used ({@code docs/persistence.md}, "The due index").
   *
   * @param root the directory holding one folder per session
   * @param sync whether persists force written lines to the device
   * @param indexer computes a session's due time from its log
   * @return the store
   * @throws SessionStoreException when the directory cannot be created
   */
  public static FileSessionStore open(Path root, SyncMode sync, DueIndexer indexer) {
    return open(root, sync == SyncMode.ALWAYS ? Forcer.DATA : Forcer.NONE, java.util.Objects.requireNonNull(indexer, "indexer"));
  }

  /** Test seam: every fsync goes through {@code forcer}. */
  static FileSessionStore open(Path root, Forcer forcer) {
    return open(root, forcer, null);
  }

  private static FileSessionStore open(Path root, Forcer forcer, @Nullable DueIndexer indexer) {
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      throw new SessionStoreException("cannot create store root " + root + ": " + e.getMessage(), e);
    }
    return new FileSessionStore(root.toAbsolutePath().normalize(), forcer, indexer);
  }

  /**
   * The store's due index, when it was opened with a {@link DueIndexer}.
   *
   * @return the index, or empty
   */
  @Override
  public Optional<DueIndex> dueIndex() {
    return Optional.ofNullable(dueIndex);
  }

  /**
   * The store's root directory.
   *
   * @return the absolute root
   */
  public Path root() {
    return root;
  }

  /**
   * Makes the session's log durable (host contract §4.2). The stage is already complete when this
   * returns: normally once an fsync covers every event of {@code log}, exceptionally with {@link
   * IllegalArgumentException} when the log is not contiguous from seq 0, does not continue what is
   * stored, comes with a different header, or its id cannot name a folder (longer than 255
   * characters encoded, or holding an unpaired surrogate), with {@link SessionStoreException} when
   * the session is locked elsewhere, corrupt, or an I/O operation fails, and with {@link
   * SessionLeaseException} ({@code not-leased}) when the session is leased in this store (write it
   * through {@link SessionLeases#persist} then). A snapshot shorter than what is stored (an older
   * flush overtaken by a newer one) writes nothing and completes once what it holds is durable.
   *
   * @param header the session's header; stored with the first persist, must not change afterwards
   * @param log the whole raw log, an atomic snapshot
   * @return a completed stage
   */
  @Override
  public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log) {
    SessionLease.Exclusive lease = leased.get(header.id());
    if (lease != null) {
      return CompletableFuture.failedFuture(new SessionLeaseException(SessionLeaseException.Code.NOT_LEASED, header.id(),
          "session " + header.id() + " is leased by owner " + lease.owner()
              + " in this process; a write without its lease is refused and nothing was written"));
    }
    return write(header, log);
  }

  private CompletionStage<Void> write(SessionHeader header, List<SessionEvent> log) {
    try {
      FileDueIndex index = dueIndex;
      folder(header.id(), true).orElseThrow().persist(header, log, index == null ? null : index::durable);
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Loads a session as last made durable, opening (and locking) it.
   *
   * @param id session id
   * @return header and events, or empty when the store has no such session
   * @throws CommitLogCorruptException when its event file is corrupt before the last line
   * @throws CommitLogLockedException when another process holds it
   * @throws SessionStoreException when it cannot be read, or the store is closed
   * @throws IllegalArgumentException when the id cannot name a folder (longer than 255 characters
   *     encoded, or holding an unpaired surrogate), so no session of that id can be stored here
   */
  @Override
  public Optional<StoredSession> load(String id) {
    if (id.isBlank()) {
      // no header can carry a blank id, so no such session was ever stored
      return Optional.empty();
    }
    return folder(id, false).flatMap(SessionFolder::load);
  }

  /**
   * Reads a session of the store under {@code root} as it is on disk, without opening it: no lock,
   * no torn-tail repair, no write. For read-only views (the operator command line) while another
   * process holds the session; a store that writes must use {@link #load}. A torn last line is left
   * out; lines the holder wrote but whose flush has not completed yet may be included.
   *
   * @param root the store's root directory
   * @param id the session id
   * @return header and events, or empty when there is no committed session of that id
   * @throws CommitLogCorruptException when its event file is corrupt before the last line
   * @throws SessionStoreException when it cannot be read
   * @throws IllegalArgumentException when the id cannot name a folder
   */
  public static Optional<StoredSession> peek(Path root, String id) {
    if (id.isBlank()) {
      return Optional.empty();
    }
    return SessionFolder.peek(root.toAbsolutePath().normalize(), id);
  }

  /**
   * Ids of every session whose creation was committed (whose folder holds a header). Lists folder
   * names only; opens and locks nothing.
   *
   * @return the ids
   * @throws SessionStoreException when the root cannot be listed
   */
  @Override
  public Set<String> ids() {
    Set<String> ids = new TreeSet<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, Files::isDirectory)) {
      for (Path dir : dirs) {
        Optional<String> id = FolderNames.decode(dir.getFileName().toString());
        if (id.isPresent() && Files.isRegularFile(dir.resolve("header.json"))) {
          ids.add(id.get());
        }
      }
    } catch (IOException e) {
      throw new SessionStoreException("cannot list store root " + root + ": " + e.getMessage(), e);
    }
    return Set.copyOf(ids);
  }

  /**
   * Whether the session's folder holds its header, as {@link #ids} would list it, without listing
   * the root.
   *
   * @param id the session id
   * @return true when it is stored
   */
  @Override
  public boolean contains(String id) {
    Path dir;
    try {
      dir = root.resolve(FolderNames.encode(id));
    } catch (IllegalArgumentException e) {
      // an id no folder can be named after is never stored
      return false;
    }
    return Files.isDirectory(dir) && Files.isRegularFile(dir.resolve("header.json"));
  }

  private Optional<SessionFolder> folder(String id, boolean create) {
    if (closed) {
      throw new SessionStoreException("file session store " + root + " is closed");
    }
    SessionFolder folder = open.get(id);
    if (folder != null) {
      return Optional.of(folder);
    }
    synchronized (opening) {
      if (closed) {
        throw new SessionStoreException("file session store " + root + " is closed");
      }
      folder = open.get(id);
      if (folder == null) {
        if (!create && !Files.isDirectory(root.resolve(FolderNames.encode(id)))) {
          return Optional.empty();
        }
        folder = SessionFolder.open(root, id, forcer);
        open.put(id, folder);
      }
      return Optional.of(folder);
    }
  }

  /**
   * Closes one session's files and releases its lock (and its lease, if it is leased here), so
   * another process may open it; a later {@code load} or {@code persist} here opens it again.
   * Persists of it in flight fail.
   *
   * @param id session id
   * @return whether the session was open in this store
   */
  public boolean release(String id) {
    synchronized (opening) {
      leased.remove(id);
      SessionFolder folder = open.remove(id);
      if (dueIndex != null) {
        dueIndex.released(id);
      }
      if (folder == null) {
        return false;
      }
      folder.close();
      return true;
    }
  }

  /**
   * Closes every open session and releases its lock. Later calls fail; persists in flight fail.
   */
  @Override
  public void close() {
    synchronized (opening) {
      closed = true;
      for (Map.Entry<String, SessionFolder> e : open.entrySet()) {
        if (dueIndex != null) {
          dueIndex.released(e.getKey());
        }
        e.getValue().close();
      }
      open.clear();
      leased.clear();
    }
  }

  /**
   * Session leases on this store for one owner of this process. The store's exclusive lock per
   * session folder is what keeps other processes out, so the lease is that lock: {@code acquire}
   * opens and locks the session's folder (creating it for a new session) and returns a {@link
   * SessionLease.Exclusive} that holds until released ({@link SessionLeases#release} or {@link
   * #release(String)}) or until the store closes. Nothing expires, so nothing needs renewing, and a
   * lease is never lost to another process. Another owner of this process is refused while the
   * lease is held.
   *
   * @param owner the owner id
   * @return the owner's view of the leases
   * @throws IllegalArgumentException when the owner is blank
   */
  public SessionLeases leases(String owner) {
    return new Leased(LeaseRules.owner(owner));
  }

  private SessionLease.Exclusive exclusive(SessionLease lease, String sessionId) {
    if (!(lease instanceof SessionLease.Exclusive exclusive)) {
      throw new IllegalArgumentException("the file session store leases by its exclusive lock; " + lease
          + " is not an exclusive lease");
    }
    if (!exclusive.sessionId().equals(sessionId)) {
      throw new IllegalArgumentException("lease " + lease + " is for session " + exclusive.sessionId() + ", not " + sessionId);
    }
    return exclusive;
  }

  /** One owner's exclusive leases. */
  private final class Leased implements SessionLeases {
    private final String owner;

    Leased(String owner) {
      this.owner = owner;
    }

    @Override
    public String owner() {
      return owner;
    }

    @Override
    public Optional<Duration> duration() {
      return Optional.empty();
    }

    @Override
    public SessionStore store() {
      return FileSessionStore.this;
    }

    @Override
    public SessionLease acquire(String sessionId) {
      LeaseRules.sessionId(sessionId);
      synchronized (opening) {
        SessionLease.Exclusive held = leased.get(sessionId);
        if (held != null) {
          if (held.owner().equals(owner)) {
            return held;
          }
          throw new SessionLeaseException(SessionLeaseException.Code.LEASE_HELD, sessionId,
              "session " + sessionId + " is leased by owner " + held.owner() + " in this process (" + held.lockFile()
                  + "); owner " + owner + " cannot acquire it");
        }
        try {
          folder(sessionId, true);
        } catch (CommitLogLockedException e) {
          throw new SessionLeaseException(SessionLeaseException.Code.LEASE_HELD, sessionId,
              "session " + sessionId + " is leased by another process: " + e.getMessage(), e);
        }
        SessionLease.Exclusive lease = new SessionLease.Exclusive(
            sessionId, owner, root.resolve(FolderNames.encode(sessionId)).resolve(SessionFolder.LOCK_FILE));
        leased.put(sessionId, lease);
        return lease;
      }
    }

    @Override
    public Optional<SessionLease> renew(SessionLease lease) {
      SessionLease.Exclusive mine = exclusive(lease, lease.sessionId());
      return mine.equals(leased.get(mine.sessionId())) ? Optional.of(mine) : Optional.empty();
    }

    @Override
    public boolean release(SessionLease lease) {
      SessionLease.Exclusive mine = exclusive(lease, lease.sessionId());
      synchronized (opening) {
        if (!mine.equals(leased.get(mine.sessionId()))) {
          return false;
        }
        return FileSessionStore.this.release(mine.sessionId());
      }
    }

    @Override
    public Optional<SessionLease> current(String sessionId) {
      return Optional.ofNullable(leased.get(sessionId));
    }

    @Override
    public Optional<Duration> remaining(SessionLease lease) {
      return Optional.empty();
    }

    @Override
    public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log, SessionLease lease) {
      SessionLease.Exclusive mine;
      try {
        mine = exclusive(lease, header.id());
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
      if (!mine.equals(leased.get(header.id()))) {
        return CompletableFuture.failedFuture(new SessionLeaseException(SessionLeaseException.Code.NOT_LEASED, header.id(),
            "session " + header.id() + " is not leased to owner " + owner + " in this store (released, or the store closed); "
                + "nothing was written"));
      }
      return write(header, log);
    }

    @Override
    public String toString() {
      return "leases of " + owner + " on the file session store " + root;
    }
  }
}

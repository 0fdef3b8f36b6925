package dev.horae.store.internal;

import dev.horae.store.CommitLogLockedException;
import dev.horae.store.SessionStoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The exclusive OS lock on a session folder's {@code gate.lock}, held for as long as the session is
 * open, so two processes never write one session ({@code spec/gate.md} §12.3).
 *
 * <p>OS locks are per process: a second store instance in the same JVM would get an {@link
 * OverlappingFileLockException}, and on POSIX systems merely closing its second channel would drop
 * the first instance's lock. So folders locked by this JVM are also kept in a process-wide set,
 * checked before any second channel is opened.
 */
final class FolderLock implements AutoCloseable {

  /** The lock file's name inside a session folder. */
  static final String FILE_NAME = "gate.lock";

  private static final Set<Path> HELD_BY_THIS_JVM = ConcurrentHashMap.newKeySet();

  private final Path key;
  private final FileChannel channel;
  private final FileLock lock;

  private FolderLock(Path key, FileChannel channel, FileLock lock) {
    this.key = key;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the folder's lock.
   *
   * @param dir an existing session folder
   * @return the held lock
   * @throws CommitLogLockedException when another process or store instance holds it
   * @throws SessionStoreException when the lock file cannot be opened
   */
  static FolderLock acquire(Path dir) {
    Path key;
    try {
      key = dir.toRealPath();
    } catch (IOException e) {
      throw new SessionStoreException("cannot resolve session folder " + dir + ": " + e.getMessage(), e);
    }
    if (!HELD_BY_THIS_JVM.add(key)) {
      throw new CommitLogLockedException(dir);
    }
    FileChannel channel = null;
    boolean locked = false;
    try {
      channel = FileChannel.open(key.resolve(FILE_NAME), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        throw new CommitLogLockedException(dir);
      }
      locked = true;
      return new FolderLock(key, channel, lock);
    } catch (OverlappingFileLockException e) {
      throw new CommitLogLockedException(dir);
    } catch (IOException e) {
      throw new SessionStoreException("cannot lock session folder " + dir + ": " + e.getMessage(), e);
    } finally {
      if (!locked) {
        closeQuietly(channel);
        HELD_BY_THIS_JVM.remove(key);
      }
    }
  }

  /** Releases the lock; the folder may then be opened by another process. */
  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // closing the channel below releases the lock as well
    } finally {
      closeQuietly(channel);
      HELD_BY_THIS_JVM.remove(key);
    }
  }

  private static void closeQuietly(@Nullable FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // nothing was written through this channel, so there is nothing to lose
    }
  }
}

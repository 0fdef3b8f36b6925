package dev.horae.store;

import java.nio.file.Path;

/**
 * Another process (or another store instance in this JVM) holds a session's exclusive lock. The
 * text is {@code commit log <dir> is locked by another process} ({@code spec/gate.md} §12.3).
 */
public final class CommitLogLockedException extends SessionStoreException {

  private final transient Path dir;

  /**
   * Creates the exception.
   *
   * @param dir the session folder whose lock is held
   */
  public CommitLogLockedException(Path dir) {
    super("commit log " + dir + " is locked by another process");
    this.dir = dir;
  }

  /**
   * The locked session folder.
   *
   * @return its path
   */
  public Path dir() {
    return dir;
  }
}

package dev.horae.store;

import java.nio.file.Path;

/**
 * A session's event file is corrupt somewhere other than its last line (a torn last line is
 * repaired, never reported): the store refuses to open it rather than silently drop acknowledged
 * events. The text is {@code commit log corrupt at line <n>: <why>} ({@code spec/gate.md} §12.3);
 * the why names the file and the seq the line had to start with.
 */
public final class CommitLogCorruptException extends SessionStoreException {

  /** Transient: a {@link Path} is not serializable; the message names the file anyway. */
  private final transient Path file;

  /** The 1-based number of the bad line. */
  private final long line;

  /** The seq the bad line had to start with. */
  private final long seq;

  /**
   * Creates the exception.
   *
   * @param file the event file
   * @param line the 1-based line number of the bad line
   * @param seq the seq the bad line's first event had to carry
   * @param why what is wrong with the line
   */
  public CommitLogCorruptException(Path file, long line, long seq, String why) {
    super("commit log corrupt at line " + line + ": " + why + " (file " + file + ", seq " + seq + ")");
    this.file = file;
    this.line = line;
    this.seq = seq;
  }

  /**
   * The corrupt event file.
   *
   * @return its path
   */
  public Path file() {
    return file;
  }

  /**
   * The bad line.
   *
   * @return its 1-based number
   */
  public long line() {
    return line;
  }

  /**
   * The seq the bad line had to start with (the number of good events before it).
   *
   * @return the seq
   */
  public long seq() {
    return seq;
  }
}

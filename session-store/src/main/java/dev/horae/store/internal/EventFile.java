package dev.horae.store.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The open {@code events.log} of a session. A {@link FileChannel} is closed by an interrupt of any
 * thread that uses it, which would otherwise take the session down for every caller; since every
 * operation here is idempotent (writes go to explicit positions), a channel closed by someone else
 * is reopened and the operation repeated once. Only {@link #close} closes it for good.
 */
final class EventFile implements AutoCloseable {

  private final Path path;
  private final Forcer forcer;
  private final Object reopening = new Object();
  private volatile FileChannel channel;
  private volatile boolean closed;

  /** An I/O operation on the channel. */
  @FunctionalInterface
  private interface Op<T> {
    T run(FileChannel channel) throws IOException;
  }

  private EventFile(Path path, Forcer forcer, FileChannel channel) {
    this.path = path;
    this.forcer = forcer;
    this.channel = channel;
  }

  /**
   * Opens (creating if needed) an event file.
   *
   * @param path the file
   * @param forcer the fsync seam
   * @return the open file
   * @throws IOException when it cannot be opened
   */
  static EventFile open(Path path, Forcer forcer) throws IOException {
    return new EventFile(path, forcer, openChannel(path));
  }

  private static FileChannel openChannel(Path path) throws IOException {
    return FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  /**
   * The file's path.
   *
   * @return the path
   */
  Path path() {
    return path;
  }

  /**
   * The file's size.
   *
   * @return bytes
   * @throws IOException when it cannot be read
   */
  long size() throws IOException {
    return run(FileChannel::size);
  }

  /**
   * Writes all bytes at a position.
   *
   * @param bytes the bytes (read from their position to their limit)
   * @param position where the first byte goes
   * @return the position after the last byte
   * @throws IOException when the write fails
   */
  long write(ByteBuffer bytes, long position) throws IOException {
    int start = bytes.position();
    return run(ch -> {
      bytes.position(start);
      long at = position;
      while (bytes.hasRemaining()) {
        at += ch.write(bytes, at);
      }
      return at;
    });
  }

  /**
   * Cuts the file to a length.
   *
   * @param size the new length
   * @throws IOException when truncation fails
   */
  void truncate(long size) throws IOException {
    run(ch -> ch.truncate(size));
  }

  /**
   * Forces written bytes to the device through the fsync seam.
   *
   * @throws IOException when the device reports a failure
   */
  void force() throws IOException {
    run(ch -> {
      forcer.force(ch);
      return ch;
    });
  }

  private <T> T run(Op<T> op) throws IOException {
    FileChannel current = channel;
    try {
      return op.run(current);
    } catch (ClosedChannelException e) {
      if (closed) {
        throw e;
      }
      // an interrupt that closed the channel would close the new one at once: set it aside
      boolean interrupted = Thread.interrupted();
      try {
        return op.run(reopen(current));
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private FileChannel reopen(FileChannel stale) throws IOException {
    synchronized (reopening) {
      if (closed) {
        throw new ClosedChannelException();
      }
      if (channel == stale) {
        channel = openChannel(path);
      }
      return channel;
    }
  }

  /**
   * Closes the file for good.
   *
   * @throws IOException when closing fails
   */
  @Override
  public void close() throws IOException {
    synchronized (reopening) {
      closed = true;
      channel.close();
    }
  }
}

package dev.horae.store.internal;

import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionHeader;
import dev.horae.store.SessionStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * A session folder's {@code header.json}. It is written once, after the first flush's events are
 * durable, through a temporary file, an fsync and an atomic rename: its presence is the commit
 * point of the session's creation, so a folder without it holds only an unacknowledged first flush.
 */
final class HeaderFile {

  /** The header file's name inside a session folder. */
  static final String FILE_NAME = "header.json";

  private static final String TEMP_NAME = "header.json.tmp";

  private HeaderFile() {}

  /**
   * Reads the header, if the session's creation was ever committed.
   *
   * @param dir the session folder
   * @return the header, or empty when there is no header file
   * @throws SessionStoreException when the file is unreadable or not a header
   */
  static Optional<SessionHeader> read(Path dir) {
    Path file = dir.resolve(FILE_NAME);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new SessionStoreException("session header " + file + " cannot be read: " + e.getMessage(), e);
    }
    try {
      return Optional.of(SessionHeader.fromJson(Json.parse(text)));
    } catch (IllegalArgumentException e) {
      throw new SessionStoreException("session header " + file + " is corrupt: " + e.getMessage(), e);
    }
  }

  /**
   * Writes the header durably and atomically.
   *
   * @param dir the session folder
   * @param header the header
   * @param forcer the fsync seam
   * @throws IOException when writing, forcing or renaming fails
   */
  static void write(Path dir, SessionHeader header, Forcer forcer) throws IOException {
    Path temp = dir.resolve(TEMP_NAME);
    ByteBuffer bytes = ByteBuffer.wrap((Json.write(header.toJson()) + "\n").getBytes(StandardCharsets.UTF_8));
    try (FileChannel channel =
        FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      forcer.force(channel);
    }
    Files.move(temp, dir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Directories.force(dir, forcer);
  }
}

package dev.horae.store.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Makes a directory's entries (created files, renames) durable. */
final class Directories {

  private Directories() {}

  /**
   * Forces a directory, where the platform allows it.
   *
   * @param dir the directory
   * @param forcer the fsync seam
   * @throws IOException when the force itself fails
   */
  static void force(Path dir, Forcer forcer) throws IOException {
    FileChannel channel;
    try {
      channel = FileChannel.open(dir, StandardOpenOption.READ);
    } catch (IOException e) {
      // Windows cannot open a directory as a channel; there, NTFS journals the entries itself
      return;
    }
    try (channel) {
      forcer.force(channel);
    }
  }
}

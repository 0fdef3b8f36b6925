package dev.horae.store.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * Makes a channel's written bytes durable. Every fsync of the file store goes through one
 * instance, so tests can count fsyncs and hold one open to observe grouping.
 */
@FunctionalInterface
public interface Forcer {

  /** Forces data (and the metadata needed to read it back, such as the size): {@code force(false)}. */
  Forcer DATA = channel -> channel.force(false);

  /** Forces nothing: writes survive a process crash but not an OS crash. */
  Forcer NONE = channel -> {};

  /**
   * Forces the channel.
   *
   * @param channel an open file or directory channel
   * @throws IOException when the device reports a failure
   */
  void force(FileChannel channel) throws IOException;
}

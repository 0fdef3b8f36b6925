package dev.horae.store;

/** Whether {@link FileSessionStore#persist} forces written lines to the device. */
public enum SyncMode {
  /** Every persist returns only after {@code FileChannel.force}: the default, crash-safe. */
  ALWAYS,
  /**
   * Lines are written but never forced: survives a process crash, not an OS crash or power loss.
   * For tests and throw-away runs.
   */
  NEVER
}

package dev.horae.spi;

/**
 * Handle returned by every {@code register}/{@code on…} call of the host contract. Closing it
 * unregisters what was registered; closing twice is harmless.
 */
@FunctionalInterface
public interface Registration extends AutoCloseable {

  /** Unregisters. Idempotent and never throws a checked exception. */
  @Override
  void close();

  /**
   * Returns a handle that does nothing when closed.
   *
   * @return a no-op registration
   */
  static Registration noop() {
    return () -> {};
  }
}

package dev.horae.spi.plugin;

import java.util.Optional;

/**
 * Where the library reports contained failures (host contract §13). Log text is not part of the
 * contract.
 */
@FunctionalInterface
public interface WarningSink {

  /**
   * Reports a contained failure.
   *
   * @param message what happened
   * @param cause the failure, if any
   */
  void warn(String message, Optional<Throwable> cause);
}

package dev.horae.timecontext;

import dev.horae.spi.HoraeException;

/**
 * The configuration of time-context was rejected at load (spec §3.1). The message is the exact
 * load-time text, e.g. {@code time-context: invalid IANA timeZone "Mars/Olympus"}.
 */
public final class InvalidConfigException extends HoraeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the failure.
   *
   * @param message the exact spec message
   */
  public InvalidConfigException(String message) {
    super(message);
  }
}

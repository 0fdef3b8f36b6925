package dev.horae.spi.zone;

import dev.horae.spi.HoraeException;

/**
 * A recorded client zone the derivation cannot accept (time-context spec §9 step 2). The message
 * is the exact spec text, e.g. {@code browser time zone must be canonical: "Etc/UTC"}.
 */
public final class ClientZoneException extends HoraeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the failure.
   *
   * @param message the exact spec message
   */
  public ClientZoneException(String message) {
    super(message);
  }
}

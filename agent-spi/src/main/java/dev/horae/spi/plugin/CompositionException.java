package dev.horae.spi.plugin;

import dev.horae.spi.HoraeException;

/** A plugin cannot be installed: a required service is missing or its configuration is invalid. */
public final class CompositionException extends HoraeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what is missing or invalid
   */
  public CompositionException(String message) {
    super(message);
  }
}

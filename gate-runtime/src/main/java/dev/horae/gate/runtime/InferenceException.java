package dev.horae.gate.runtime;

import dev.horae.spi.HoraeException;

/**
 * A classified model failure; ends the Run with {@code error(inference{code, message})}.
 */
public final class InferenceException extends HoraeException {

  private static final long serialVersionUID = 1L;

  private final String code;

  /**
   * Creates the failure.
   *
   * @param code the stable classification, e.g. {@code rate_limited}
   * @param message the provider's message
   */
  public InferenceException(String code, String message) {
    super(message);
    this.code = code;
  }

  /**
   * The classification.
   *
   * @return the code
   */
  public String code() {
    return code;
  }
}

package dev.horae.gate.runtime.internal;

import dev.horae.spi.HoraeException;

/**
 * A tool-batch rule was broken (gate specification §7.2, §7.4). Carries the stable code, e.g.
 * {@code waitMismatch} or {@code illegalTransition}.
 */
public final class BatchException extends HoraeException {

  private static final long serialVersionUID = 1L;

  private final String code;

  /**
   * Creates the error.
   *
   * @param code the stable code
   * @param message the specified text
   */
  public BatchException(String code, String message) {
    super(message);
    this.code = code;
  }

  /**
   * The stable code.
   *
   * @return the code
   */
  public String code() {
    return code;
  }
}

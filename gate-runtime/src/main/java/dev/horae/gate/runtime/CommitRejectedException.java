package dev.horae.gate.runtime;

/**
 * A store rejected a commit under its conditions (gate specification §5.4); nothing was written.
 * Codes: {@code invalid}, {@code terminalFinal}, {@code runHeadMoved}, {@code fenced}.
 */
public final class CommitRejectedException extends GateRuntimeException {

  private static final long serialVersionUID = 1L;

  private final String code;

  /**
   * Creates the rejection.
   *
   * @param code the stable code
   * @param message the specified message
   */
  public CommitRejectedException(String code, String message) {
    super(Category.COMMIT, message, null);
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

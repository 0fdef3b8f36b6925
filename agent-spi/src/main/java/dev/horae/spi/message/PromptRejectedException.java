package dev.horae.spi.message;

/**
 * A prompt (or session create request) refused at admission, with a stable code, message and the
 * offending value as detail.
 */
public final class PromptRejectedException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String code;
  private final String detail;

  /**
   * Creates the rejection.
   *
   * @param code stable error code, e.g. {@code invalid-time-zone}
   * @param message stable message
   * @param detail the offending value
   */
  public PromptRejectedException(String code, String message, String detail) {
    super(message);
    this.code = code;
    this.detail = detail;
  }

  /**
   * The stable error code.
   *
   * @return the code
   */
  public String code() {
    return code;
  }

  /**
   * The offending value.
   *
   * @return the detail
   */
  public String detail() {
    return detail;
  }
}

package dev.horae.spi.invariant;

import dev.horae.spi.HoraeException;

/**
 * A broken invariant: code {@code INVARIANT}, message
 * {@code invariant violated by "<owner>": <detail>}.
 */
public final class InvariantViolation extends HoraeException {

  private static final long serialVersionUID = 1L;

  /** The stable error code. */
  public static final String CODE = "INVARIANT";

  private final String owner;
  private final String detail;

  /**
   * Creates a violation.
   *
   * @param owner the companion's owner name
   * @param detail the companion's message
   */
  public InvariantViolation(String owner, String detail) {
    super("invariant violated by \"" + owner + "\": " + detail);
    this.owner = owner;
    this.detail = detail;
  }

  /**
   * The stable code.
   *
   * @return {@code INVARIANT}
   */
  public String code() {
    return CODE;
  }

  /**
   * The owner name.
   *
   * @return the owner
   */
  public String owner() {
    return owner;
  }

  /**
   * The companion's message, without the prefix.
   *
   * @return the detail
   */
  public String detail() {
    return detail;
  }
}

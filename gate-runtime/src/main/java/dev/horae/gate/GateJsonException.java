package dev.horae.gate;

/**
 * A JSON value does not have the shape a gate codec requires. The message is the stable,
 * specified text where the specification fixes one (e.g. {@code resume ticket must contain one
 * valid closed await target}).
 */
public final class GateJsonException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the error.
   *
   * @param message the stable message
   */
  public GateJsonException(String message) {
    super(message);
  }
}

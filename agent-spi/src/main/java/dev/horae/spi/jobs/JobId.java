package dev.horae.spi.jobs;

import java.util.Objects;

/**
 * A job id {@code <kind>-<N>} with N a positive ordinal counted per kind (jobs spec §2.2). Ids are
 * predictable on purpose: the session fence, not secrecy, guards access.
 *
 * @param value the id text, e.g. {@code bash-1} or {@code pty-send-100}
 */
public record JobId(String value) {

  /**
   * Validates the id text.
   *
   * @throws IllegalArgumentException when {@code value} is not {@code <kind>-<positive ordinal>}
   */
  public JobId {
    Objects.requireNonNull(value, "value");
    int dash = value.lastIndexOf('-');
    if (dash <= 0 || !isOrdinal(value.substring(dash + 1))) {
      throw new IllegalArgumentException(
          "job id \"" + value + "\" must be \"<kind>-\" followed by a positive ordinal");
    }
  }

  /**
   * Parses an id text.
   *
   * @param value the id text
   * @return the id
   * @throws IllegalArgumentException when the text is not a valid id
   */
  public static JobId parse(String value) {
    return new JobId(value);
  }

  /**
   * Builds the id of the {@code ordinal}-th job of {@code kind}.
   *
   * @param kind non-empty kind
   * @param ordinal positive ordinal
   * @return {@code <kind>-<ordinal>}
   * @throws IllegalArgumentException when the kind is empty or the ordinal not positive
   */
  public static JobId of(String kind, long ordinal) {
    if (ordinal < 1) {
      throw new IllegalArgumentException("job ordinal must be positive, got " + ordinal);
    }
    return new JobId(kind + "-" + ordinal);
  }

  /**
   * Returns the kind, the text before the last dash.
   *
   * @return the kind
   */
  public String kind() {
    return value.substring(0, value.lastIndexOf('-'));
  }

  /**
   * Returns the per-kind ordinal.
   *
   * @return the positive ordinal
   */
  public long ordinal() {
    return Long.parseLong(value.substring(value.lastIndexOf('-') + 1));
  }

  @Override
  public String toString() {
    return value;
  }

  private static boolean isOrdinal(String digits) {
    if (digits.isEmpty() || digits.length() > 18 || digits.charAt(0) == '0') {
      return false;
    }
    for (int i = 0; i < digits.length(); i++) {
      char c = digits.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }
}

package dev.horae.timecontext;

import java.util.Objects;

/**
 * Why a candidate reading breaks the time-context invariant (spec §11.2).
 *
 * @param message the exact message, without the {@code invariant violated by "<owner>": } prefix
 * @param kind whether this is a rule violation (reported with the invariant prefix) or a failed
 *     client-zone derivation (reported with the derivation's own message, without the prefix)
 */
public record ReadingViolation(String message, Kind kind) {

  /** How the invariant companion reports a violation. */
  public enum Kind {
    /** A rule of spec §11.2; reported through the invariant service's {@code fail(message)}. */
    RULE,
    /** A client-zone derivation failure (check 6); reported with its own message, unprefixed. */
    CLIENT_ZONE
  }

  /** Checks the members are present. */
  public ReadingViolation {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(kind, "kind");
  }

  static ReadingViolation rule(String message) {
    return new ReadingViolation(message, Kind.RULE);
  }
}

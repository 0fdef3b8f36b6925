package dev.horae.runtime.agent;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The limits the turn engine puts on a turn and its parked calls.
 *
 * @param awaitDeadline how long a parked call's ticket stays answerable after its commit (gate
 *     specification §11); empty: it never expires
 * @param maxSteps the most model steps one turn runs, counted across its parks (gate specification
 *     §9.5: {@code maxSteps} is the loop's own ceiling); empty: no ceiling
 */
public record TurnLimits(Optional<Duration> awaitDeadline, OptionalInt maxSteps) {

  /** No deadline and no step ceiling. */
  public static final TurnLimits NONE = new TurnLimits(Optional.empty(), OptionalInt.empty());

  /**
   * Checks the limits.
   *
   * @throws IllegalArgumentException when the deadline is not more than zero or the ceiling is
   *     below one
   */
  public TurnLimits {
    Objects.requireNonNull(awaitDeadline, "awaitDeadline");
    Objects.requireNonNull(maxSteps, "maxSteps");
    if (awaitDeadline.isPresent() && (awaitDeadline.get().isZero() || awaitDeadline.get().isNegative())) {
      throw new IllegalArgumentException("awaitDeadline must be more than zero: " + awaitDeadline.get());
    }
    if (maxSteps.isPresent() && maxSteps.getAsInt() < 1) {
      throw new IllegalArgumentException("maxSteps must be at least 1: " + maxSteps.getAsInt());
    }
  }

  /**
   * These limits with a ticket deadline; every builder that takes limits comes here, so the
   * record's constructor is their one check.
   *
   * @param v the time to answer, more than zero
   * @return the new limits
   * @throws IllegalArgumentException when {@code v} is zero or negative
   */
  public TurnLimits withAwaitDeadline(Duration v) {
    return new TurnLimits(Optional.of(v), maxSteps);
  }

  /**
   * These limits with a step ceiling.
   *
   * @param v the ceiling, at least 1
   * @return the new limits
   * @throws IllegalArgumentException when {@code v} is below 1
   */
  public TurnLimits withMaxSteps(int v) {
    return new TurnLimits(awaitDeadline, OptionalInt.of(v));
  }
}

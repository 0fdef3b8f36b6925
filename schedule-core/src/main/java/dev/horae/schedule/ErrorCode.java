package dev.horae.schedule;

/** The closed set of ten v1 domain error codes (spec §5). */
public enum ErrorCode {
  /** The prompt is empty after trimming. */
  INVALID_PROMPT("invalid_prompt"),
  /** Not exactly one selector, or an unknown top-level member. */
  INVALID_SELECTOR("invalid_selector"),
  /** A selector value or a delete id breaks its rule. */
  INVALID_RULE("invalid_rule"),
  /** The explicit or implicit zone is not usable. */
  INVALID_TIME_ZONE("invalid_time_zone"),
  /** A local {@code at} omitted {@code time_zone} without a confirmed implicit zone. */
  TIMEZONE_CONFIRMATION_REQUIRED("timezone_confirmation_required"),
  /** An absolute target is not strictly after now. */
  NOT_FUTURE("not_future"),
  /** The target has no four-digit-year canonical form. */
  TIME_OUT_OF_RANGE("time_out_of_range"),
  /** The owned suffix of the log does not fold. */
  CORRUPT_SCHEDULE_LOG("corrupt_schedule_log"),
  /** A preflight or barrier flush did not prove durability. */
  PERSISTENCE_UNCERTAIN("persistence_uncertain"),
  /** Anything unexpected: wrong agent, vetoed append, clock failure. */
  INTERNAL_ERROR("internal_error");

  private final String wire;

  ErrorCode(String wire) {
    this.wire = wire;
  }

  /**
   * The code as written in tool values.
   *
   * @return the snake_case code
   */
  public String wire() {
    return wire;
  }
}

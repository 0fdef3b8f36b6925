package dev.horae.gate;

import java.util.Optional;

/** Why a Run is paused. */
public enum PauseReason {
  /** Paused by hand. */
  MANUAL("manual", AwaitReason.MANUAL_PAUSE),
  /** Paused by a rate limit. */
  RATE_LIMIT("rateLimit", AwaitReason.RATE_LIMIT),
  /** Paused because a budget was reached. */
  BUDGET_REACHED("budgetReached", AwaitReason.BUDGET_REACHED);

  private final String wireName;
  private final AwaitReason flat;

  PauseReason(String wireName, AwaitReason flat) {
    this.wireName = wireName;
    this.flat = flat;
  }

  /**
   * The camelCase JSON name.
   *
   * @return the wire name
   */
  public String wireName() {
    return wireName;
  }

  /**
   * The flat reason this projects to.
   *
   * @return the flat reason
   */
  public AwaitReason flat() {
    return flat;
  }

  /**
   * Looks a reason up by its JSON name.
   *
   * @param wireName the name
   * @return the reason, or empty
   */
  public static Optional<PauseReason> fromWireName(String wireName) {
    return WireNames.find(values(), PauseReason::wireName, wireName);
  }
}

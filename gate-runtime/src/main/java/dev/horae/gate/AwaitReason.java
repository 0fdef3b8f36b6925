package dev.horae.gate;

import java.util.Optional;

/**
 * The flat, lossy reason a Run is awaiting (gate specification §2.1). Binding decisions never use
 * it: {@code externalEvent} stands both for a client-executed tool call and for remote external
 * input; use the closed {@link AwaitTarget} instead.
 */
public enum AwaitReason {
  /** A person must confirm a tool call. */
  TOOL_PERMISSION("toolPermission", "tool_permission"),
  /** A user must supply input. */
  USER_INPUT("userInput", "user_input"),
  /** An external event or a client-executed tool result is expected. */
  EXTERNAL_EVENT("externalEvent", "external_event"),
  /** Paused by a rate limit. */
  RATE_LIMIT("rateLimit", "rate_limit"),
  /** Paused by hand. */
  MANUAL_PAUSE("manualPause", "manual_pause"),
  /** Paused because a budget was reached. */
  BUDGET_REACHED("budgetReached", "budget_reached"),
  /** The system will perform the committed tool call. */
  SCHEDULED_ACTION("scheduledAction", "scheduled_action"),
  /** A delegated child run must answer. */
  DELEGATION("delegation", "delegation");

  private final String wireName;
  private final String streamToken;

  AwaitReason(String wireName, String streamToken) {
    this.wireName = wireName;
    this.streamToken = streamToken;
  }

  /**
   * The camelCase JSON name, e.g. {@code scheduledAction}.
   *
   * @return the wire name
   */
  public String wireName() {
    return wireName;
  }

  /**
   * The stable, pairwise distinct token of the live "awaiting" stream event, e.g. {@code
   * scheduled_action} (§2.2).
   *
   * @return the stream token
   */
  public String streamToken() {
    return streamToken;
  }

  /**
   * Looks a reason up by its camelCase JSON name.
   *
   * @param wireName the name, e.g. {@code rateLimit}
   * @return the reason, or empty for an unknown name
   */
  public static Optional<AwaitReason> fromWireName(String wireName) {
    return WireNames.find(values(), AwaitReason::wireName, wireName);
  }
}

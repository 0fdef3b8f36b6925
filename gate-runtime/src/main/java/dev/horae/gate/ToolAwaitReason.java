package dev.horae.gate;

import java.util.Optional;

/** Why a Run waits on one tool call (the reason of a tool-call {@link AwaitTarget}). */
public enum ToolAwaitReason {
  /** A person must confirm the call. */
  PERMISSION("permission", AwaitReason.TOOL_PERMISSION),
  /** The client executes the call and returns its result. */
  CLIENT_EXECUTION("clientExecution", AwaitReason.EXTERNAL_EVENT),
  /** The system performs the committed call later in the same Run. */
  SCHEDULED_ACTION("scheduledAction", AwaitReason.SCHEDULED_ACTION),
  /** A delegated child run answers the call. */
  DELEGATION("delegation", AwaitReason.DELEGATION);

  private final String wireName;
  private final AwaitReason flat;

  ToolAwaitReason(String wireName, AwaitReason flat) {
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
   * The flat reason this projects to (lossy: client execution becomes {@code externalEvent}).
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
  public static Optional<ToolAwaitReason> fromWireName(String wireName) {
    return WireNames.find(values(), ToolAwaitReason::wireName, wireName);
  }
}

package dev.horae.gate.runtime.internal;

import dev.horae.gate.ToolAwaitReason;
import java.util.Optional;

/** The kind of wait an awaiting tool call is in (gate specification §7.1). */
public enum ToolWaitKind {
  /** A person must confirm (decoders also accept {@code approval}). */
  TOOL_PERMISSION("toolPermission"),
  /** A delegated child run answers. */
  DELEGATION("delegation"),
  /** The system performs the call later. */
  SCHEDULED_ACTION("scheduledAction"),
  /** The client executes the call. */
  EXTERNAL_RESULT("externalResult");

  private final String wireName;

  ToolWaitKind(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The camelCase JSON name.
   *
   * @return the wire name
   */
  String wireName() {
    return wireName;
  }

  /**
   * The wait kind of a tool-call target's reason.
   *
   * @param reason the target's reason
   * @return the kind
   */
  public static ToolWaitKind of(ToolAwaitReason reason) {
    return switch (reason) {
      case PERMISSION -> TOOL_PERMISSION;
      case CLIENT_EXECUTION -> EXTERNAL_RESULT;
      case SCHEDULED_ACTION -> SCHEDULED_ACTION;
      case DELEGATION -> DELEGATION;
    };
  }

  /**
   * Looks a kind up by JSON name, accepting the alias {@code approval}.
   *
   * @param name the name
   * @return the kind, or empty
   */
  static Optional<ToolWaitKind> fromWireName(String name) {
    if (name.equals("approval")) {
      return Optional.of(TOOL_PERMISSION);
    }
    return dev.horae.gate.WireNames.find(values(), ToolWaitKind::wireName, name);
  }
}

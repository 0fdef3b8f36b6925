package dev.horae.gate;

import java.util.Optional;

/** Why a Run waits on input that is not a tool result. */
public enum RemoteInputReason {
  /** A user must answer. */
  USER_INPUT("userInput", AwaitReason.USER_INPUT),
  /** An external system must deliver an event. */
  EXTERNAL_EVENT("externalEvent", AwaitReason.EXTERNAL_EVENT);

  private final String wireName;
  private final AwaitReason flat;

  RemoteInputReason(String wireName, AwaitReason flat) {
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
  public static Optional<RemoteInputReason> fromWireName(String wireName) {
    return WireNames.find(values(), RemoteInputReason::wireName, wireName);
  }
}

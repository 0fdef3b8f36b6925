package dev.horae.gate;

import java.util.Objects;
import java.util.Optional;

/**
 * A person's answer to a permission wait (or the system's implicit allow when it performs a
 * scheduled action). An allow may carry a note; a deny may carry a reason; never the other way
 * round.
 */
public sealed interface PermissionDecision
    permits PermissionDecision.Allow, PermissionDecision.Deny {

  /**
   * An allow without a note.
   *
   * @return the decision
   */
  static PermissionDecision allow() {
    return new Allow(Optional.empty());
  }

  /**
   * A deny without a reason (the call is then blocked with the reason {@code denied}).
   *
   * @return the decision
   */
  static PermissionDecision deny() {
    return new Deny(Optional.empty());
  }

  /**
   * Approves the call.
   *
   * @param note an optional reviewer note
   */
  record Allow(Optional<String> note) implements PermissionDecision {
    /** Rejects a missing optional. */
    public Allow {
      Objects.requireNonNull(note, "note");
    }
  }

  /**
   * Denies the call.
   *
   * @param reason an optional reason, shown to the model
   */
  record Deny(Optional<String> reason) implements PermissionDecision {
    /** Rejects a missing optional. */
    public Deny {
      Objects.requireNonNull(reason, "reason");
    }
  }
}

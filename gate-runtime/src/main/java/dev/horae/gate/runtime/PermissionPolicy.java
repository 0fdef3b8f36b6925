package dev.horae.gate.runtime;

import dev.horae.gate.ToolPermissionVerdict;
import dev.horae.spi.gate.StateView;
import dev.horae.spi.gate.ToolCall;

/**
 * A per-Run permission policy (gate specification §1.2–§1.3): runs before every gate and returns
 * a verdict, never a gate outcome; a non-Allow verdict is final. Narrowings only remove
 * authority.
 */
@FunctionalInterface
public interface PermissionPolicy {

  /**
   * Decides on one call.
   *
   * @param call the complete call
   * @param state the read-only Run view
   * @return the verdict
   */
  ToolPermissionVerdict decide(ToolCall call, StateView state);

  /**
   * The narrowing that denies every call with the reason.
   *
   * @param reason the denial reason
   * @return the policy
   */
  static PermissionPolicy denyAll(String reason) {
    return new DenyAll(reason);
  }

  /**
   * The intersection of two policies: a deny from either wins, then a confirmation from either,
   * otherwise allow. {@code denyAll} absorbs.
   *
   * @param other the other policy
   * @return the intersection
   */
  default PermissionPolicy intersect(PermissionPolicy other) {
    if (this instanceof DenyAll) {
      return this;
    }
    if (other instanceof DenyAll) {
      return other;
    }
    PermissionPolicy self = this;
    return (call, state) -> {
      ToolPermissionVerdict a = self.decide(call, state);
      ToolPermissionVerdict b = other.decide(call, state);
      if (a instanceof ToolPermissionVerdict.Deny) {
        return a;
      }
      if (b instanceof ToolPermissionVerdict.Deny) {
        return b;
      }
      if (a instanceof ToolPermissionVerdict.RequireConfirmation) {
        return a;
      }
      return b;
    };
  }

  /**
   * Denies every call.
   *
   * @param reason the reason
   */
  record DenyAll(String reason) implements PermissionPolicy {
    @Override
    public ToolPermissionVerdict decide(ToolCall call, StateView state) {
      return ToolPermissionVerdict.deny(reason);
    }
  }
}

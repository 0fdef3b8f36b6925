package dev.horae.gate.runtime;

import dev.horae.gate.AwaitTarget;
import java.util.OptionalLong;

/**
 * Decides the deadline of a ticket at commit time (gate specification §11). Gate outcomes carry
 * no deadline; the default policy sets none, and a ticket without deadline never expires.
 */
@FunctionalInterface
public interface AwaitDeadlinePolicy {

  /**
   * The deadline for a ticket about to be committed.
   *
   * @param target the ticket's target
   * @param nowMs the caller's clock reading (epoch milliseconds)
   * @return the deadline, or empty for none
   */
  OptionalLong deadline(AwaitTarget target, long nowMs);

  /**
   * The default: no deadline.
   *
   * @return the policy
   */
  static AwaitDeadlinePolicy none() {
    return (target, nowMs) -> OptionalLong.empty();
  }
}

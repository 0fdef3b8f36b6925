package dev.horae.gate;

import dev.horae.spi.gate.GateOutcome;
import java.util.Objects;

/**
 * What a permission policy returns (gate specification §1.2). A policy can never schedule a call
 * or supply a result; its verdict projects onto a {@link GateOutcome} without widening authority:
 * only Allow maps to Allow.
 */
public sealed interface ToolPermissionVerdict
    permits ToolPermissionVerdict.Allow,
        ToolPermissionVerdict.Deny,
        ToolPermissionVerdict.RequireConfirmation {

  /**
   * The gate outcome this verdict becomes: Allow → Allow, Deny(r) → Block(r),
   * RequireConfirmation(c) → RequireConfirmation(c).
   *
   * @return the projected outcome
   */
  GateOutcome toGateOutcome();

  /**
   * Allows the call.
   *
   * @return the verdict
   */
  static ToolPermissionVerdict allow() {
    return new Allow();
  }

  /**
   * Denies the call.
   *
   * @param reason why, shown to the model as {@code blocked: <reason>}
   * @return the verdict
   */
  static ToolPermissionVerdict deny(String reason) {
    return new Deny(reason);
  }

  /**
   * Asks a person.
   *
   * @param correlationId the permission ticket's correlation id; non-empty
   * @return the verdict
   * @throws IllegalArgumentException when the id is empty
   */
  static ToolPermissionVerdict requireConfirmation(String correlationId) {
    return new RequireConfirmation(correlationId);
  }

  /** Allows the call. */
  record Allow() implements ToolPermissionVerdict {
    @Override
    public GateOutcome toGateOutcome() {
      return GateOutcome.allow();
    }
  }

  /**
   * Denies the call.
   *
   * @param reason why
   */
  record Deny(String reason) implements ToolPermissionVerdict {
    /** Rejects a missing reason. */
    public Deny {
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public GateOutcome toGateOutcome() {
      return GateOutcome.block(reason);
    }
  }

  /**
   * Asks a person.
   *
   * @param correlationId the ticket's correlation id
   */
  record RequireConfirmation(String correlationId) implements ToolPermissionVerdict {
    /**
     * Rejects an empty correlation id.
     *
     * @throws IllegalArgumentException when the id is empty
     */
    public RequireConfirmation {
      Objects.requireNonNull(correlationId, "correlationId");
      if (correlationId.isEmpty()) {
        throw new IllegalArgumentException("correlation id must be non-empty");
      }
    }

    @Override
    public GateOutcome toGateOutcome() {
      return GateOutcome.requireConfirmation(correlationId);
    }
  }
}

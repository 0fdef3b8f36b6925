package dev.horae.gate;

import java.util.Objects;

/**
 * A plugin's declared ceiling, one {@link IdBound} per axis (gate specification §10.2). Each axis
 * defaults to deny-all. A bound is never a grant and converts to no permission.
 *
 * @param tools tool ids
 * @param stateKeys state keys
 * @param phaseHooks phase hook points
 * @param actionKinds scheduled-action kinds
 * @param runEndGuards run-end guards
 * @param toolGates tool gate ids
 * @param toolConstraints tool constraints
 */
public record CapabilityBound(
    IdBound tools,
    IdBound stateKeys,
    IdBound phaseHooks,
    IdBound actionKinds,
    IdBound runEndGuards,
    IdBound toolGates,
    IdBound toolConstraints) {

  /** Rejects missing axes. */
  public CapabilityBound {
    Objects.requireNonNull(tools, "tools");
    Objects.requireNonNull(stateKeys, "stateKeys");
    Objects.requireNonNull(phaseHooks, "phaseHooks");
    Objects.requireNonNull(actionKinds, "actionKinds");
    Objects.requireNonNull(runEndGuards, "runEndGuards");
    Objects.requireNonNull(toolGates, "toolGates");
    Objects.requireNonNull(toolConstraints, "toolConstraints");
  }

  /**
   * The bound that denies everything.
   *
   * @return every axis deny-all
   */
  public static CapabilityBound denyAll() {
    IdBound d = IdBound.denyAll();
    return new CapabilityBound(d, d, d, d, d, d, d);
  }

  /**
   * The bound on one axis.
   *
   * @param axis the axis
   * @return its bound
   */
  public IdBound axis(BoundAxis axis) {
    return switch (axis) {
      case TOOL -> tools;
      case STATE_KEY -> stateKeys;
      case PHASE_HOOK -> phaseHooks;
      case ACTION_KIND -> actionKinds;
      case RUN_END_GUARD -> runEndGuards;
      case TOOL_GATE -> toolGates;
      case TOOL_CONSTRAINT -> toolConstraints;
    };
  }

  /**
   * A copy with another tool bound.
   *
   * @param bound the bound
   * @return the copy
   */
  public CapabilityBound withTools(IdBound bound) {
    return new CapabilityBound(bound, stateKeys, phaseHooks, actionKinds, runEndGuards, toolGates,
        toolConstraints);
  }

  /**
   * A copy with another action-kind bound.
   *
   * @param bound the bound
   * @return the copy
   */
  public CapabilityBound withActionKinds(IdBound bound) {
    return new CapabilityBound(tools, stateKeys, phaseHooks, bound, runEndGuards, toolGates,
        toolConstraints);
  }

  /**
   * A copy with another tool-gate bound.
   *
   * @param bound the bound
   * @return the copy
   */
  public CapabilityBound withToolGates(IdBound bound) {
    return new CapabilityBound(tools, stateKeys, phaseHooks, actionKinds, runEndGuards, bound,
        toolConstraints);
  }

  /**
   * A copy with one axis replaced.
   *
   * @param axis the axis
   * @param bound the bound
   * @return the copy
   */
  public CapabilityBound with(BoundAxis axis, IdBound bound) {
    return new CapabilityBound(
        axis == BoundAxis.TOOL ? bound : tools,
        axis == BoundAxis.STATE_KEY ? bound : stateKeys,
        axis == BoundAxis.PHASE_HOOK ? bound : phaseHooks,
        axis == BoundAxis.ACTION_KIND ? bound : actionKinds,
        axis == BoundAxis.RUN_END_GUARD ? bound : runEndGuards,
        axis == BoundAxis.TOOL_GATE ? bound : toolGates,
        axis == BoundAxis.TOOL_CONSTRAINT ? bound : toolConstraints);
  }
}

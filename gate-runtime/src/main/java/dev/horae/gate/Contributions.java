package dev.horae.gate;

import java.util.List;

/**
 * The ids a plugin contributes, per axis, in declared order.
 *
 * @param tools tool ids
 * @param stateKeys state keys
 * @param phaseHooks phase hook points
 * @param actionKinds action kinds
 * @param runEndGuards run-end guards
 * @param toolGates tool gate ids
 * @param toolConstraints tool constraints
 */
public record Contributions(
    List<String> tools,
    List<String> stateKeys,
    List<String> phaseHooks,
    List<String> actionKinds,
    List<String> runEndGuards,
    List<String> toolGates,
    List<String> toolConstraints) {

  /** Copies every list. */
  public Contributions {
    tools = List.copyOf(tools);
    stateKeys = List.copyOf(stateKeys);
    phaseHooks = List.copyOf(phaseHooks);
    actionKinds = List.copyOf(actionKinds);
    runEndGuards = List.copyOf(runEndGuards);
    toolGates = List.copyOf(toolGates);
    toolConstraints = List.copyOf(toolConstraints);
  }

  /**
   * Contributions on the three axes the run engine uses, nothing elsewhere.
   *
   * @param tools tool ids
   * @param actionKinds action kinds
   * @param toolGates tool gate ids
   * @return the contributions
   */
  public static Contributions of(
      List<String> tools, List<String> actionKinds, List<String> toolGates) {
    return new Contributions(tools, List.of(), List.of(), actionKinds, List.of(), toolGates,
        List.of());
  }

  /**
   * No contributions.
   *
   * @return the empty contributions
   */
  public static Contributions none() {
    return of(List.of(), List.of(), List.of());
  }

  /**
   * The ids on one axis.
   *
   * @param axis the axis
   * @return the ids, in declared order
   */
  public List<String> axis(BoundAxis axis) {
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
}

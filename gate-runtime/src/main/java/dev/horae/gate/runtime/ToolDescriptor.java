package dev.horae.gate.runtime;

import java.util.List;
import java.util.Objects;

/**
 * One tool of an agent snapshot's catalog, as the run engine needs it.
 *
 * @param id the canonical tool id; non-empty
 * @param recoveryPolicy the policy pinned on every call of this tool
 * @param clientExecuted whether the client executes the tool (such calls bypass the gate chain)
 * @param aliases presentation names the model may use; mapped back to {@code id} before any gate
 *     sees the call
 * @param concurrent whether calls of this tool may run in a parallel wave with neighbouring
 *     concurrent calls; without it the tool runs exclusively
 */
public record ToolDescriptor(
    String id, ToolRecoveryPolicy recoveryPolicy, boolean clientExecuted, List<String> aliases,
    boolean concurrent) {

  /**
   * Validates the descriptor.
   *
   * @throws IllegalArgumentException when the id is empty
   */
  public ToolDescriptor {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(recoveryPolicy, "recoveryPolicy");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("tool id must be non-empty");
    }
    aliases = List.copyOf(aliases);
  }

  /**
   * A descriptor without aliases.
   *
   * @param id the tool id
   * @param recoveryPolicy the pinned policy
   * @param clientExecuted whether the client executes the tool
   * @throws IllegalArgumentException when the id is empty
   */
  public ToolDescriptor(String id, ToolRecoveryPolicy recoveryPolicy, boolean clientExecuted) {
    this(id, recoveryPolicy, clientExecuted, List.of(), false);
  }

  /**
   * A descriptor with aliases, running exclusively.
   *
   * @param id the tool id
   * @param recoveryPolicy the pinned policy
   * @param clientExecuted whether the client executes the tool
   * @param aliases presentation names
   * @throws IllegalArgumentException when the id is empty
   */
  public ToolDescriptor(
      String id, ToolRecoveryPolicy recoveryPolicy, boolean clientExecuted, List<String> aliases) {
    this(id, recoveryPolicy, clientExecuted, aliases, false);
  }

  /**
   * A copy that may run in parallel waves.
   *
   * @return the concurrent descriptor
   */
  public ToolDescriptor concurrently() {
    return new ToolDescriptor(id, recoveryPolicy, clientExecuted, aliases, true);
  }

  /**
   * A host-executed tool with the default {@code neverReplay} policy.
   *
   * @param id the tool id
   * @return the descriptor
   */
  public static ToolDescriptor of(String id) {
    return new ToolDescriptor(id, ToolRecoveryPolicy.neverReplay(), false);
  }
}

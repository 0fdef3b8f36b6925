package dev.horae.gate.runtime;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An immutable executable agent snapshot a Run executes (gate specification §13).
 *
 * @param id the snapshot id; non-empty
 * @param catalogFingerprint the tool catalog's fingerprint; non-empty
 * @param pluginIds the selected plugins; an unselected plugin contributes nothing
 * @param tools the tool catalog
 * @param maxSteps the loop's step ceiling, at least 1
 */
public record AgentSnapshot(
    String id, String catalogFingerprint, Set<String> pluginIds, List<ToolDescriptor> tools, int maxSteps) {

  /**
   * Validates the snapshot; an empty fingerprint or inconsistent catalog fails closed.
   *
   * @throws IllegalArgumentException when the id or fingerprint is empty, a tool id repeats, or
   *     {@code maxSteps < 1}
   */
  public AgentSnapshot {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(catalogFingerprint, "catalogFingerprint");
    pluginIds = Set.copyOf(pluginIds);
    tools = List.copyOf(tools);
    if (id.isEmpty()) {
      throw new IllegalArgumentException("snapshot id must be non-empty");
    }
    if (catalogFingerprint.isEmpty()) {
      throw new IllegalArgumentException("snapshot catalog fingerprint must be non-empty");
    }
    Set<String> seen = new HashSet<>();
    for (ToolDescriptor t : tools) {
      if (!seen.add(t.id())) {
        throw new IllegalArgumentException("snapshot lists tool \"" + t.id() + "\" twice");
      }
    }
    for (ToolDescriptor t : tools) {
      for (String alias : t.aliases()) {
        if (!seen.add(alias)) {
          throw new IllegalArgumentException("snapshot uses tool name \"" + alias + "\" twice");
        }
      }
    }
    if (maxSteps < 1) {
      throw new IllegalArgumentException("maxSteps must be at least 1");
    }
  }

  /**
   * A snapshot whose fingerprint is {@link CatalogFingerprint#of} its tools.
   *
   * @param id the snapshot id
   * @param pluginIds the selected plugins
   * @param tools the catalog
   * @param maxSteps the step ceiling
   * @return the snapshot
   */
  public static AgentSnapshot of(String id, Set<String> pluginIds, List<ToolDescriptor> tools, int maxSteps) {
    return new AgentSnapshot(id, CatalogFingerprint.of(tools), pluginIds, tools, maxSteps);
  }

  /**
   * Maps a presentation alias back to its canonical tool id; other names are returned unchanged.
   *
   * @param name the name the model used
   * @return the canonical tool id
   */
  public String canonical(String name) {
    for (ToolDescriptor t : tools) {
      if (t.aliases().contains(name)) {
        return t.id();
      }
    }
    return name;
  }

  /**
   * The descriptor of a tool.
   *
   * @param toolId the tool id
   * @return the descriptor, if the catalog has it
   */
  public Optional<ToolDescriptor> tool(String toolId) {
    return tools.stream().filter(t -> t.id().equals(toolId)).findFirst();
  }
}

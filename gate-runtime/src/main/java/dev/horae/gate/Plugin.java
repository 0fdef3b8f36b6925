package dev.horae.gate;

import dev.horae.spi.gate.ToolGate;
import java.util.List;
import java.util.Objects;

/**
 * One plugin as the environment merge sees it: its manifest, the ids it contributes and the gates
 * behind its contributed tool-gate ids.
 *
 * @param manifest the declaration
 * @param contributions the contributed ids
 * @param gates the plugin's gates; each id must be listed in {@code contributions.toolGates()}
 */
public record Plugin(PluginManifest manifest, Contributions contributions, List<ToolGate> gates) {

  /**
   * Validates and copies.
   *
   * @throws IllegalArgumentException when a gate's id is not among the contributed tool gates
   */
  public Plugin {
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(contributions, "contributions");
    gates = List.copyOf(gates);
    for (ToolGate g : gates) {
      if (!contributions.toolGates().contains(g.id())) {
        throw new IllegalArgumentException(
            "plugin \"" + manifest.id() + "\" has gate \"" + g.id()
                + "\" that is not among its contributed tool gates");
      }
    }
  }

  /**
   * A plugin without gates.
   *
   * @param manifest the declaration
   * @param contributions the contributed ids
   * @return the plugin
   */
  public static Plugin of(PluginManifest manifest, Contributions contributions) {
    return new Plugin(manifest, contributions, List.of());
  }

  /**
   * The plugin id.
   *
   * @return the manifest's id
   */
  public String id() {
    return manifest.id();
  }
}

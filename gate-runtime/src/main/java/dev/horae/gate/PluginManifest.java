package dev.horae.gate;

import java.util.List;
import java.util.Objects;

/**
 * What a plugin declares: its id, the plugins it requires, and its capability ceiling.
 *
 * @param id the plugin id; non-empty
 * @param requires ids of plugins that must be active too
 * @param bound the ceiling
 */
public record PluginManifest(String id, List<String> requires, CapabilityBound bound) {
  /**
   * Validates and copies.
   *
   * @throws IllegalArgumentException when the id is empty
   */
  public PluginManifest {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(bound, "bound");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("plugin id must be non-empty");
    }
    requires = List.copyOf(requires);
  }
}

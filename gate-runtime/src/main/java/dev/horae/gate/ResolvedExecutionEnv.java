package dev.horae.gate;

import dev.horae.spi.gate.ToolGate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The merged environment of a Run's selected plugins (gate specification §10.3): the plugins in
 * dependency order, the contributed tools and action kinds, and the plugin gates in that order.
 * Absence is denial: {@link #permitsActionKind} is true only for a kind some selected plugin
 * contributed.
 */
public final class ResolvedExecutionEnv {

  private final List<String> order;
  private final List<String> tools;
  private final List<String> actionKinds;
  private final Set<String> actionKindSet;
  private final List<ToolGate> gates;

  private ResolvedExecutionEnv(
      List<String> order, List<String> tools, List<String> actionKinds, List<ToolGate> gates) {
    this.order = List.copyOf(order);
    this.tools = List.copyOf(tools);
    this.actionKinds = List.copyOf(actionKinds);
    this.actionKindSet = Set.copyOf(actionKinds);
    this.gates = List.copyOf(gates);
  }

  /**
   * The environment of no plugins: no tools, no action kinds, no gates.
   *
   * @return the empty environment
   */
  public static ResolvedExecutionEnv empty() {
    return new ResolvedExecutionEnv(List.of(), List.of(), List.of(), List.of());
  }

  /**
   * Merges the selected plugins only: an unselected plugin contributes nothing.
   *
   * @param plugins every available plugin
   * @param selected the ids the snapshot selects
   * @return the environment
   * @throws EnvMergeException as {@link #merge(List)}
   */
  public static ResolvedExecutionEnv merge(List<Plugin> plugins, Set<String> selected) {
    List<Plugin> chosen = new ArrayList<>();
    for (Plugin p : plugins) {
      if (selected.contains(p.id())) {
        chosen.add(p);
      }
    }
    return merge(chosen);
  }

  /**
   * Merges plugins in the specification's order: duplicate ids, bounds, dependencies, cycles,
   * then duplicate tools and action kinds.
   *
   * @param plugins the selected plugins, in input order
   * @return the environment
   * @throws EnvMergeException with the first failing step's code and fields
   */
  public static ResolvedExecutionEnv merge(List<Plugin> plugins) {
    Set<String> ids = new HashSet<>();
    for (Plugin p : plugins) {
      if (!ids.add(p.id())) {
        throw EnvMergeException.duplicatePlugin(p.id());
      }
    }
    for (Plugin p : plugins) {
      enforceBound(p.manifest(), p.contributions());
    }
    for (Plugin p : plugins) {
      for (String r : p.manifest().requires()) {
        if (!ids.contains(r)) {
          throw EnvMergeException.missingDependency(p.id(), r);
        }
      }
    }
    List<Plugin> ordered = topological(plugins);
    Map<String, String> toolOwner = new LinkedHashMap<>();
    Map<String, String> kindOwner = new LinkedHashMap<>();
    List<String> order = new ArrayList<>();
    List<ToolGate> gates = new ArrayList<>();
    for (Plugin p : ordered) {
      order.add(p.id());
      for (String t : p.contributions().tools()) {
        String first = toolOwner.putIfAbsent(t, p.id());
        if (first != null) {
          throw EnvMergeException.duplicate(BoundAxis.TOOL, t, first, p.id());
        }
      }
      for (String k : p.contributions().actionKinds()) {
        String first = kindOwner.putIfAbsent(k, p.id());
        if (first != null) {
          throw EnvMergeException.duplicate(BoundAxis.ACTION_KIND, k, first, p.id());
        }
      }
      gates.addAll(p.gates());
    }
    return new ResolvedExecutionEnv(
        order, new ArrayList<>(toolOwner.keySet()), new ArrayList<>(kindOwner.keySet()), gates);
  }

  /**
   * Checks every contribution against the manifest's bound: axes in declared order, ids in
   * declared order; the first violation fails.
   *
   * @param manifest the declaration
   * @param contributions the contributions
   * @throws EnvMergeException {@code boundViolation} with {@code axis}, {@code plugin}, {@code id}
   */
  public static void enforceBound(PluginManifest manifest, Contributions contributions) {
    for (BoundAxis axis : BoundAxis.values()) {
      IdBound bound = manifest.bound().axis(axis);
      for (String id : contributions.axis(axis)) {
        if (!bound.allows(id)) {
          throw EnvMergeException.boundViolation(manifest.id(), axis, id);
        }
      }
    }
  }

  // Kahn's algorithm; among the ready plugins the earliest in input order goes first
  private static List<Plugin> topological(List<Plugin> plugins) {
    List<Plugin> rest = new ArrayList<>(plugins);
    Set<String> placed = new HashSet<>();
    List<Plugin> out = new ArrayList<>();
    boolean progress = true;
    while (!rest.isEmpty() && progress) {
      progress = false;
      for (int i = 0; i < rest.size(); i++) {
        Plugin p = rest.get(i);
        if (placed.containsAll(p.manifest().requires())) {
          out.add(p);
          placed.add(p.id());
          rest.remove(i);
          progress = true;
          break;
        }
      }
    }
    if (!rest.isEmpty()) {
      List<String> cycle = new ArrayList<>();
      for (Plugin p : rest) {
        cycle.add(p.id());
      }
      throw EnvMergeException.dependencyCycle(cycle);
    }
    return out;
  }

  /**
   * The plugins in dependency order.
   *
   * @return plugin ids
   */
  public List<String> order() {
    return order;
  }

  /**
   * The contributed tools, in merge order.
   *
   * @return tool ids
   */
  public List<String> tools() {
    return tools;
  }

  /**
   * The contributed action kinds, in merge order.
   *
   * @return kind ids
   */
  public List<String> actionKinds() {
    return actionKinds;
  }

  /**
   * The plugin gates, in dependency order.
   *
   * @return the gates
   */
  public List<ToolGate> gates() {
    return gates;
  }

  /**
   * Whether a scheduled action of this kind is permitted: true exactly when some selected plugin
   * contributed it. There is no deny list; absence is denial.
   *
   * @param kind the action kind
   * @return true when permitted
   */
  public boolean permitsActionKind(String kind) {
    return actionKindSet.contains(kind);
  }
}

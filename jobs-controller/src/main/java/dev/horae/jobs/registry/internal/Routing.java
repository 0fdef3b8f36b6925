package dev.horae.jobs.registry.internal;

import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobReporter;
import dev.horae.spi.jobs.JobsChangedObserver;
import dev.horae.spi.plugin.Scope;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The registration layers and the scope-chain routing of jobs spec §2.14: a global layer plus one
 * layer per scope holding registrations, dropped when its last registration closes. Not
 * thread-safe: the registry calls it under its lock.
 */
public final class Routing {

  private final Layer global = new Layer();
  private final IdentityHashMap<Scope, Layer> layers = new IdentityHashMap<>();

  /**
   * Returns the layer of {@code scope}, creating it if needed.
   *
   * @param scope the scope; empty for the global layer
   * @return the layer
   */
  public Layer layer(Optional<Scope> scope) {
    return scope.isEmpty() ? global : layers.computeIfAbsent(scope.get(), s -> new Layer());
  }

  /**
   * Applies a removal to a layer and drops the layer when it became empty.
   *
   * @param scope the scope; empty for the global layer
   * @param removal the removal
   */
  public void remove(Optional<Scope> scope, Consumer<Layer> removal) {
    if (scope.isEmpty()) {
      removal.accept(global);
      return;
    }
    Layer layer = layers.get(scope.get());
    if (layer != null) {
      removal.accept(layer);
      if (layer.isEmpty()) {
        layers.remove(scope.get());
      }
    }
  }

  /**
   * Says whether a controller serves an owner with this chain.
   *
   * @param chain the owner's scope chain, farthest first
   * @param owned false for an unowned job (served only by a global controller)
   * @return true when start may proceed
   */
  public boolean serves(List<Scope> chain, boolean owned) {
    if (!global.controllers.isEmpty()) {
      return true;
    }
    if (!owned) {
      return false;
    }
    for (Scope s : chain) {
      Layer l = layers.get(s);
      if (l != null && !l.controllers.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The one controller that reports a settlement: the nearest on the chain, else a global one;
   * the earliest registered within a layer.
   *
   * @param chain the owner's scope chain, farthest first
   * @param owned false for an unowned job
   * @return the reporter, or empty when no controller is attached
   */
  public Optional<JobReporter> routedReporter(List<Scope> chain, boolean owned) {
    if (owned) {
      for (int i = chain.size() - 1; i >= 0; i--) {
        Layer l = layers.get(chain.get(i));
        if (l != null && !l.controllers.isEmpty()) {
          return Optional.of(l.controllers.get(0).reporter());
        }
      }
    }
    return global.controllers.isEmpty()
        ? Optional.empty()
        : Optional.of(global.controllers.get(0).reporter());
  }

  /**
   * Plain completion listeners: global layer first, then the chain from the farthest ancestor to
   * the exact scope, each in registration order.
   *
   * @param chain the owner's scope chain
   * @param owned false for an unowned job
   * @return the listeners
   */
  public List<JobDoneListener> listeners(List<Scope> chain, boolean owned) {
    List<JobDoneListener> out = new ArrayList<>();
    for (Layer l : reach(chain, owned)) {
      l.listeners.forEach(e -> out.add(e.listener()));
    }
    return out;
  }

  /**
   * Change observers, in the order of {@link #listeners}.
   *
   * @param chain the owner's scope chain
   * @param owned false for an unowned job
   * @return the observers
   */
  public List<JobsChangedObserver> observers(List<Scope> chain, boolean owned) {
    List<JobsChangedObserver> out = new ArrayList<>();
    for (Layer l : reach(chain, owned)) {
      l.observers.forEach(e -> out.add(e.observer()));
    }
    return out;
  }

  private List<Layer> reach(List<Scope> chain, boolean owned) {
    List<Layer> out = new ArrayList<>();
    out.add(global);
    if (owned) {
      for (Scope s : chain) {
        Layer l = layers.get(s);
        if (l != null) {
          out.add(l);
        }
      }
    }
    return out;
  }
}

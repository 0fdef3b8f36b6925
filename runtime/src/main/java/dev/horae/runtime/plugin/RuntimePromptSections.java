package dev.horae.runtime.plugin;

import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.PromptSection;
import dev.horae.spi.jobs.PromptSections;
import dev.horae.spi.jobs.ScopeChain;
import dev.horae.spi.plugin.Scope;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An in-memory system-prompt section registry: a section registered in a scope is seen by every
 * agent whose scope chain reaches it; an unscoped one by every agent. Thread-safe.
 */
public final class RuntimePromptSections implements PromptSections {

  private record Entry(Optional<Scope> scope, PromptSection section, long seq) {}

  private final ScopeChain chains;
  private final List<Entry> entries = new ArrayList<>();
  private long seq;

  /**
   * Creates an empty registry.
   *
   * @param chains resolves an agent's scope chain
   */
  public RuntimePromptSections(ScopeChain chains) {
    this.chains = chains;
  }

  @Override
  public synchronized Registration register(Optional<Scope> scope, PromptSection section) {
    Entry entry = new Entry(scope, section, seq++);
    entries.add(entry);
    AtomicBoolean closed = new AtomicBoolean();
    return () -> {
      if (closed.compareAndSet(false, true)) {
        synchronized (this) {
          entries.removeIf(e -> e.seq() == entry.seq());
        }
      }
    };
  }

  @Override
  public List<PromptSection> sectionsFor(Agent agent) {
    List<Scope> chain = chains.of(agent);
    List<Entry> visible = new ArrayList<>();
    synchronized (this) {
      for (Entry e : entries) {
        if (e.scope().isEmpty() || chain.stream().anyMatch(s -> s == e.scope().get())) {
          visible.add(e);
        }
      }
    }
    visible.sort(
        Comparator.comparingInt((Entry e) -> e.section().order()).thenComparingLong(Entry::seq));
    return visible.stream().map(Entry::section).toList();
  }
}

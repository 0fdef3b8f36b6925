package dev.horae.spi.gate;

import dev.horae.spi.Registration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/** The in-process chain behind {@link ToolGates#create()}. */
final class SimpleToolGates implements ToolGates {

  // identity wrappers so that registering the same gate twice yields two independent entries
  private static final class Entry {
    final ToolGate gate;

    Entry(ToolGate gate) {
      this.gate = gate;
    }
  }

  private final CopyOnWriteArrayList<Entry> plugins = new CopyOnWriteArrayList<>();
  private final AtomicReference<Entry> host = new AtomicReference<>();

  @Override
  public Registration register(ToolGate gate) {
    Entry entry = new Entry(Objects.requireNonNull(gate, "gate"));
    plugins.add(entry);
    return () -> plugins.remove(entry);
  }

  @Override
  public Registration registerHostGate(ToolGate gate) {
    Entry entry = new Entry(Objects.requireNonNull(gate, "gate"));
    if (!host.compareAndSet(null, entry)) {
      throw new IllegalStateException("a host tool gate is already set");
    }
    return () -> host.compareAndSet(entry, null);
  }

  @Override
  public List<ToolGate> gates() {
    List<ToolGate> out = new ArrayList<>();
    Entry h = host.get();
    if (h != null) {
      out.add(h.gate);
    }
    for (Entry e : plugins) {
      out.add(e.gate);
    }
    return List.copyOf(out);
  }
}

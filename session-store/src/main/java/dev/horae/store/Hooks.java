package dev.horae.store;

import dev.horae.spi.Registration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An ordered, thread-safe list of registered callbacks. Each registration is its own entry, so
 * registering the same callback twice runs it twice and closing one handle removes only its own
 * entry.
 */
final class Hooks<T> {

  private final CopyOnWriteArrayList<Entry<T>> entries = new CopyOnWriteArrayList<>();

  Registration add(T hook) {
    Entry<T> entry = new Entry<>(hook);
    entries.add(entry);
    AtomicBoolean closed = new AtomicBoolean();
    return () -> {
      if (closed.compareAndSet(false, true)) {
        entries.remove(entry);
      }
    };
  }

  /** The callbacks in registration order, as registered at the moment of the call. */
  List<T> snapshot() {
    return entries.stream().map(e -> e.hook).toList();
  }

  /** Identity-compared holder, so removal never confuses two registrations of one callback. */
  private static final class Entry<T> {
    final T hook;

    Entry(T hook) {
      this.hook = hook;
    }
  }
}

package dev.horae.store;

import dev.horae.spi.session.SessionEvent;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * The raw event array of one session, with O(1) immutable snapshots.
 *
 * <p>The log only grows, and a slot is written once, before the size that covers it is published.
 * A snapshot therefore keeps a reference to the array and a size: later appends write beyond that
 * size, and growth copies into a new array, so what a snapshot shows never changes. Not
 * thread-safe by itself: the owning session mutates and snapshots it under its lock.
 */
final class AppendOnlyLog {

  private static final int MIN_CAPACITY = 16;

  private SessionEvent[] items;
  private int size;

  AppendOnlyLog(List<SessionEvent> initial) {
    items = Arrays.copyOf(initial.toArray(new SessionEvent[0]), Math.max(MIN_CAPACITY, initial.size()));
    size = initial.size();
  }

  int size() {
    return size;
  }

  void addAll(List<SessionEvent> events) {
    int needed = size + events.size();
    if (needed > items.length) {
      items = Arrays.copyOf(items, Math.max(needed, items.length * 2));
    }
    for (SessionEvent e : events) {
      items[size++] = e;
    }
  }

  /** The whole log as it is now; never changes afterwards. */
  List<SessionEvent> snapshot() {
    return new Slice(items, 0, size);
  }

  /** The events from index {@code from} (clamped to the size) on, as they are now. */
  List<SessionEvent> from(int from) {
    int start = Math.min(from, size);
    return new Slice(items, start, size);
  }

  /** An immutable window {@code [start, end)} of a backing array whose window never changes. */
  private static final class Slice extends AbstractList<SessionEvent> implements RandomAccess {
    private final SessionEvent[] items;
    private final int start;
    private final int end;

    Slice(SessionEvent[] items, int start, int end) {
      this.items = items;
      this.start = start;
      this.end = end;
    }

    @Override
    public SessionEvent get(int index) {
      if (index < 0 || index >= end - start) {
        throw new IndexOutOfBoundsException("index " + index + " outside a list of " + (end - start));
      }
      return items[start + index];
    }

    @Override
    public int size() {
      return end - start;
    }
  }
}

package dev.horae.gate.runtime;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;

/**
 * An append-only list whose snapshots cost O(1): elements below a snapshot's size are never
 * overwritten, and growth copies into a new array, so a snapshot (array, size) stays immutable.
 * Not thread-safe for appends; the fold's lock guards it.
 */
final class AppendOnlyList<T> {

  private Object[] items = new Object[16];
  private int size;

  void add(T item) {
    if (size == items.length) {
      items = Arrays.copyOf(items, size * 2);
    }
    items[size++] = item;
  }

  void addAll(List<? extends T> more) {
    for (T t : more) {
      add(t);
    }
  }

  /** An immutable view of the elements appended so far. */
  List<T> snapshot() {
    return new Snapshot<>(items, size);
  }

  private static final class Snapshot<T> extends AbstractList<T> {
    private final Object[] items;
    private final int size;

    Snapshot(Object[] items, int size) {
      this.items = items;
      this.size = size;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T get(int index) {
      if (index < 0 || index >= size) {
        throw new IndexOutOfBoundsException(index);
      }
      return (T) items[index];
    }

    @Override
    public int size() {
      return size;
    }
  }
}

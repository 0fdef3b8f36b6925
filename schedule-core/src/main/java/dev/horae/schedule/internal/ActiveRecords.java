package dev.horae.schedule.internal;

import dev.horae.schedule.ScheduleRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;

/**
 * The active records of a fold, reachable two ways at once: by id in creation order (what
 * {@code schedule_list} and {@code schedule_delete} need) and by due order (what the live owner
 * needs, spec §12.3 step 3). Adding or removing a record costs O(log n); the earliest record is
 * read in O(1); listing costs O(records listed). Nothing ever scans the whole set.
 *
 * <p>Due order is the target's epoch milliseconds, then creation order: the heap's key is the pair
 * {@code (scheduledAtMillis, order)}, and because orders are unique the minimum is the record a
 * strict less-than scan in creation order would pick, so ties keep creation order (spec §12.3,
 * [S194, S214]).
 *
 * <p>The heap is indexed (each slot knows its position), so a delete or dispatch of any record
 * removes it at once instead of leaving a stale entry behind. Not thread-safe.
 */
public final class ActiveRecords {

  /** One active record with its heap key and position; 32 bytes with compressed references. */
  private static final class Slot {
    final long at;
    final ScheduleRecord record;
    final int order;
    int index;

    Slot(ScheduleRecord record, int order) {
      this.at = record.scheduledAtMillis();
      this.record = record;
      this.order = order;
    }

    boolean before(Slot other) {
      return at < other.at || (at == other.at && order < other.order);
    }
  }

  private static final Slot[] EMPTY = new Slot[0];

  private final LinkedHashMap<String, Slot> byId = new LinkedHashMap<>();
  private Slot[] heap = EMPTY;
  private int size;

  /** Creates an empty set. */
  public ActiveRecords() {}

  /**
   * An independent copy holding the same records with the same creation and due order.
   *
   * @return the copy
   */
  public ActiveRecords copy() {
    ActiveRecords out = new ActiveRecords();
    out.heap = new Slot[size];
    for (Slot s : byId.values()) {
      Slot t = new Slot(s.record, s.order);
      // same position: the copied array is a valid heap as it stands
      t.index = s.index;
      out.heap[t.index] = t;
      out.byId.put(t.record.id(), t);
    }
    out.size = size;
    return out;
  }

  /**
   * Adds a record whose id is not active.
   *
   * @param record the record
   * @param order its creation order, unique within the fold and increasing
   * @throws IllegalStateException when the id is already active
   */
  public void add(ScheduleRecord record, int order) {
    Slot slot = new Slot(record, order);
    if (byId.putIfAbsent(record.id(), slot) != null) {
      throw new IllegalStateException("id " + record.id() + " is already active");
    }
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, Math.max(16, size + (size >> 1)));
    }
    slot.index = size;
    heap[size++] = slot;
    siftUp(slot);
  }

  /**
   * Removes the active record with this id.
   *
   * @param id the id
   * @return true when it was active
   */
  public boolean remove(String id) {
    Slot slot = byId.remove(id);
    if (slot == null) {
      return false;
    }
    int at = slot.index;
    Slot last = heap[--size];
    heap[size] = null;
    if (last != slot) {
      last.index = at;
      heap[at] = last;
      // the moved slot may belong above or below the hole
      siftUp(last);
      siftDown(last);
    }
    if (heap.length > 64 && size < heap.length >> 2) {
      heap = Arrays.copyOf(heap, heap.length >> 1);
    }
    return true;
  }

  /**
   * Whether the id is active.
   *
   * @param id the id
   * @return true when active
   */
  public boolean contains(String id) {
    return byId.containsKey(id);
  }

  /**
   * The active record with this id.
   *
   * @param id the id
   * @return the record, or empty
   */
  public Optional<ScheduleRecord> get(String id) {
    Slot slot = byId.get(id);
    return slot == null ? Optional.empty() : Optional.of(slot.record);
  }

  /**
   * The earliest record in due order.
   *
   * @return the record, or empty when none is active
   */
  public Optional<ScheduleRecord> earliest() {
    return size == 0 ? Optional.empty() : Optional.of(heap[0].record);
  }

  /**
   * The number of active records.
   *
   * @return the count
   */
  public int size() {
    return size;
  }

  /**
   * The active records in creation order.
   *
   * @return an unmodifiable snapshot
   */
  public List<ScheduleRecord> inCreationOrder() {
    List<ScheduleRecord> out = new ArrayList<>(size);
    for (Slot s : byId.values()) {
      out.add(s.record);
    }
    return Collections.unmodifiableList(out);
  }

  private void siftUp(Slot slot) {
    int i = slot.index;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      Slot p = heap[parent];
      if (!slot.before(p)) {
        break;
      }
      place(p, i);
      i = parent;
    }
    place(slot, i);
  }

  private void siftDown(Slot slot) {
    int i = slot.index;
    int half = size >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      Slot c = heap[child];
      int right = child + 1;
      if (right < size && heap[right].before(c)) {
        child = right;
        c = heap[right];
      }
      if (!c.before(slot)) {
        break;
      }
      place(c, i);
      i = child;
    }
    place(slot, i);
  }

  private void place(Slot slot, int i) {
    heap[i] = slot;
    slot.index = i;
  }
}

package dev.horae.schedule.internal;

import dev.horae.schedule.ScheduleRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The ids and active records of a fold (spec §3.5), in one hash table: every id created in the
 * owned suffix maps to its active record's slot, or to {@code null} once the record was deleted or
 * dispatched. The active slots are also chained in creation order (what {@code schedule_list}
 * returns) and, once {@link #earliest()} has been asked for, kept in an indexed min-heap by due
 * order (what the live owner needs, spec §12.3 step 3).
 *
 * <p>Costs: a create or an end is O(1), or O(log n) once the heap exists; {@link #earliest()} is
 * O(1) after the first call, which builds the heap in O(n); listing is linear in the records
 * listed. Nothing scans the whole set. Folds that never ask for the earliest record (the invariant
 * companion's, a conformance fold) never build the heap.
 *
 * <p>Memory is the point of the layout: about 70 bytes per active record besides the record
 * itself (one hash node with its table share, and one 32-byte slot), plus 4 for the heap; an ended
 * id costs one hash node. A linked hash map of active records beside a hash set of seen ids cost
 * about 50 bytes more.
 *
 * <p>Due order is the target's epoch milliseconds, then creation order: the heap's key is the pair
 * {@code (scheduledAtMillis, order)}, and because orders are unique the minimum is the record a
 * strict less-than scan in creation order would pick, so ties keep creation order (spec §12.3,
 * [S194, S214]). Not thread-safe.
 */
public final class RecordIndex {

  /** One active record: its creation order, its heap position and its creation-order neighbours. */
  private static final class Slot {
    final ScheduleRecord record;
    final int order;
    int index = -1;
    @Nullable Slot prev;
    @Nullable Slot next;

    Slot(ScheduleRecord record, int order) {
      this.record = record;
      this.order = order;
    }

    boolean before(Slot other) {
      long at = record.scheduledAtMillis();
      long otherAt = other.record.scheduledAtMillis();
      return at < otherAt || (at == otherAt && order < other.order);
    }
  }

  private static final Slot[] EMPTY = new Slot[0];

  /** Every seen id; the value is the active slot, or null once the record ended. */
  private final HashMap<String, @Nullable Slot> ids = new HashMap<>();
  private @Nullable Slot first;
  private @Nullable Slot last;
  private int active;
  private int created;
  private boolean heapBuilt;
  private Slot[] heap = EMPTY;

  /** Creates an empty index. */
  public RecordIndex() {}

  /**
   * An independent copy with the same ids, records and orders.
   *
   * @return the copy
   */
  public RecordIndex copy() {
    RecordIndex out = new RecordIndex();
    for (var e : ids.entrySet()) {
      if (e.getValue() == null) {
        out.ids.put(e.getKey(), null);
      }
    }
    for (Slot s = first; s != null; s = s.next) {
      out.link(new Slot(s.record, s.order));
    }
    out.created = created;
    if (heapBuilt) {
      out.buildHeap();
    }
    return out;
  }

  /**
   * Whether the id was created in the owned suffix (active or ended).
   *
   * @param id the id
   * @return true when seen
   */
  public boolean seen(String id) {
    return ids.containsKey(id);
  }

  /**
   * Every seen id, as a live read-only view.
   *
   * @return the ids
   */
  public Set<String> seenIds() {
    return Collections.unmodifiableSet(ids.keySet());
  }

  /**
   * Adds a record whose id was never seen; it becomes the last in creation order.
   *
   * @param record the record
   * @throws IllegalStateException when the id was already seen
   */
  public void create(ScheduleRecord record) {
    if (ids.containsKey(record.id())) {
      throw new IllegalStateException("id " + record.id() + " was already seen");
    }
    link(new Slot(record, created++));
  }

  private void link(Slot slot) {
    ids.put(slot.record.id(), slot);
    slot.prev = last;
    if (last == null) {
      first = slot;
    } else {
      last.next = slot;
    }
    last = slot;
    active++;
    if (heapBuilt) {
      if (active > heap.length) {
        heap = Arrays.copyOf(heap, Math.max(16, active + (active >> 1)));
      }
      place(slot, active - 1);
      siftUp(slot);
    }
  }

  /**
   * Ends the active record with this id (a delete or a dispatch); the id stays seen.
   *
   * @param id the id
   * @return true when it was active
   */
  public boolean end(String id) {
    Slot slot = ids.get(id);
    if (slot == null) {
      return false;
    }
    ids.put(id, null);
    Slot prev = slot.prev;
    Slot next = slot.next;
    if (prev == null) {
      first = next;
    } else {
      prev.next = next;
    }
    if (next == null) {
      last = prev;
    } else {
      next.prev = prev;
    }
    active--;
    if (heapBuilt) {
      unheap(slot);
    }
    return true;
  }

  /**
   * Whether the id is active.
   *
   * @param id the id
   * @return true when active
   */
  public boolean isActive(String id) {
    return ids.get(id) != null;
  }

  /**
   * The active record with this id.
   *
   * @param id the id
   * @return the record, or empty
   */
  public Optional<ScheduleRecord> get(String id) {
    Slot slot = ids.get(id);
    return slot == null ? Optional.empty() : Optional.of(slot.record);
  }

  /**
   * The earliest active record in due order. The first call builds the due-order heap, which
   * later creates and ends keep up to date.
   *
   * @return the record, or empty when none is active
   */
  public Optional<ScheduleRecord> earliest() {
    if (!heapBuilt) {
      buildHeap();
    }
    return active == 0 ? Optional.empty() : Optional.of(heap[0].record);
  }

  /**
   * The number of active records.
   *
   * @return the count
   */
  public int activeCount() {
    return active;
  }

  /**
   * The active records in creation order.
   *
   * @return an unmodifiable snapshot
   */
  public List<ScheduleRecord> activeInCreationOrder() {
    List<ScheduleRecord> out = new ArrayList<>(active);
    for (Slot s = first; s != null; s = s.next) {
      out.add(s.record);
    }
    return Collections.unmodifiableList(out);
  }

  /** Floyd's bottom-up construction: O(n) over the active slots. */
  private void buildHeap() {
    heap = new Slot[Math.max(16, active + (active >> 1))];
    int i = 0;
    for (Slot s = first; s != null; s = s.next) {
      place(s, i++);
    }
    heapBuilt = true;
    for (int k = (active >>> 1) - 1; k >= 0; k--) {
      siftDown(heap[k]);
    }
  }

  private void unheap(Slot slot) {
    // active was already decremented: it is the index of the heap's last slot
    int at = slot.index;
    Slot tail = heap[active];
    heap[active] = null;
    slot.index = -1;
    if (tail != slot) {
      place(tail, at);
      // the moved slot may belong above or below the hole
      siftUp(tail);
      siftDown(tail);
    }
    if (heap.length > 64 && active < heap.length >> 2) {
      heap = Arrays.copyOf(heap, heap.length >> 1);
    }
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
    int half = active >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      Slot c = heap[child];
      int right = child + 1;
      if (right < active && heap[right].before(c)) {
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

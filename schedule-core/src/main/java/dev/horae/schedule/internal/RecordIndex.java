package dev.horae.schedule.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.schedule.ScheduleView;
import dev.horae.spi.json.FrozenJson;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The ids and active records of a fold (spec §3.5), in one compact hash table: every id created in
 * the owned suffix has one entry, in creation order, holding its active record's slot, or the id's
 * text once the record was deleted or dispatched. The active slots are also chained in creation
 * order (what {@code schedule_list} returns) and, once {@link #earliest()} has been asked for, kept
 * in an indexed min-heap by due order (what the live owner needs, spec §12.3 step 3).
 *
 * <p>Costs: a create or an end is O(1), or O(log n) once the heap exists; {@link #earliest()} is
 * O(1) after the first call, which builds the heap in O(n); listing is linear in the records
 * listed. Nothing scans the whole set. Folds that never ask for the earliest record (the invariant
 * companion's, a conformance fold) never build the heap.
 *
 * <p>Memory is the point of the layout (issue 19: a million pending reminders in a small heap). A
 * slot holds the record's fields itself, its id and prompt as {@link CompactText} (one byte a
 * character for Latin-1 text, no {@code String} object), and the record is built when it is asked
 * for: one 56-byte slot and the two texts' arrays per active record, plus about 10 bytes of table
 * (an entry reference and an open-addressing {@code int} index) and 4 of heap. The seen ids in
 * creation order are the entries themselves. Records come back equal to the ones created, not the
 * same objects.
 *
 * <p>Due order is the target's epoch milliseconds, then creation order: the heap's key is the pair
 * {@code (scheduledAtMillis, order)}, and because orders are unique the minimum is the record a
 * strict less-than scan in creation order would pick, so ties keep creation order (spec §12.3,
 * [S194, S214]). Not thread-safe.
 */
public final class RecordIndex {

  /**
   * One active record: its fields, its creation order (its entry's position), its heap position
   * and its creation-order neighbours.
   */
  private static final class Slot {
    final byte[] id;
    final byte[] prompt;
    final long scheduledAtMillis;
    /** The after record's delay; 0 for an at record (an after record's is at least 1). */
    final long afterSeconds;
    final int order;
    int index = -1;
    @Nullable Slot prev;
    @Nullable Slot next;
    final boolean idWide;
    final boolean promptWide;

    Slot(ScheduleRecord record, int order) {
      String idText = record.id();
      String promptText = record.prompt();
      this.idWide = CompactText.wide(idText);
      this.id = CompactText.of(idText, idWide);
      this.promptWide = CompactText.wide(promptText);
      this.prompt = CompactText.of(promptText, promptWide);
      this.scheduledAtMillis = record.scheduledAtMillis();
      this.afterSeconds = record instanceof ScheduleRecord.After a ? a.afterSeconds() : 0;
      this.order = order;
    }

    /** The same record at another order (a copy's). */
    Slot(Slot other) {
      this.id = other.id;
      this.prompt = other.prompt;
      this.idWide = other.idWide;
      this.promptWide = other.promptWide;
      this.scheduledAtMillis = other.scheduledAtMillis;
      this.afterSeconds = other.afterSeconds;
      this.order = other.order;
    }

    String id() {
      return CompactText.text(id, idWide);
    }

    ScheduleRecord record() {
      String p = CompactText.text(prompt, promptWide);
      return afterSeconds == 0
          ? new ScheduleRecord.At(id(), p, scheduledAtMillis)
          : new ScheduleRecord.After(id(), p, afterSeconds, scheduledAtMillis);
    }

    boolean before(Slot other) {
      long at = scheduledAtMillis;
      long otherAt = other.scheduledAtMillis;
      return at < otherAt || (at == otherAt && order < other.order);
    }
  }

  private static final Slot[] EMPTY = new Slot[0];
  private static final Object[] NO_ENTRIES = new Object[0];
  private static final int[] NO_TABLE = new int[0];

  /** Every seen id in creation order: its active {@link Slot}, or its {@code String} once ended. */
  private Object[] entries = NO_ENTRIES;
  /** How many entries there are; an entry's position is its record's creation order. */
  private int count;
  /**
   * Open addressing with linear probing over the entries: position + 1, 0 for a free cell. Entries
   * are never removed (seen ids only grow), so a probe ends at the first free cell.
   */
  private int[] table = NO_TABLE;
  private @Nullable Slot first;
  private @Nullable Slot last;
  private int active;
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
    out.entries = entries.clone();
    out.count = count;
    out.table = table.clone();
    for (Slot s = first; s != null; s = s.next) {
      Slot copy = new Slot(s);
      out.entries[copy.order] = copy;
      out.link(copy);
    }
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
    return find(id) >= 0;
  }

  /**
   * Every seen id, as a live read-only view (membership is a table lookup).
   *
   * @return the ids
   */
  public Set<String> seenIds() {
    return new AbstractSet<>() {
      @Override
      public boolean contains(Object o) {
        return o instanceof String s && find(s) >= 0;
      }

      @Override
      public int size() {
        return count;
      }

      @Override
      public Iterator<String> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < count;
          }

          @Override
          public String next() {
            if (next >= count) {
              throw new NoSuchElementException();
            }
            return idOf(entries[next++]);
          }
        };
      }
    };
  }

  /**
   * Every seen id in creation order.
   *
   * @return an unmodifiable snapshot
   */
  public List<String> seenInCreationOrder() {
    List<String> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(idOf(entries[i]));
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * Adds a record whose id was never seen; it becomes the last in creation order.
   *
   * @param record the record
   * @throws IllegalStateException when the id was already seen
   */
  public void create(ScheduleRecord record) {
    if (!tryCreate(record)) {
      throw new IllegalStateException("id " + record.id() + " was already seen");
    }
  }

  /**
   * Adds a record unless its id was already seen, with one probe of the table (a fold's create
   * checks and inserts in one step).
   *
   * @param record the record
   * @return false, changing nothing, when the id was already seen
   */
  public boolean tryCreate(ScheduleRecord record) {
    String id = record.id();
    int cell = probe(id);
    if (cell < 0) {
      return false;
    }
    Slot slot = new Slot(record, count);
    add(slot, cell, id.hashCode());
    link(slot);
    return true;
  }

  private void link(Slot slot) {
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
   * @return false when the id is not active (unknown or already ended)
   */
  public boolean end(String id) {
    int at = find(id);
    if (at < 0 || !(entries[at] instanceof Slot slot)) {
      return false;
    }
    entries[at] = id;
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
   * @return true when an active record has it
   */
  public boolean isActive(String id) {
    int at = find(id);
    return at >= 0 && entries[at] instanceof Slot;
  }

  /**
   * The active record with this id.
   *
   * @param id the id
   * @return the record, or empty when the id is unknown or ended
   */
  public Optional<ScheduleRecord> get(String id) {
    int at = find(id);
    return at >= 0 && entries[at] instanceof Slot slot ? Optional.of(slot.record()) : Optional.empty();
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
    return active == 0 ? Optional.empty() : Optional.of(heap[0].record());
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
      out.add(s.record());
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * The active records' views in creation order ({@code schedule_list}, spec §4.1 and §7), as a
   * lazy frozen array: it keeps the active slots as they are now (their texts and times never
   * change) and builds a row each time one is read, so no record, string or member map is kept
   * per row.
   *
   * @param nowMillis the wall clock in epoch milliseconds, sampled once by the caller
   * @return an immutable array node
   */
  public ArrayNode activeViews(long nowMillis) {
    Slot[] rows = new Slot[active];
    int n = 0;
    for (Slot s = first; s != null; s = s.next) {
      rows[n++] = s;
    }
    return FrozenJson.lazyArray(rows.length, i -> {
      Slot s = rows[i];
      return FrozenJson.object(new RecordMembers(
          s.id, s.idWide, s.prompt, s.promptWide, s.scheduledAtMillis, s.afterSeconds,
          ScheduleView.State.at(s.scheduledAtMillis, nowMillis)));
    });
  }

  private static String idOf(Object entry) {
    return entry instanceof Slot slot ? slot.id() : (String) entry;
  }

  /**
   * The id's first cell: the high bits of its hash times 2^32 / φ (Fibonacci hashing). Linear
   * probing needs scattered homes: allocated ids ({@code schedule-1}, {@code schedule-2}, …) have
   * nearly consecutive string hashes, and masking their low bits fills runs of adjacent cells that
   * every probe landing in one walks to its end.
   */
  private static int home(int hash, int[] table) {
    return scatter(hash) >>> (Integer.numberOfLeadingZeros(table.length) + 1);
  }

  private static int scatter(int hash) {
    return hash * 0x9E3779B9;
  }

  /**
   * The bits of a cell above its position: the scattered hash's low bits, which the home does not
   * use. A cell holds {@code position + 1} in its low bits (the table is more than a third larger
   * than the entries, so that fits below the table's length) and this tag above them, so a probe
   * passes a cell of another id without reading its entry (a read of the entry, then of its id's
   * bytes, for every cell a probe walks was most of a create's cost on a million-id open).
   */
  private static int tag(int hash, int[] table) {
    return scatter(hash) << (31 - Integer.numberOfLeadingZeros(table.length));
  }

  /** The entry position of this id, or -1 when it was never seen. */
  private int find(String id) {
    int cell = probe(id);
    return cell < 0 ? -1 - cell : -1;
  }

  /**
   * One probe for the id: {@code -1 - position} of its entry when it was seen, else the free cell
   * where it would be indexed (or {@link Integer#MAX_VALUE} while the table is empty).
   */
  private int probe(String id) {
    if (table.length == 0) {
      return Integer.MAX_VALUE;
    }
    int mask = table.length - 1;
    int hash = id.hashCode();
    int tag = tag(hash, table);
    for (int cell = home(hash, table); ; cell = (cell + 1) & mask) {
      int t = table[cell];
      if (t == 0) {
        return cell;
      }
      if ((t & ~mask) != tag) {
        continue;
      }
      int position = t & mask;
      Object entry = entries[position - 1];
      boolean same = entry instanceof Slot slot
          ? CompactText.equals(slot.id, slot.idWide, id)
          : entry.equals(id);
      if (same) {
        return -position;
      }
    }
  }

  /** Appends a new entry (an id never seen) and indexes it at the free cell its probe found. */
  private void add(Object entry, int freeCell, int hash) {
    if (count == entries.length) {
      entries = Arrays.copyOf(entries, Math.max(16, count + (count >> 1)));
    }
    entries[count] = entry;
    count++;
    // at most three quarters full, so probes stay short and always reach a free cell
    if (count * 4L > table.length * 3L) {
      // a new table: the cell found in the old one means nothing there
      rehash(Math.max(16, table.length * 2));
    } else {
      table[freeCell] = tag(hash, table) | count;
    }
  }

  private void index(int position, int hash) {
    int mask = table.length - 1;
    int cell = home(hash, table);
    while (table[cell] != 0) {
      cell = (cell + 1) & mask;
    }
    table[cell] = tag(hash, table) | (position + 1);
  }

  private void rehash(int capacity) {
    table = new int[capacity];
    for (int i = 0; i < count; i++) {
      Object entry = entries[i];
      int hash = entry instanceof Slot slot ? CompactText.hash(slot.id, slot.idWide) : entry.hashCode();
      index(i, hash);
    }
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

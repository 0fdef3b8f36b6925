package dev.horae.schedule;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.schedule.internal.RecordIndex;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The fold of a session's owned suffix (spec §3.5–§3.6), kept incrementally.
 *
 * <p>A fold covers the log up to {@link #position()}. {@link #absorbLog} and {@link #absorb} add
 * later events without re-reading the prefix; the state then equals a full {@link #fold} of the
 * longer log. A batch that fails leaves the fold exactly as it was, so the same corrupt suffix
 * fails again on the next call, as a full fold would.
 *
 * <p>Every operation the tools and the owner run on a live fold is independent of the log's length
 * and, but for logarithmic factors, of the number of active records: a create, delete or dispatch
 * is O(log n) (one id index plus an indexed due-order heap, maintained as each change is absorbed),
 * {@link #earliest()} is O(1) (its first call builds the heap, so a fold that never asks pays for
 * none), {@link #activeRecord} is O(1), and {@link #active()} is linear in the records it returns.
 *
 * <p>Not thread-safe: one owner (the per-agent queue) mutates it at a time.
 */
public final class ScheduleFold {

  private static final String SEED_MESSAGE =
      "schedule seedLength must be within the supplied event log";

  private final long seedLength;
  private long position;
  /** The active records and every seen id, in creation order; replaced when a first batch fails. */
  private RecordIndex index;
  /** The number {@link #allocateId()} last returned; the seen ids only grow (spec §3.7). */
  private long allocated;

  private ScheduleFold(long seedLength) {
    this.seedLength = seedLength;
    this.position = seedLength;
    this.index = new RecordIndex();
  }

  private ScheduleFold(ScheduleFold other) {
    this.seedLength = other.seedLength;
    this.position = other.position;
    this.index = other.index.copy();
    this.allocated = other.allocated;
  }

  /**
   * An empty fold for a log whose first {@code seedLength} events are inherited and never read.
   *
   * @param seedLength the header's {@code seedLength}, 0 when absent
   * @return a fold at position {@code seedLength}
   * @throws CorruptScheduleLogException when {@code seedLength} is negative or not safe
   */
  public static ScheduleFold start(long seedLength) {
    if (seedLength < 0 || !EcmaNumbers.isSafeInteger(seedLength)) {
      throw new CorruptScheduleLogException(SEED_MESSAGE);
    }
    return new ScheduleFold(seedLength);
  }

  /**
   * {@code fold(events, seedLength)}: a full fold of a log.
   *
   * @param events the raw log, including any inherited prefix
   * @param seedLength the header's {@code seedLength}, 0 when absent
   * @return the active records and seen ids
   * @throws CorruptScheduleLogException with the spec message when the owned suffix is corrupt or
   *     {@code seedLength} is outside {@code [0, events.size()]}
   */
  public static ScheduleState fold(List<SessionEvent> events, long seedLength) {
    if (seedLength < 0 || seedLength > events.size()) {
      throw new CorruptScheduleLogException(SEED_MESSAGE);
    }
    ScheduleFold fold = new ScheduleFold(seedLength);
    // a fresh fold is discarded on failure, so it may apply without staging
    fold.applyDirect(events.subList((int) seedLength, events.size()));
    return fold.state();
  }

  /**
   * {@code fold(events, seedLength)} with {@code seedLength} as the JSON value a caller outside
   * Java passes: a value that is not a safe integer (a fraction, a string, {@code NaN}) fails the
   * same input check as one outside the log (spec §3.5).
   *
   * @param events the raw log, including any inherited prefix
   * @param seedLength the {@code seedLength} value, any JSON
   * @return the active records and seen ids
   * @throws CorruptScheduleLogException as {@link #fold(List, long)}, and when {@code seedLength}
   *     is not a safe integer
   */
  public static ScheduleState fold(List<SessionEvent> events, JsonNode seedLength) {
    OptionalLong n = EcmaNumbers.safeInteger(seedLength);
    if (n.isEmpty()) {
      throw new CorruptScheduleLogException(SEED_MESSAGE);
    }
    return fold(events, n.getAsLong());
  }

  /**
   * Absorbs the events of {@code log} beyond {@link #position()}. {@code log} must be the same
   * append-only log this fold has covered so far, now possibly longer.
   *
   * @param log the whole raw log
   * @return this fold
   * @throws CorruptScheduleLogException when the new events do not fold, or when the log is
   *     shorter than {@code seedLength}; the fold is then unchanged
   * @throws IllegalStateException when the log is shorter than the covered position
   */
  public ScheduleFold absorbLog(List<SessionEvent> log) {
    if (log.size() < seedLength) {
      throw new CorruptScheduleLogException(SEED_MESSAGE);
    }
    if (log.size() < position) {
      throw new IllegalStateException(
          "the log has " + log.size() + " events but the fold already covers " + position);
    }
    return absorb(log.subList((int) position, log.size()));
  }

  /**
   * Absorbs events that directly follow the covered position.
   *
   * @param appended the next events of the log, in order
   * @return this fold
   * @throws CorruptScheduleLogException when they do not fold; the fold is then unchanged
   */
  public ScheduleFold absorb(List<SessionEvent> appended) {
    if (index.seenIds().isEmpty()) {
      absorbIntoEmpty(appended);
      return this;
    }
    List<ScheduleChange> changes = new ArrayList<>();
    for (SessionEvent event : appended) {
      if (event.type().equals(EventTypes.SCHEDULE_CHANGE)) {
        changes.add(ChangeCodec.decode(event));
      }
    }
    if (changes.size() > 1) {
      // a batch is checked whole before any change is applied, so a failure leaves no trace
      check(changes);
    }
    for (ScheduleChange change : changes) {
      // a single change is checked against the state by apply itself, before it mutates anything
      apply(change);
    }
    position += appended.size();
    return this;
  }

  /**
   * {@link #absorb} into a fold that has seen no id yet (the fold of a session being opened, over
   * its whole log). Such a fold has nothing a failed batch could spoil but its index, so each change
   * is applied as it is decoded and a failure starts the index again: no list of the log's changes
   * and no sets of its ids, which on a million-event open were two short-lived copies of the log's
   * ids that every young collection copied. The error is the staged path's: the first change that
   * does not decode, else the first that does not apply.
   */
  private void absorbIntoEmpty(List<SessionEvent> appended) {
    CorruptScheduleLogException notApplied = null;
    boolean done = false;
    try {
      for (SessionEvent event : appended) {
        if (!event.type().equals(EventTypes.SCHEDULE_CHANGE)) {
          continue;
        }
        // the persisted text is read without a parser (CanonicalChange); a decode failure ends
        // the batch as the first error
        ScheduleChange change = ChangeCodec.decode(event);
        if (notApplied == null) {
          try {
            apply(change);
          } catch (CorruptScheduleLogException e) {
            // the rest is still decoded: a change that does not decode is the batch's error
            notApplied = e;
          }
        }
      }
      if (notApplied != null) {
        throw notApplied;
      }
      done = true;
    } finally {
      if (!done) {
        index = new RecordIndex();
      }
    }
    position += appended.size();
  }

  /** Applies one change, or throws before touching the state. */
  private void apply(ScheduleChange change) {
    String id = change.id();
    if (change instanceof ScheduleChange.Create create) {
      // one table probe both checks the id was never seen and inserts it
      if (!index.tryCreate(create.record())) {
        throw reused(id);
      }
    } else if (!index.end(id)) {
      throw inactive(change);
    }
  }

  /** Checks a batch against the state plus the batch's own earlier changes, changing nothing. */
  private void check(List<ScheduleChange> changes) {
    Set<String> created = new HashSet<>();
    Set<String> createdActive = new HashSet<>();
    Set<String> ended = new HashSet<>();
    for (ScheduleChange change : changes) {
      String id = change.id();
      if (change instanceof ScheduleChange.Create) {
        if (index.seen(id) || !created.add(id)) {
          throw reused(id);
        }
        createdActive.add(id);
      } else if (!createdActive.remove(id) && !(index.isActive(id) && ended.add(id))) {
        throw inactive(change);
      }
    }
  }

  private void applyDirect(List<SessionEvent> events) {
    for (SessionEvent event : events) {
      if (event.type().equals(EventTypes.SCHEDULE_CHANGE)) {
        apply(ChangeCodec.decode(event));
      }
    }
    position += events.size();
  }

  private static CorruptScheduleLogException reused(String id) {
    return new CorruptScheduleLogException(
        "schedule id " + EcmaJson.string(id) + " was reused");
  }

  private static CorruptScheduleLogException inactive(ScheduleChange change) {
    return new CorruptScheduleLogException(
        "schedule "
            + change.operation()
            + " targets inactive id "
            + EcmaJson.string(change.id()));
  }

  /**
   * An independent copy, for callers that want to try a batch without touching this fold.
   *
   * @return a copy at the same position
   */
  public ScheduleFold copy() {
    return new ScheduleFold(this);
  }

  /**
   * The number of log events covered, inherited prefix included.
   *
   * @return the next index this fold will read
   */
  public long position() {
    return position;
  }

  /**
   * The inherited prefix length this fold skips.
   *
   * @return {@code seedLength}
   */
  public long seedLength() {
    return seedLength;
  }

  /**
   * The active records in creation order.
   *
   * @return an immutable copy
   */
  public List<ScheduleRecord> active() {
    return index.activeInCreationOrder();
  }

  /**
   * The active records' views in creation order: the {@code schedule_list} value (spec §4.1, §7
   * step 6) as a frozen array of lazy rows, one clock sample for all of them. Linear in the active
   * records; no record object is built.
   *
   * @param nowMillis the wall clock in epoch milliseconds, sampled once by the caller
   * @return an immutable array node: {@code ScheduleView.of(record, nowMillis).toTree()} of each
   *     active record, in creation order
   */
  public ArrayNode activeViews(long nowMillis) {
    return index.activeViews(nowMillis);
  }

  /**
   * The number of active records.
   *
   * @return the count
   */
  public int activeCount() {
    return index.activeCount();
  }

  /**
   * Every id created in the owned suffix, in creation order.
   *
   * @return an immutable copy
   */
  public List<String> seenIds() {
    return index.seenInCreationOrder();
  }

  /**
   * The active record with this id.
   *
   * @param id a schedule id
   * @return the record, or empty when the id is unknown, deleted or dispatched
   */
  public Optional<ScheduleRecord> activeRecord(String id) {
    return index.get(id);
  }

  /**
   * The active record with the earliest target; ties keep creation order (strict less-than).
   * Constant time once the due order exists: the first call builds it, then it is kept as changes
   * are absorbed.
   *
   * @return the earliest record, or empty when nothing is active
   */
  public Optional<ScheduleRecord> earliest() {
    return index.earliest();
  }

  /**
   * {@code allocateId(seenIds)} over this fold's seen ids, without copying them. Each call resumes
   * the search where the last one ended (the seen ids only grow), so a log whose ids crowd the
   * numbers above the seen count costs one walk past them in all, not one per create.
   *
   * @return the next free {@code schedule-N}
   */
  public String allocateId() {
    allocated = ScheduleIds.firstFree(index.seenIds(), allocated);
    return ScheduleIds.PREFIX + allocated;
  }

  /**
   * A snapshot of the fold.
   *
   * @return the active records and seen ids
   */
  public ScheduleState state() {
    return new ScheduleState(active(), seenIds());
  }
}

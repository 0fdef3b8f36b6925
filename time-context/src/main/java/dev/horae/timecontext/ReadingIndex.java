package dev.horae.timecontext;

import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.zone.ClientZones;
import dev.horae.timecontext.internal.Events;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The facts a reading needs from a session log, kept up to date one event at a time so a step
 * never rescans the whole log (spec §5, §6, §9).
 *
 * <p>The index is a disposable projection of the durable log: it holds nothing the log does not,
 * and {@link #of} rebuilds it from the raw events (for example after a resume). It remembers the
 * latest reading (for the refresh gate, including readings shadowed by compaction or inherited
 * from a fork), the latest model-visible message (the step-1 baseline), the latest
 * {@code turn/start} and the client zones recorded since it.
 *
 * <p>Not thread-safe: callers serialize access per session.
 */
public final class ReadingIndex {

  private long size;
  private Optional<SessionEvent> last = Optional.empty();
  private long lastReadingPos = -1;
  private long lastReadingTime;
  private OptionalLong lastVisibleTime = OptionalLong.empty();
  private long lastTurnStartPos = -1;
  private OptionalLong lastTurnStartTurn = OptionalLong.empty();
  /** Distinct client-zone values after the latest turn/start, in first-seen order. */
  private final LinkedHashSet<String> zonesSinceTurnStart = new LinkedHashSet<>();

  /** Creates the index of an empty log. */
  public ReadingIndex() {}

  /**
   * Builds the index of a whole log.
   *
   * @param events the raw events in log order
   * @return the index
   */
  public static ReadingIndex of(List<SessionEvent> events) {
    // Read from the tail: every fact the index keeps is the latest of its kind, so the scan stops
    // once it has seen the latest reading, the latest model-visible message and the latest
    // turn/start. A restarted process's first step costs the log's last turn, not the whole log
    // (the result equals applying every event in order; ReadingIndexTest compares the two).
    ReadingIndex index = new ReadingIndex();
    index.size = events.size();
    if (events.isEmpty()) {
      return index;
    }
    index.last = Optional.of(events.get(events.size() - 1));
    List<String> zonesAfterLatestStart = new ArrayList<>();
    boolean reading = false;
    boolean visible = false;
    boolean turnStart = false;
    for (int i = events.size() - 1; i >= 0 && !(reading && visible && turnStart); i--) {
      SessionEvent event = events.get(i);
      String type = event.type();
      if (type.equals(EventTypes.TURN_START)) {
        if (!turnStart) {
          turnStart = true;
          index.lastTurnStartPos = i;
          index.lastTurnStartTurn = Events.integer(event.data(), "turn");
        }
        continue;
      }
      if (!visible && Events.isModelVisible(type)) {
        visible = true;
        index.lastVisibleTime = OptionalLong.of(event.time());
      }
      if (type.equals(EventTypes.USER_MESSAGE)) {
        if (!reading && Events.isAttributedSource(event.data().path("source"))) {
          reading = true;
          index.lastReadingPos = i;
          index.lastReadingTime = event.time();
        }
        if (!turnStart) {
          ClientZones.contributedZone(event.data()).ifPresent(zonesAfterLatestStart::add);
        }
      }
    }
    if (turnStart) {
      // collected newest first; the index keeps them in first-seen (log) order
      for (int i = zonesAfterLatestStart.size() - 1; i >= 0; i--) {
        index.zonesSinceTurnStart.add(zonesAfterLatestStart.get(i));
      }
    }
    return index;
  }

  /**
   * Adds the next event of the log.
   *
   * @param event the event that follows the last one applied
   */
  public void apply(SessionEvent event) {
    long pos = size++;
    last = Optional.of(event);
    String type = event.type();
    if (type.equals(EventTypes.TURN_START)) {
      lastTurnStartPos = pos;
      lastTurnStartTurn = Events.integer(event.data(), "turn");
      zonesSinceTurnStart.clear();
      return;
    }
    if (Events.isModelVisible(type)) {
      lastVisibleTime = OptionalLong.of(event.time());
    }
    if (type.equals(EventTypes.USER_MESSAGE)) {
      if (Events.isAttributedSource(event.data().path("source"))) {
        lastReadingPos = pos;
        lastReadingTime = event.time();
      }
      if (lastTurnStartPos >= 0) {
        ClientZones.contributedZone(event.data()).ifPresent(zonesSinceTurnStart::add);
      }
    }
  }

  /**
   * The number of events applied; for a session log, the seq of the next event to apply.
   *
   * @return the count
   */
  public long size() {
    return size;
  }

  /**
   * The last event applied, so a caller can check that the log it continues from is the one
   * indexed.
   *
   * @return the last event, or empty for an empty log
   */
  public Optional<SessionEvent> lastEvent() {
    return last;
  }

  /**
   * The time of the latest time-context reading anywhere in the log (spec §5 step 1).
   *
   * @return the event time, or empty when the log holds no reading
   */
  public OptionalLong lastReadingTime() {
    return lastReadingPos < 0 ? OptionalLong.empty() : OptionalLong.of(lastReadingTime);
  }

  /**
   * The refresh gate of spec §5: whether a reading is due at {@code now}.
   *
   * @param now the sampled wall-clock time in epoch milliseconds
   * @param refreshIntervalMs the configured interval; 0 means always due
   * @return true to inject, false to skip
   */
  public boolean due(long now, long refreshIntervalMs) {
    if (refreshIntervalMs == 0 || lastReadingPos < 0 || now < lastReadingTime) {
      return true;
    }
    // now >= last, so the unsigned difference is exact even where the signed one would overflow
    return Long.compareUnsigned(now - lastReadingTime, refreshIntervalMs) >= 0;
  }

  /**
   * The elapsed baseline of spec §6.
   *
   * @param turn the turn being prepared
   * @param step the step being prepared
   * @param log the whole raw log, read only in the rare case that the latest {@code turn/start} is
   *     not the prepared turn's
   * @return the baseline event time, or empty for {@code unavailable}
   */
  public OptionalLong baseline(long turn, long step, Supplier<List<SessionEvent>> log) {
    if (step == 1) {
      return lastVisibleTime;
    }
    if (lastReadingPos > lastTurnStartPos) {
      return OptionalLong.of(lastReadingTime);
    }
    if (isLatestTurnStart(turn)) {
      return OptionalLong.empty();
    }
    List<SessionEvent> events = log.get();
    for (int i = events.size() - 1; i >= 0; i--) {
      SessionEvent e = events.get(i);
      if (Events.isTurnStartOf(e, turn)) {
        return OptionalLong.empty();
      }
      if (Events.isAttributedReading(e)) {
        return OptionalLong.of(e.time());
      }
    }
    return OptionalLong.empty();
  }

  /**
   * The client-zone values recorded after the last {@code turn/start} of {@code turn}, in log
   * order with repeats removed (spec §4 step 6).
   *
   * @param turn the turn
   * @param log the whole raw log, read only when the latest {@code turn/start} is another turn's
   * @return the raw values to validate and classify
   */
  public List<String> clientZoneValues(long turn, Supplier<List<SessionEvent>> log) {
    if (isLatestTurnStart(turn)) {
      return List.copyOf(zonesSinceTurnStart);
    }
    List<SessionEvent> events = log.get();
    int start = -1;
    for (int i = events.size() - 1; i >= 0; i--) {
      if (Events.isTurnStartOf(events.get(i), turn)) {
        start = i;
        break;
      }
    }
    List<String> values = new ArrayList<>();
    if (start < 0) {
      return values;
    }
    LinkedHashSet<String> distinct = new LinkedHashSet<>();
    for (SessionEvent e : events.subList(start + 1, events.size())) {
      if (e.type().equals(EventTypes.USER_MESSAGE)) {
        ClientZones.contributedZone(e.data()).ifPresent(distinct::add);
      }
    }
    values.addAll(distinct);
    return values;
  }

  private boolean isLatestTurnStart(long turn) {
    return lastTurnStartTurn.isPresent() && lastTurnStartTurn.getAsLong() == turn;
  }
}

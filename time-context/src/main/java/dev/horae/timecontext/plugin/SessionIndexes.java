package dev.horae.timecontext.plugin;

import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.timecontext.ReadingIndex;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.function.Function;

/**
 * One {@link ReadingIndex} per live session, caught up with the session's log before each use.
 *
 * <p>The indexes are a disposable projection of the durable log, never a source of truth: before
 * each use the index checks that the log still continues the last event it saw, and rebuilds
 * itself from the raw log when it does not (a fresh process, a resumed or replaced session). A
 * step therefore reads only the events appended since the previous step, however long the log is.
 * Sessions are held weakly, so a session dropped by the host drops its index.
 */
final class SessionIndexes {

  private final Map<Session, Slot> slots = Collections.synchronizedMap(new WeakHashMap<>());

  /** A session's index and the lock that serializes its use. */
  private static final class Slot {
    private ReadingIndex index = new ReadingIndex();
  }

  /**
   * Runs {@code work} with the session's index brought up to date with its log.
   *
   * @param session the live session
   * @param work reads the index; must not append to the session
   * @param <T> the result type
   * @return what {@code work} returned
   */
  <T> T withIndex(Session session, Function<ReadingIndex, T> work) {
    Slot slot = slots.computeIfAbsent(session, s -> new Slot());
    synchronized (slot) {
      slot.index = caughtUp(slot.index, session);
      return work.apply(slot.index);
    }
  }

  void clear() {
    slots.clear();
  }

  private static ReadingIndex caughtUp(ReadingIndex index, Session session) {
    Optional<SessionEvent> last = index.lastEvent();
    if (last.isEmpty()) {
      return ReadingIndex.of(session.eventsFrom(0));
    }
    List<SessionEvent> tail = session.eventsFrom(index.size() - 1);
    if (tail.isEmpty() || !tail.get(0).equals(last.get())) {
      // the log is not the one indexed: start again from the raw events
      return ReadingIndex.of(session.eventsFrom(0));
    }
    tail.subList(1, tail.size()).forEach(index::apply);
    return index;
  }
}

package dev.horae.store;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Computes a session's due time — when something in its log next needs the session open — from
 * its events, incrementally. A store given an indexer keeps a {@link DueIndex}: it feeds each
 * persist's new events to the session's tracker and writes the answer in the same persist.
 *
 * <p>The store knows no event format: what "due" means is the indexer's (for reminders, Schedule's
 * {@code ScheduleDueIndex::track}, the earliest active reminder of the session's fold). Its shape
 * uses JDK types only, so a plugin can offer one as a plain static method without depending on a
 * store ({@code docs/architecture.md}, "Layering rules"), and the host passes it as a method
 * reference.
 */
@FunctionalInterface
public interface DueIndexer {

  /**
   * A fresh tracker for one session. The store calls it with the session's events in order: the
   * first call from seq 0, each later call with the events that directly follow those of the call
   * before. Each call answers the session's due time after every event it was given so far. A
   * tracker is used by one thread at a time; the store drops it (and starts a new one from seq 0)
   * whenever a persist it was fed is refused, so it need not undo anything.
   *
   * @param header the session's header (a fork's {@code seedLength}, for instance)
   * @return the tracker: next events → the due time in epoch milliseconds, or empty when nothing is
   *     due; it may throw when the log cannot be read (the store then indexes the session as not due
   *     and warns)
   */
  Function<List<SessionEvent>, OptionalLong> track(SessionHeader header);

  /**
   * An indexer whose due time is the earliest of its parts': how one store indexes what several
   * modules make due (Schedule's reminders and the gate's scheduled actions, say), each knowing only
   * its own events. Every part gets its own tracker per session and is fed every batch.
   *
   * @param parts the indexers (at least one)
   * @return the composed indexer; its tracker answers the minimum of the parts' answers, or empty
   *     when none is due, and throws when a part throws (the store then indexes the session as not
   *     due and warns, as for a single indexer)
   * @throws IllegalArgumentException when no part is given
   */
  static DueIndexer earliestOf(DueIndexer... parts) {
    List<DueIndexer> all = List.of(parts);
    if (all.isEmpty()) {
      throw new IllegalArgumentException("earliestOf needs at least one indexer");
    }
    return header -> {
      List<Function<List<SessionEvent>, OptionalLong>> trackers = new ArrayList<>();
      for (DueIndexer part : all) {
        trackers.add(Objects.requireNonNull(part.track(header), "a due indexer returned no tracker"));
      }
      return events -> {
        OptionalLong earliest = OptionalLong.empty();
        for (Function<List<SessionEvent>, OptionalLong> t : trackers) {
          OptionalLong due = Objects.requireNonNull(t.apply(events), "a due tracker answered null");
          if (due.isPresent() && (earliest.isEmpty() || due.getAsLong() < earliest.getAsLong())) {
            earliest = due;
          }
        }
        return earliest;
      };
    };
  }
}

package dev.horae.schedule.tools;

import dev.horae.schedule.ScheduleFold;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Schedule's due time of a session, for a store's due index: the target of the earliest active
 * reminder of the session's fold (spec §3.5–§3.6, the record the owner picks in §12.3 step 3), or
 * nothing when no reminder is active. The fold is the one the tools and the owner use, kept
 * incrementally, so a persist costs only the events it adds.
 *
 * <p>The shape is JDK types only, so a host passes it to a store without Schedule depending on one
 * ({@code docs/architecture.md}, "Layering rules"): {@code FileSessionStore.open(root, sync,
 * ScheduleDueIndex::track)}, or {@code HoraeRuntime.builder().dueIndexer(ScheduleDueIndex::track)}.
 */
public final class ScheduleDueIndex {

  private ScheduleDueIndex() {}

  /**
   * A tracker of one session: fed its events from seq 0 on, in order, it answers after each batch
   * the epoch milliseconds of the earliest active reminder's {@code scheduledAt}. A fork's
   * inherited prefix ({@code seedLength}) is skipped, as every Schedule consumer skips it (§3.6).
   *
   * @param header the session's header
   * @return the tracker; it throws {@link dev.horae.schedule.CorruptScheduleLogException} when the
   *     owned suffix does not fold, as the owner's fold would
   */
  public static Function<List<SessionEvent>, OptionalLong> track(SessionHeader header) {
    long seedLength = header.seedLength();
    ScheduleFold fold = ScheduleFold.start(seedLength);
    long[] seen = {0};
    return events -> {
      int skip = (int) Math.max(0, Math.min(events.size(), seedLength - seen[0]));
      fold.absorb(events.subList(skip, events.size()));
      seen[0] += events.size();
      return fold.earliest().map(ScheduleRecord::scheduledAtMillis).map(OptionalLong::of).orElse(OptionalLong.empty());
    };
  }
}

package dev.horae.schedule.tools.internal;

import dev.horae.schedule.CorruptScheduleLogException;
import dev.horae.schedule.ScheduleFold;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.util.List;

/**
 * The folded Schedule state of one live session, kept incrementally (issue 4 "no refold per
 * call"): each refresh absorbs only the events appended since the last one, read with
 * {@link Session#eventsFrom}, so a call on a long log does not scan or copy it.
 *
 * <p>Also tracks whether the log holds any {@code schedule/change} at all (inherited prefix
 * included), which gates the idle-status recompute (spec §11).
 */
public final class FoldCache {

  private final Session session;
  private final ScheduleFold fold;
  private long scanned;
  private boolean anyChange;

  /**
   * Creates the cache for a session; nothing is read yet.
   *
   * @param session the live session
   */
  public FoldCache(Session session) {
    this.session = session;
    this.fold = ScheduleFold.start(session.header().seedLength());
  }

  /**
   * Absorbs new events and returns the up-to-date fold. Call only inside the agent's FIFO.
   *
   * @return the fold, covering the whole current log
   * @throws CorruptScheduleLogException when the owned suffix does not fold (the fold is then
   *     unchanged, so the next call fails the same way)
   */
  public synchronized ScheduleFold refresh() {
    if (session.length() < fold.seedLength()) {
      throw new CorruptScheduleLogException(
          "schedule seedLength must be within the supplied event log");
    }
    List<SessionEvent> fresh = session.eventsFrom(fold.position());
    fold.absorb(fresh);
    return fold;
  }

  /**
   * Whether any {@code schedule/change} exists anywhere in the log; scans only new events.
   *
   * @return true once a change has been seen
   */
  public synchronized boolean hasAnyChange() {
    if (!anyChange) {
      for (SessionEvent e : session.eventsFrom(scanned)) {
        if (e.type().equals(EventTypes.SCHEDULE_CHANGE)) {
          anyChange = true;
          break;
        }
      }
      scanned = session.length();
    }
    return anyChange;
  }
}

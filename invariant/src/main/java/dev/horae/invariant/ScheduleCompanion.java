package dev.horae.invariant;

import dev.horae.invariant.internal.SessionStates;
import dev.horae.schedule.CorruptScheduleLogException;
import dev.horae.schedule.ScheduleFold;
import dev.horae.spi.invariant.InvariantChecks;
import dev.horae.spi.invariant.InvariantFail;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Schedule's invariant companion (schedule spec §13), component {@code tool-schedule-invariant},
 * owner {@link Owners#SCHEDULE}: the fold of schedule-core with the header's {@code seedLength},
 * applied to whole logs and to every candidate {@code schedule/change}.
 *
 * <p>Only the owned suffix {@code events[seedLength..]} is read, so a corrupt event in an
 * inherited prefix is never checked [S222]. Other event types are not checked. A fold failure's
 * exact spec text becomes the violation message, e.g. {@code schedule delete targets inactive id
 * "missing"}.
 */
public final class ScheduleCompanion implements LogCompanion {

  private static final ScheduleCompanion INSTANCE = new ScheduleCompanion();

  private ScheduleCompanion() {}

  /**
   * The companion.
   *
   * @return the shared stateless instance
   */
  public static ScheduleCompanion instance() {
    return INSTANCE;
  }

  @Override
  public String owner() {
    return Owners.SCHEDULE;
  }

  @Override
  public Optional<LogFinding> checkAppend(SessionHeader header, List<SessionEvent> log, SessionEvent candidate) {
    if (!candidate.type().equals(EventTypes.SCHEDULE_CHANGE)) {
      return Optional.empty();
    }
    List<SessionEvent> extended = new ArrayList<>(log.size() + 1);
    extended.addAll(log);
    extended.add(candidate);
    try {
      ScheduleFold.fold(extended, header.seedLength());
      return Optional.empty();
    } catch (CorruptScheduleLogException e) {
      return Optional.of(LogFinding.at(owner(), candidate.seq(), e.reason()));
    }
  }

  /**
   * The installed checks keep each session's fold between appends, so a candidate costs only the
   * events appended since the previous check; the verdicts equal {@link #checkAppend}'s.
   *
   * @param fail the invariant service's fail function
   * @return checks with their own per-session cache
   */
  @Override
  public InvariantChecks checks(InvariantFail fail) {
    InvariantChecks whole = LogCompanion.super.checks(fail);
    SessionStates<ScheduleFold> folds = new SessionStates<>();
    return new InvariantChecks() {
      @Override
      public void checkSession(SessionHeader header, List<SessionEvent> log) {
        whole.checkSession(header, log);
      }

      @Override
      public void checkAppend(SessionHeader header, List<SessionEvent> log, SessionEvent candidate) {
        if (!candidate.type().equals(EventTypes.SCHEDULE_CHANGE)) {
          return;
        }
        if (header.seedLength() > log.size()) {
          whole.checkAppend(header, log, candidate);
          return;
        }
        int seed = (int) header.seedLength();
        try {
          folds.check(header.id(), log, candidate, seed, () -> ScheduleFold.start(seed),
              ScheduleCompanion::absorb, ScheduleCompanion::absorb);
        } catch (CorruptScheduleLogException e) {
          throw fail.fail(e.reason());
        }
      }
    };
  }

  /** A failed absorb leaves the fold as it was, so a vetoed candidate leaves no trace. */
  private static void absorb(ScheduleFold fold, SessionEvent event) {
    if (event.type().equals(EventTypes.SCHEDULE_CHANGE)) {
      fold.absorb(List.of(event));
    }
  }

  @Override
  public List<LogFinding> checkLog(SessionHeader header, List<SessionEvent> log) {
    long seedLength = header.seedLength();
    ScheduleFold fold;
    try {
      if (seedLength > log.size()) {
        // the same text the fold reports for a seed outside the log
        ScheduleFold.fold(log, seedLength);
      }
      fold = ScheduleFold.start(seedLength);
    } catch (CorruptScheduleLogException e) {
      return List.of(new LogFinding(owner(), OptionalLong.empty(), e.reason(), true));
    }
    List<LogFinding> found = new ArrayList<>();
    for (SessionEvent event : log.subList((int) seedLength, log.size())) {
      if (!event.type().equals(EventTypes.SCHEDULE_CHANGE)) {
        continue;
      }
      try {
        // a failed absorb leaves the fold as it was: the event counts as vetoed
        fold.absorb(List.of(event));
      } catch (CorruptScheduleLogException e) {
        found.add(LogFinding.at(owner(), event.seq(), e.reason()));
      }
    }
    return List.copyOf(found);
  }
}

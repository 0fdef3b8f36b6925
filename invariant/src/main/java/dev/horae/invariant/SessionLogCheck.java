package dev.horae.invariant;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Checks a whole stored session log offline with every log companion: what {@code invariant
 * check} runs on each session it reads, and what the test guard runs on each live log.
 */
public final class SessionLogCheck {

  private SessionLogCheck() {}

  /**
   * Every violation in one log, ordered by seq (log-wide findings first), then by companion.
   *
   * @param header the session header
   * @param log the raw log, contiguous from seq 0
   * @return the violations; empty when the log is valid
   */
  public static List<LogFinding> check(SessionHeader header, List<SessionEvent> log) {
    List<LogFinding> found = new ArrayList<>();
    for (LogCompanion companion : Companions.logCompanions()) {
      found.addAll(companion.checkLog(header, log));
    }
    // stable sort: companions keep their order within one seq
    found.sort(Comparator.comparingLong(f -> f.seq().orElse(-1L)));
    return List.copyOf(found);
  }

  /**
   * Every violation one candidate append would cause.
   *
   * @param header the session header
   * @param log the log before the candidate
   * @param candidate the candidate
   * @return the violations, one per companion that rejects it
   */
  public static List<LogFinding> checkAppend(SessionHeader header, List<SessionEvent> log, SessionEvent candidate) {
    List<LogFinding> found = new ArrayList<>();
    for (LogCompanion companion : Companions.logCompanions()) {
      companion.checkAppend(header, log, candidate).ifPresent(found::add);
    }
    return List.copyOf(found);
  }
}

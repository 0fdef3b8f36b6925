package dev.horae.spi.invariant;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.List;

/**
 * The checks a companion installs. Each throws (usually the violation made by its
 * {@link InvariantFail}) to reject.
 */
public interface InvariantChecks {

  /**
   * Checks a whole log: at registration (every live session) and when a session is created,
   * forked or resumed.
   *
   * @param header the header
   * @param log the log
   */
  default void checkSession(SessionHeader header, List<SessionEvent> log) {}

  /**
   * Checks one candidate append.
   *
   * @param header the header
   * @param log the log before the candidate
   * @param candidate the candidate with its seq and time assigned
   */
  default void checkAppend(SessionHeader header, List<SessionEvent> log, SessionEvent candidate) {}
}

package dev.horae.spi.session;

import java.util.List;

/**
 * A pre-append validator (host contract §3.6): runs inside {@code append}, before the event is
 * added, on the appending thread. Throwing vetoes the append: the log stays unchanged, no observer
 * runs and the exception reaches the appender.
 */
@FunctionalInterface
public interface AppendValidator {

  /**
   * Checks one candidate event.
   *
   * @param header the session's header
   * @param log the log as it stands before the candidate (for an atomic multi-event append, it
   *     already holds the batch's earlier candidates)
   * @param candidate the event as it would be committed (its {@code seq} and {@code time} assigned)
   * @throws RuntimeException to veto the append
   */
  void validate(SessionHeader header, List<SessionEvent> log, SessionEvent candidate);
}

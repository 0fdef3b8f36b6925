package dev.horae.spi.session;

import java.util.List;

/**
 * Runs when a session is created, seeded by fork, or resumed, before it becomes visible (host
 * contract §3.6). Throwing makes the create, fork or resume fail; the session is not registered.
 */
@FunctionalInterface
public interface SessionCreatedListener {

  /**
   * Checks the new session.
   *
   * @param header its header
   * @param log its initial log (the seed, the resumed events, or empty)
   * @throws RuntimeException to refuse the session
   */
  void onCreated(SessionHeader header, List<SessionEvent> log);
}

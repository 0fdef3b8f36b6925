package dev.horae.spi.session;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Makes a session's log durable when the library asks for a checkpoint (host contract §4.2).
 * Must be safe to call repeatedly with an unchanged log.
 */
@FunctionalInterface
public interface DurabilityListener {

  /**
   * Makes the given log durable. The list is an atomic snapshot: it never splits an atomic
   * multi-event append.
   *
   * @param header the session's header
   * @param log the whole raw log at the moment of the flush
   * @return a stage that completes normally once the log is durable, or exceptionally
   */
  CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log);
}

package dev.horae.schedule.tools.internal;

import dev.horae.spi.session.Session;
import dev.horae.spi.session.Sessions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Preflight and barrier flushes (spec §9.3): {@code false}, an exceptional stage and a synchronous
 * throw all mean "persistence uncertain".
 */
public final class Flushes {

  private Flushes() {}

  /**
   * Flushes and reports whether durability was proven.
   *
   * @param sessions the sessions service
   * @param session the session
   * @return a stage with true only when the flush completed with {@code true}; never exceptional
   */
  public static CompletionStage<Boolean> confirmed(Sessions sessions, Session session) {
    CompletionStage<Boolean> flush;
    try {
      flush = sessions.flush(session);
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(false);
    }
    return flush.handle((ok, failure) -> failure == null && Boolean.TRUE.equals(ok));
  }
}

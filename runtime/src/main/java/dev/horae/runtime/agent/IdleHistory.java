package dev.horae.runtime.agent;

import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How long an idle agent keeps its model-visible history projection. A driver extends the
 * projection by the events each turn added, so back-to-back turns never re-read the log; an agent
 * that then stays idle for the retention releases it, so an idle agent holds nothing that grows
 * with its turns, and its next turn projects the log once again (the cost of that turn grows with
 * the log, like opening the session does). A zero retention releases it as soon as the agent is
 * idle; {@link #keep()} never releases it.
 */
public final class IdleHistory {

  /** The retention a runtime uses unless told otherwise: one minute. */
  public static final Duration DEFAULT_RETENTION = Duration.ofMinutes(1);

  private static final IdleHistory KEEP = new IdleHistory(null, null);

  private final @Nullable Timers timers;
  private final @Nullable Duration retention;

  private IdleHistory(@Nullable Timers timers, @Nullable Duration retention) {
    this.timers = timers;
    this.retention = retention;
  }

  /**
   * Releases the projection once the agent stayed idle for {@code retention}.
   *
   * @param retention how long the agent must stay idle; zero or more
   * @param timers the injected monotonic timers the release is scheduled on
   * @return the policy
   * @throws IllegalArgumentException when {@code retention} is negative
   */
  public static IdleHistory after(Duration retention, Timers timers) {
    Objects.requireNonNull(timers, "timers");
    return new IdleHistory(timers, checked(retention));
  }

  /**
   * Checks a retention; the runtime's builder refuses a bad one when it is given.
   *
   * @param retention the retention
   * @return {@code retention}
   * @throws IllegalArgumentException when it is negative
   */
  public static Duration checked(Duration retention) {
    Objects.requireNonNull(retention, "retention");
    if (retention.isNegative()) {
      throw new IllegalArgumentException("idle history retention must be zero or more, got " + retention);
    }
    return retention;
  }

  /**
   * Never releases the projection. The test host uses it: its manual timers are counted by the
   * plugins' tests and the conformance scenarios, where a release timer of the host's own would
   * be noise; the release itself is the production runtime's, tested there.
   *
   * @return the policy
   */
  public static IdleHistory keep() {
    return KEEP;
  }

  /** Runs {@code release} after the retention (at once when it is zero); never for {@link #keep()}. */
  Cancellable schedule(Runnable release) {
    Timers t = timers;
    Duration d = retention;
    if (t == null || d == null) {
      return () -> {};
    }
    if (d.isZero()) {
      release.run();
      return () -> {};
    }
    return t.schedule(d, release);
  }
}

package dev.horae.benchmarks;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.ScheduleChange;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.StoredSession;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongUnaryOperator;

/**
 * Runtimes for the Schedule benchmarks: the production {@link HoraeRuntime} over a chosen store
 * (no invariant companion is registered, so only Schedule's own work is measured), on a fixed or
 * the system clock; and logs pre-filled with reminders, appended straight to the session so a
 * benchmark's setup does not pay one tool call per reminder.
 */
public final class ScheduleHosts {

  /** The wall clock a fixed-clock runtime reads. */
  public static final Instant START = Instant.parse("2026-08-05T12:00:00Z");

  private ScheduleHosts() {}

  /** A store that proves every flush at once and keeps nothing, so flush is excluded from a figure. */
  public static final class InstantStore implements SessionStore {
    /** Creates the store. */
    public InstantStore() {}

    @Override
    public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public Optional<StoredSession> load(String id) {
      return Optional.empty();
    }

    @Override
    public Set<String> ids() {
      return Set.of();
    }
  }

  /** A runtime and the warnings it reported. */
  public static final class Hosted implements AutoCloseable {
    private final HoraeRuntime horae;
    private final List<String> warnings;

    private Hosted(HoraeRuntime horae, List<String> warnings) {
      this.horae = horae;
      this.warnings = warnings;
    }

    /**
     * The runtime.
     *
     * @return it
     */
    public HoraeRuntime horae() {
      return horae;
    }

    /**
     * Every warning so far.
     *
     * @return the messages
     */
    public List<String> warnings() {
      synchronized (warnings) {
        return List.copyOf(warnings);
      }
    }

    @Override
    public void close() {
      horae.close();
    }
  }

  /**
   * A runtime over {@code store}; Schedule not yet installed.
   *
   * @param store where flushes go (the runtime does not close it)
   * @param systemClock true for the system clock (the live owner wakes as in production), false
   *     for a clock fixed at {@link #START} (timers are the system's either way)
   * @return the runtime
   */
  public static Hosted runtime(SessionStore store, boolean systemClock) {
    List<String> warnings = Collections.synchronizedList(new ArrayList<>());
    HoraeRuntime.Builder b = HoraeRuntime.builder().store(store).warnings((message, cause) -> warnings.add(message));
    if (!systemClock) {
      b.clock(InstantSource.fixed(START));
    }
    return new Hosted(b.build(), warnings);
  }

  /**
   * Installs Schedule.
   *
   * @param host the host
   * @return the installation
   */
  public static SchedulePlugin.ScheduleInstallation install(Host host) {
    return SchedulePlugin.create().install(host);
  }

  /**
   * Appends {@code count} creates of {@code at} reminders, ids {@code schedule-1…}, with the target
   * of reminder {@code i} (0-based) given by {@code target}.
   *
   * @param session the session
   * @param count how many
   * @param target epoch milliseconds of reminder {@code i}
   */
  public static void fill(Session session, int count, LongUnaryOperator target) {
    for (int i = 0; i < count; i++) {
      session.append(EventTypes.SCHEDULE_CHANGE, ChangeCodec.encode(new ScheduleChange.Create(
          new ScheduleRecord.At("schedule-" + (i + 1), "reminder number " + i, target.applyAsLong(i)))));
    }
  }
}

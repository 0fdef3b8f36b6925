package dev.horae.benchmarks;

import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.ScheduleChange;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.invariant.InvariantService;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.ScopeHandle;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.DurabilityListener;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.Sessions;
import dev.horae.spi.time.IdSource;
import dev.horae.spi.time.SystemTime;
import dev.horae.spi.time.Timers;
import dev.horae.spi.tool.ToolRegistry;
import dev.horae.testkit.TestHost;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;

/**
 * Hosts for the Schedule benchmarks: the testkit host with a chosen durability listener (and
 * invariants off, so only Schedule's own work is measured), optionally on the real system clock and
 * timers; and logs pre-filled with reminders, appended straight to the session so a benchmark's
 * setup does not pay one tool call per reminder.
 */
public final class ScheduleHosts {

  /** The wall clock the testkit host starts at. */
  public static final Instant START = Instant.parse("2026-08-05T12:00:00Z");

  private ScheduleHosts() {}

  /**
   * A flush listener that proves every flush at once and keeps nothing, so flush is excluded from a
   * figure (the testkit's own store would copy the whole log on every flush).
   *
   * @param header the session's header
   * @param log the log
   * @return a completed stage
   */
  public static CompletionStage<Void> instant(SessionHeader header, List<SessionEvent> log) {
    return CompletableFuture.completedFuture(null);
  }

  /**
   * A testkit host (manual time) whose flushes go to {@code durability} alone. The testkit's store
   * is registered only as the persistence service Schedule requires to be present; Schedule never
   * calls it.
   *
   * @param durability the flush listener
   * @return the host, Schedule not yet installed
   */
  public static TestHost testHost(DurabilityListener durability) {
    TestHost host = TestHost.builder().start(START).persistence(false).invariants(false).build();
    host.sessions().onFlush(durability);
    host.provide(SessionStore.class, host.store());
    return host;
  }

  /**
   * Installs Schedule.
   *
   * @param host the host
   * @return the installation
   */
  public static SchedulePlugin.ScheduleInstallation install(Host host) {
    return new SchedulePlugin().install(host);
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

  /**
   * The testkit host seen with the system wall clock and {@link SystemTime}'s monotonic timers,
   * so the live owner wakes and reads the clock as in production. Everything else is the testkit
   * host's. Close it to stop the timer thread.
   */
  public static final class RealTime implements Host, AutoCloseable {
    private final TestHost host;
    private final SystemTime time = new SystemTime();

    /**
     * Wraps a testkit host.
     *
     * @param host the host
     */
    public RealTime(TestHost host) {
      this.host = host;
    }

    /**
     * The wrapped host, for its test controls.
     *
     * @return the testkit host
     */
    public TestHost testHost() {
      return host;
    }

    @Override
    public Sessions sessions() {
      return host.sessions();
    }

    @Override
    public AgentRegistry agents() {
      return host.agents();
    }

    @Override
    public ToolRegistry tools() {
      return host.tools();
    }

    @Override
    public InvariantService invariants() {
      return host.invariants();
    }

    @Override
    public InstantSource wallClock() {
      return SystemTime.wallClock();
    }

    @Override
    public Timers timers() {
      return time;
    }

    @Override
    public Supplier<ZoneId> processZone() {
      return host.processZone();
    }

    @Override
    public IdSource ids() {
      return host.ids();
    }

    @Override
    public WarningSink warnings() {
      return host.warnings();
    }

    @Override
    public <T> Optional<T> service(Class<T> type) {
      return host.service(type);
    }

    @Override
    public ScopeHandle newPluginScope() {
      return host.newPluginScope();
    }

    @Override
    public void close() {
      time.close();
    }
  }
}

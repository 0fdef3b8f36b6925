package dev.horae.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.JdbcSessionStore;
import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link ReplayBenchmark}'s opens through the JDBC store (issue 19, item 4: "the same for the JDBC
 * store's load path"): the same log of {@code events} {@code schedule/change} events, stored in an
 * embedded PostgreSQL on loopback in the store's layout: segments of 32 events, the last event a
 * row of its own.
 *
 * <ul>
 *   <li>{@link #load}: the store's load — the header, then the segments and the rows in seq order
 *       (a binary {@code COPY} each), each one's bytes decoded into compact events;
 *   <li>{@link #openAgent}: a {@link HoraeRuntime} over the store with time-context and Schedule
 *       installed opens the session's agent (the load, the live session, the fold, the owner, the
 *       index), then closes.
 * </ul>
 *
 * <p>One operation is one whole open, timed once ({@code SingleShotTime}).
 */
@SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-Xms4g", "-XX:+AlwaysPreTouch"})
public class JdbcReplayBenchmark {

  private static final String ID = "replay";

  /** Rows a setup persist appends at a time. */
  private static final int CHUNK = 10_000;

  /** Events in the stored log. */
  @Param({"100000", "1000000"})
  public int events;

  private BenchPostgres server;
  private HikariDataSource pool;

  /** Creates the state; JMH calls it. */
  public JdbcReplayBenchmark() {}

  /**
   * Starts the server, creates the tables and stores the log, {@value #CHUNK} events a persist.
   *
   * @throws IOException when the server cannot start
   * @throws SQLException when the database cannot be created
   */
  @Setup(Level.Trial)
  public void write() throws IOException, SQLException {
    server = BenchPostgres.start();
    pool = server.freshDatabase(4);
    List<SessionEvent> log = ScheduleLogs.log(events);
    SessionHeader header = SessionHeader.root(ID, ScheduleLogs.EVENT_TIME, Optional.of("UTC"));
    JdbcSessionStore store = JdbcSessionStore.create(pool);
    store.migrate();
    for (int end = Math.min(CHUNK, log.size()); ; end = Math.min(end + CHUNK, log.size())) {
      store.persist(header, log.subList(0, end)).toCompletableFuture().join();
      if (end == log.size()) {
        break;
      }
    }
  }

  /**
   * Drops the database and stops the server.
   *
   * @throws IOException when the server cannot be stopped
   * @throws SQLException when the database cannot be dropped
   */
  @TearDown(Level.Trial)
  public void stop() throws IOException, SQLException {
    server.dropAndClose(pool);
  }

  /**
   * Loads the session through the JDBC store.
   *
   * @return the stored session
   */
  @Benchmark
  public StoredSession load() {
    return JdbcSessionStore.create(pool).load(ID).orElseThrow();
  }

  /**
   * Opens the session's agent on a runtime over the JDBC store with time-context and Schedule
   * installed.
   *
   * @return the number of events the live session holds
   */
  @Benchmark
  public long openAgent() {
    return ReplayBenchmark.openAgent(HoraeRuntime.builder().store(JdbcSessionStore.create(pool)), ID);
  }
}

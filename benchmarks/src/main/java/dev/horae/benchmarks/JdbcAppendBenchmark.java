package dev.horae.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a persist of one event costs the JDBC store, as an agent's session grows a few events a
 * step: {@link #appendOne} persists the log one {@code schedule/change} event longer than stored
 * (embedded PostgreSQL on loopback, one connection). Every 32nd persist also seals the rows of a
 * full segment inside the database (the write side of the load's segments), so the figure is the
 * mean over both kinds.
 */
@SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class JdbcAppendBenchmark {

  /** Events one session grows to before the next session starts. */
  private static final int LONGEST = 100_000;

  private BenchPostgres server;
  private HikariDataSource pool;
  private JdbcSessionStore store;
  private List<SessionEvent> log;
  private SessionHeader header;
  private int sessions;
  private int stored;

  /** Creates the state; JMH calls it. */
  public JdbcAppendBenchmark() {}

  /**
   * Starts the server and creates the tables.
   *
   * @throws IOException when the server cannot start
   * @throws SQLException when the database cannot be created
   */
  @Setup(Level.Trial)
  public void start() throws IOException, SQLException {
    server = BenchPostgres.start();
    pool = server.freshDatabase(1);
    store = JdbcSessionStore.create(pool);
    store.migrate();
    log = ScheduleLogs.log(LONGEST);
    next();
  }

  private void next() {
    header = SessionHeader.root("append-" + sessions++, ScheduleLogs.EVENT_TIME, Optional.of("UTC"));
    stored = 0;
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
   * Persists the log one event longer than stored.
   *
   * @return the new length
   */
  @Benchmark
  public int appendOne() {
    if (stored == LONGEST) {
      next();
    }
    store.persist(header, log.subList(0, ++stored)).toCompletableFuture().join();
    return stored;
  }
}

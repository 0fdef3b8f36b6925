package dev.horae.benchmarks;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.FileSessionStore;
import dev.horae.store.SyncMode;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * Opening a big session from the file store (issue 19, item 4): a log of {@code events}
 * {@code schedule/change} events (creates, dispatches and deletes of a realistic handful of live
 * reminders, about 190 bytes of JSON each), written one event per line as Schedule's barrier
 * flushes write them.
 *
 * <ul>
 *   <li>{@link #load}: open the store and load the session — read every line, verify its CRC32C,
 *       parse and decode its events;
 *   <li>{@link #openAgent}: a {@link HoraeRuntime} on the folder with time-context and Schedule
 *       installed opens the session's agent: the load above, the live session, Schedule's fold and
 *       owner, time-context's index, then closes again.
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
public class ReplayBenchmark {

  private static final String ID = "replay";

  /** Events in the stored log. */
  @Param({"100000", "1000000"})
  public int events;

  private Path root;

  /** Creates the state; JMH calls it. */
  public ReplayBenchmark() {}

  /**
   * Writes the log, one line per event, without forcing (the figure is the read, not the write).
   *
   * @throws IOException when the temporary folder cannot be made
   */
  @Setup(Level.Trial)
  public void write() throws IOException {
    root = Files.createTempDirectory("horae-replay");
    List<SessionEvent> log = ScheduleLogs.log(events);
    SessionHeader header = SessionHeader.root(ID, ScheduleLogs.EVENT_TIME, Optional.of("UTC"));
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      for (int i = 1; i <= log.size(); i++) {
        store.persist(header, log.subList(0, i)).toCompletableFuture().join();
      }
    }
  }

  /**
   * Deletes the folder.
   *
   * @throws IOException when it cannot be deleted
   */
  @TearDown(Level.Trial)
  public void delete() throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /**
   * Loads the session through the file store.
   *
   * @return the stored session
   */
  @Benchmark
  public StoredSession load() {
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      return store.load(ID).orElseThrow();
    }
  }

  /**
   * Opens the session's agent on a runtime with time-context and Schedule installed.
   *
   * @return the number of events the live session holds
   */
  @Benchmark
  public long openAgent() {
    return openAgent(HoraeRuntime.builder().dataDir(root), ID);
  }

  /**
   * Opens a stored session's agent on a runtime with time-context and Schedule installed, then
   * closes the runtime.
   *
   * @param runtime the runtime's builder, its store set
   * @param id the session
   * @return the number of events the live session held
   */
  static long openAgent(HoraeRuntime.Builder runtime, String id) {
    // the log's clock, so no reminder of it is overdue and the open appends nothing
    InstantSource clock = InstantSource.fixed(Instant.ofEpochMilli(ScheduleLogs.EVENT_TIME));
    try (HoraeRuntime horae = runtime.clock(clock).build()) {
      horae.install(TimeContextPlugin.create());
      horae.install(SchedulePlugin.create());
      RuntimeAgent agent = horae.openAgent(id);
      return agent.session().length();
    }
  }
}

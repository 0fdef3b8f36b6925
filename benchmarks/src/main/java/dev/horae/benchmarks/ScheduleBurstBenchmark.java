package dev.horae.benchmarks;

import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Session;
import dev.horae.spi.time.SystemTime;
import dev.horae.store.FileSessionStore;
import dev.horae.runtime.agent.RuntimeAgent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
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
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.jspecify.annotations.Nullable;

/**
 * Burst delivery (issue 19): {@code count} reminders of one session come due within
 * {@code spreadMs} milliseconds (0: all at the same instant), on the system clock and
 * {@link SystemTime}'s timers, with flushes proven at once ({@code instant}) or by the crash-safe
 * file store with fsync ({@code file}). No model is attached, so each reminder is queued as a
 * followup and the agent is idle again at once: the figure is the live owner's own delivery rate
 * (one maintenance claim, one dispatch append and two flushes per reminder, schedule spec §12.3–§12.4).
 *
 * <p>One operation is one whole burst, from the owner's start (about {@value #LEAD_MS} ms before
 * the first target) until the last dispatch barrier; read the lateness figures, not the score. Each reminder's lateness (the system clock when its dispatch is appended, minus its
 * target) is collected over the measured operations; the teardown prints p50, p99 and max.
 */
@SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class ScheduleBurstBenchmark {

  /** Reminders in the burst. */
  @Param({"10000"})
  public int count;

  /** The targets are spread evenly over this many milliseconds; 0 makes them all one instant. */
  @Param({"0", "2000"})
  public int spreadMs;

  /** {@code instant} or {@code file}. */
  @Param({"instant", "file"})
  public String store;

  /**
   * Time from setup until the first target: more than the setup and the owner's first fold take,
   * so the owner arms a real timer and wakes on it.
   */
  private static final long LEAD_MS = 500;

  private final InstantSource clock = SystemTime.wallClock();
  private final List<long[]> measured = new ArrayList<>();
  private boolean measuring;
  private @Nullable Path dir;
  private @Nullable FileSessionStore files;
  private ScheduleHosts.Hosted host;
  private SchedulePlugin.ScheduleInstallation installation;
  private Session session;
  private long firstTarget;
  private long[] lateMicros;
  private CountDownLatch delivered;

  /**
   * Whether this iteration's operation counts.
   *
   * @param iteration the iteration's parameters
   */
  @Setup(Level.Iteration)
  public void phase(IterationParams iteration) {
    measuring = iteration.getType() == IterationType.MEASUREMENT;
  }

  /** A fresh host and session holding the burst; the owner is not started yet. */
  @Setup(Level.Invocation)
  public void setUp() throws IOException {
    dev.horae.spi.session.SessionStore durability = new ScheduleHosts.InstantStore();
    if (store.equals("file")) {
      Path folder = Files.createTempDirectory("horae-burst");
      FileSessionStore opened = FileSessionStore.open(folder);
      dir = folder;
      files = opened;
      durability = opened;
    } else if (!store.equals("instant")) {
      throw new IllegalArgumentException("store must be instant or file: " + store);
    }
    host = ScheduleHosts.runtime(durability, true);
    installation = ScheduleHosts.install(host.horae());
    session = host.horae().sessions().create(CreateOptions.DEFAULT);
    long now = clock.millis();
    firstTarget = now + LEAD_MS;
    ScheduleHosts.fill(session, count, i -> firstTarget + i * (long) spreadMs / count);
    lateMicros = new long[count];
    delivered = new CountDownLatch(count);
    var unused = host.horae().sessions().onEvent((s, e) -> {
      if (s == session && e.type().equals(EventTypes.SCHEDULE_CHANGE)
          && e.data().path("operation").asText().equals("dispatch")) {
        String id = e.data().path("id").asText();
        int i = Integer.parseInt(id.substring("schedule-".length())) - 1;
        long target = firstTarget + i * (long) spreadMs / count;
        Instant at = clock.instant();
        lateMicros[i] = (at.getEpochSecond() * 1_000_000L + at.getNano() / 1_000) - target * 1_000L;
        delivered.countDown();
      }
    });
    // the first persist writes the whole burst once, outside the measurement
    host.horae().sessions().flush(session).toCompletableFuture().join();
  }

  /**
   * Starts the owner (adoption), waits until every reminder is dispatched, then until the owner
   * settled (the last dispatch barrier).
   *
   * @return the agent
   * @throws Exception when interrupted, or when the burst was not delivered in ten minutes
   */
  @Benchmark
  public RuntimeAgent burst() throws Exception {
    RuntimeAgent agent = host.horae().openAgent(session.id());
    if (!delivered.await(10, TimeUnit.MINUTES)) {
      throw new IllegalStateException(delivered.getCount() + " reminders were not delivered");
    }
    installation.close().toCompletableFuture().get(1, TimeUnit.MINUTES);
    if (!host.warnings().isEmpty()) {
      throw new IllegalStateException("owner warnings: " + host.warnings());
    }
    return agent;
  }

  /** Keeps the latenesses of a measured burst and releases the host. */
  @TearDown(Level.Invocation)
  public void tearDown() throws IOException {
    if (measuring) {
      measured.add(lateMicros);
    }
    host.close();
    FileSessionStore opened = files;
    Path folder = dir;
    if (opened != null && folder != null) {
      opened.close();
      files = null;
      dir = null;
      try (Stream<Path> paths = Files.walk(folder)) {
        for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }
  }

  /** Prints the lateness percentiles over every measured burst. */
  @TearDown(Level.Trial)
  public void report() {
    long[] all = measured.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    if (all.length == 0) {
      return;
    }
    System.out.printf(
        "%nLATENESS store=%s count=%d spreadMs=%d bursts=%d: p50 %.3f ms, p99 %.3f ms, max %.3f ms%n",
        store, count, spreadMs, measured.size(),
        all[all.length / 2] / 1e3, all[(int) (all.length * 0.99)] / 1e3, all[all.length - 1] / 1e3);
  }
}

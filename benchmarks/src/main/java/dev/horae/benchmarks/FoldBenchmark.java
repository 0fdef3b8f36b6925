package dev.horae.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.schedule.ScheduleFold;
import dev.horae.schedule.ScheduleState;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import java.util.List;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The schedule fold (schedule spec §3.5–§3.6): a full {@link ScheduleFold#fold} of a log of
 * {@code events} schedule changes, as when an owner adopts a session, and the incremental {@link
 * ScheduleFold#absorb} of one appended change, as on every live append.
 */
@SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class FoldBenchmark {

  /** Number of {@code schedule/change} events in the log. */
  @Param({"1000", "100000"})
  public int events;

  private List<SessionEvent> log;
  private ScheduleFold folded;
  private ScheduleFold live;
  private long appended;

  /** Builds the log and its fold once per parameter value. */
  @Setup(Level.Trial)
  public void buildLog() {
    log = ScheduleLogs.log(events);
    folded = ScheduleFold.start(0).absorbLog(log);
  }

  /**
   * Starts each iteration from the fold of the original log, so the ids absorbed by the previous
   * iteration do not pile up.
   */
  @Setup(Level.Iteration)
  public void freshLiveFold() {
    live = folded.copy();
    appended = 0;
  }

  /**
   * Folds the whole log from scratch: decode every change, check ids, build the state.
   *
   * @return the state
   */
  @Benchmark
  public ScheduleState fullFold() {
    return ScheduleFold.fold(log, 0);
  }

  /**
   * Absorbs one appended change into the fold of the log: alternately the create of a fresh id and
   * the delete of that id, so the active set keeps its size. Includes building the event; see
   * {@link #buildEventOnly()} for that part alone.
   *
   * @return the fold
   */
  @Benchmark
  public ScheduleFold absorbOne() {
    return live.absorb(List.of(nextEvent()));
  }

  /**
   * The baseline of {@link #absorbOne()}: builds the same event and absorbs nothing.
   *
   * @return the event
   */
  @Benchmark
  public SessionEvent buildEventOnly() {
    return nextEvent();
  }

  private SessionEvent nextEvent() {
    long n = appended++;
    String id = "live-" + (n >>> 1);
    ObjectNode data =
        (n & 1) == 0 ? ScheduleLogs.createPayload(id) : ScheduleLogs.deletePayload(id);
    return SessionEvent.of(
        live.position(), EventTypes.SCHEDULE_CHANGE, ScheduleLogs.EVENT_TIME, data);
  }
}

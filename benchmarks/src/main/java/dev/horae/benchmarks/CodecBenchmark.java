package dev.horae.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.ScheduleChange;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The strict {@code schedule/change} codec (schedule spec §3.2–§3.4): decoding a persisted payload
 * with every check, and encoding a change as a JSON tree or as canonical text.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBenchmark {

  private final ScheduleChange create = ScheduleLogs.create("sched-42");
  private final ScheduleChange dispatch = new ScheduleChange.Dispatch("sched-42");
  private final ObjectNode createPayload = ChangeCodec.encode(create);
  private final ObjectNode dispatchPayload = ChangeCodec.encode(dispatch);

  /** Creates the inputs; JMH calls it. */
  public CodecBenchmark() {}

  /**
   * Decodes a create of an {@code after} reminder: member checks, prompt and id rules, the
   * canonical-instant parse of {@code scheduledAt}.
   *
   * @return the change
   */
  @Benchmark
  public ScheduleChange decodeCreate() {
    return ChangeCodec.decode(createPayload);
  }

  /**
   * Decodes a dispatch.
   *
   * @return the change
   */
  @Benchmark
  public ScheduleChange decodeDispatch() {
    return ChangeCodec.decode(dispatchPayload);
  }

  /**
   * Encodes a create as a fresh JSON tree, as appended to the log.
   *
   * @return the payload
   */
  @Benchmark
  public ObjectNode encodeCreate() {
    return ChangeCodec.encode(create);
  }

  /**
   * Encodes a create as canonical JSON text.
   *
   * @return the text
   */
  @Benchmark
  public String encodeCreateText() {
    return ChangeCodec.encodeText(create);
  }
}

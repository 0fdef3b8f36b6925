package dev.horae.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
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
 * Latency of {@code schedule_list} and {@code schedule_create} through the tool registry on a
 * session with {@code events} prior events (schedule-tools issue: under 1 ms per call, flush
 * excluded), on the production {@link HoraeRuntime}. Its store completes every persist at once,
 * so only the plugin's pipeline is measured: shape checks, the per-agent queue, the incremental
 * fold, the append and the view.
 */
@SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx3g")
public class ScheduleToolLatencyBenchmark {

  /** Number of unrelated events in the log before the measured calls. */
  @Param({"100000"})
  public int events;

  private HoraeRuntime host;
  private RuntimeAgent agent;
  private JsonNode listArgs;
  private JsonNode createArgs;
  private JsonNode deleteArgs;
  private long calls;

  /** Builds the runtime, the 100,000-event session and absorbs it once. */
  @Setup(Level.Trial)
  public void setUp() {
    host = HoraeRuntime.builder().store(new ScheduleHosts.InstantStore()).build();
    host.install(SchedulePlugin.create());
    agent = host.openAgent("bench-session");
    JsonNode noise = Json.parse("{\"note\":\"host event\"}");
    for (int i = 0; i < events; i++) {
      agent.session().append("host/noise", noise);
    }
    listArgs = Json.parse("{}");
    createArgs = Json.parse("{\"after_seconds\":3600,\"prompt\":\"check the deploy\"}");
    // the first call absorbs the whole log once; the measured calls must not rescan it
    call("schedule_list", listArgs);
  }

  /** Closes the runtime: its timer thread and agent. */
  @TearDown(Level.Trial)
  public void close() {
    host.close();
  }

  /**
   * One {@code schedule_list} call.
   *
   * @return the result
   */
  @Benchmark
  public ToolResult list() {
    return call("schedule_list", listArgs);
  }

  /**
   * One {@code schedule_create} call followed by the matching {@code schedule_delete}, so the
   * active set stays small; reported per pair.
   *
   * @return the delete result
   */
  @Benchmark
  public ToolResult createThenDelete() {
    ToolResult created = call("schedule_create", createArgs);
    deleteArgs = Json.mapper().createObjectNode().put("id", created.value().orElseThrow().path("id").asText());
    return call("schedule_delete", deleteArgs);
  }

  private ToolResult call(String tool, JsonNode args) {
    calls++;
    return host.tools().call(new ToolInvocation(agent, new ToolCall("bench-" + calls, tool, args)), AbortSignal.never())
        .toCompletableFuture().join();
  }
}

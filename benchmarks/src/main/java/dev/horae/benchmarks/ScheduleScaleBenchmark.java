package dev.horae.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolExecution;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import java.util.ArrayDeque;
import java.util.Deque;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Schedule's tool costs against the number of active reminders (issue 19): {@code schedule_create},
 * {@code schedule_delete} and {@code schedule_list} on a session holding {@code active} pending
 * reminders, all armed (the owner holds a timer for the earliest). Flush is excluded (the
 * durability listener completes at once) and invariants are off, so the figures are the plugin's
 * pipeline plus the runtime's tool registry (argument and output-schema validation). The
 * {@code …Body} variants call the tool body and its renderer directly, without the registry.
 *
 * <p>The reminders are appended to the log before the agent exists; its owner folds them once when
 * it starts, in setup.
 */
@SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g", "-Xms6g", "-XX:+AlwaysPreTouch"})
public class ScheduleScaleBenchmark {

  /** Pending reminders in the session. */
  @Param({"1000", "100000", "1000000"})
  public int active;

  private HoraeRuntime host;
  private RuntimeAgent agent;
  private ToolDefinition listTool;
  private ToolExecution exec;
  private JsonNode listArgs;
  private JsonNode createArgs;
  private final Deque<String> created = new ArrayDeque<>();
  private long calls;

  /** Builds the host and the session of {@code active} pending reminders, and starts the owner. */
  @Setup(Level.Trial)
  public void setUp() {
    host = ScheduleHosts.runtime(new ScheduleHosts.InstantStore(), false).horae();
    ScheduleHosts.install(host);
    var session = host.sessions().create(dev.horae.spi.session.CreateOptions.DEFAULT);
    long base = ScheduleHosts.START.toEpochMilli() + 3_600_000L;
    // distinct targets a second apart, in an order unrelated to creation
    ScheduleHosts.fill(session, active, i -> base + (i * 7_919L) % active * 1_000L);
    agent = host.openAgent(session.id());
    agent.whenIdle().toCompletableFuture().join();
    listTool = host.tools().find(agent, "schedule_list").orElseThrow();
    exec = new ToolExecution(agent, "bench", AbortSignal.never());
    listArgs = Json.parse("{}");
    createArgs = Json.parse("{\"prompt\":\"check the deploy\",\"after_seconds\":86400}");
  }

  /** Stops the runtime's timers and threads. */
  @TearDown(Level.Trial)
  public void close() {
    host.close();
  }

  /** Deletes what {@link #create} added in the iteration, so every iteration starts at {@code active}. */
  @TearDown(Level.Iteration)
  public void deleteCreated() {
    while (!created.isEmpty()) {
      call("schedule_delete", Json.mapper().createObjectNode().put("id", created.pop()));
    }
  }

  /**
   * One {@code schedule_create}; the active set grows by the iteration's operations and is cut
   * back after it.
   *
   * @return the result
   */
  @Benchmark
  public ToolResult create() {
    ToolResult r = call("schedule_create", createArgs);
    created.push(r.value().orElseThrow().path("id").asText());
    return r;
  }

  /**
   * One {@code schedule_create} followed by the {@code schedule_delete} of its id, so the active
   * set stays at {@code active}; reported per pair.
   *
   * @return the delete result
   */
  @Benchmark
  public ToolResult createThenDelete() {
    ToolResult made = call("schedule_create", createArgs);
    String id = made.value().orElseThrow().path("id").asText();
    return call("schedule_delete", Json.mapper().createObjectNode().put("id", id));
  }

  /**
   * One {@code schedule_list} through the registry: every active reminder's view.
   *
   * @return the result
   */
  @Benchmark
  public ToolResult list() {
    return call("schedule_list", listArgs);
  }

  /**
   * The list tool's body and renderer only: the plugin's share of {@link #list}.
   *
   * @return the rendered content
   */
  @Benchmark
  public List<ContentBlock> listBody() {
    JsonNode value = listTool.body().execute(listArgs, exec).toCompletableFuture().join();
    return listTool.renderer().apply(value);
  }

  private ToolResult call(String tool, JsonNode args) {
    calls++;
    return host.tools().call(new ToolInvocation(agent, new ToolCall("bench-" + calls, tool, args)), AbortSignal.never())
        .toCompletableFuture().join();
  }
}

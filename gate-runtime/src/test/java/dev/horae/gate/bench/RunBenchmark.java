package dev.horae.gate.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.horae.gate.EndCause;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.AgentRuntime;
import dev.horae.gate.runtime.AgentSnapshot;
import dev.horae.gate.runtime.CommitStore;
import dev.horae.gate.runtime.ModelReply;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.gate.runtime.RunActivation;
import dev.horae.gate.runtime.RunContext;
import dev.horae.gate.runtime.SessionCommitStore;
import dev.horae.gate.runtime.ToolDescriptor;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import dev.horae.testkit.TestHost;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Throughput of one whole scheduled action: execute → Awaiting (ticket committed) → perform →
 * NaturalEnd, six commits per run. {@code memoryStore} commits to {@code CommitStore.inMemory()};
 * {@code sessionLog} commits to testkit in-memory sessions through {@link SessionCommitStore} (the
 * committed view being a fold of the session log). Run by hand:
 * {@code mvn -pl gate-runtime test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.horae.gate.bench.RunBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class RunBenchmark {

  private static final String SNAPSHOT = "snapshot-1";

  private AgentRuntime runtime;
  private RunContext memory;
  private RunContext sessionLog;
  private TestHost host;
  private long runs;
  private Session session;

  /** Builds the runtime: one scheduling host gate, a scripted two-step model, an echo tool. */
  @Setup(Level.Trial)
  public void setUp() {
    ToolGates gates = ToolGates.create();
    gates.register((call, state) -> CompletableFuture.completedFuture(GateOutcome.schedule("sched-1")));
    runtime = AgentRuntime.builder(
            r -> CompletableFuture.completedFuture(r.step() == 1
                ? ModelReply.calls(new ToolCall("call-1", "echo",
                    JsonNodeFactory.instance.objectNode().put("text", "ping")))
                : ModelReply.answer("done")),
            (call, ctx) -> CompletableFuture.completedFuture(
                ToolOutput.success(call.callId(), JsonNodeFactory.instance.textNode("echoed"))))
        .gates(gates).build();
    runtime.registerSnapshot(AgentSnapshot.of(SNAPSHOT, Set.of(), List.of(ToolDescriptor.of("echo")), 8));
    memory = RunContext.of(CommitStore.inMemory());
    host = TestHost.builder().persistence(false).build();
    sessionLog = RunContext.of(SessionCommitStore.over(host.sessions()::get));
  }

  // a fresh session every 1000 runs keeps each log (and its incremental fold) realistic in size
  private String thread() {
    if (runs % 1000 == 0) {
      session = host.sessions().create(CreateOptions.DEFAULT);
    }
    return session.id();
  }

  private static void check(RunState parked, ResumeOutcome done) {
    if (!parked.equals(RunState.awaiting())
        || !done.equals(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())))) {
      throw new IllegalStateException("unexpected flow: " + parked + " / " + done);
    }
  }

  /**
   * One run on the in-memory commit store.
   *
   * @return the outcome, consumed by JMH
   */
  @Benchmark
  public ResumeOutcome memoryStore() {
    String runId = "run-" + runs++;
    RunState parked = runtime.execute(new RunActivation(runId, "thread-" + (runs / 1000), SNAPSHOT, "go"), memory)
        .toCompletableFuture().join();
    ResumeOutcome done = runtime.performScheduledAction(runId, memory, 0).toCompletableFuture().join();
    check(parked, done);
    return done;
  }

  /**
   * One run committed to the testkit's in-memory session log.
   *
   * @return the outcome, consumed by JMH
   */
  @Benchmark
  public ResumeOutcome sessionLog() {
    String thread = thread();
    String runId = "run-" + runs++;
    RunState parked = runtime.execute(new RunActivation(runId, thread, SNAPSHOT, "go"), sessionLog)
        .toCompletableFuture().join();
    ResumeOutcome done = runtime.performScheduledAction(runId, sessionLog, 0).toCompletableFuture().join();
    check(parked, done);
    return done;
  }

  /**
   * Runs the benchmark.
   *
   * @param args ignored
   * @throws RunnerException when JMH fails
   */
  public static void main(String[] args) throws RunnerException {
    new Runner(new OptionsBuilder().include(RunBenchmark.class.getSimpleName()).build()).run();
  }
}

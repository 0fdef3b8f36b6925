package dev.horae.benchmarks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.horae.gate.EndCause;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.store.MemorySessionStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
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
 * Gate perform and resume (gate spec §6, §9.2) on the production runtime's turn engine: a {@link
 * HoraeRuntime} over a {@link MemorySessionStore}, whose gate commits go to the session logs and
 * are flushed before they count.
 *
 * <p>Every Run is one turn: the model asks for one {@code echo} tool call, a host gate parks it (a
 * scheduled action, or a permission confirmation), and after the perform or resume the tool runs
 * and the model's second step answers, ending the turn and its Run. {@link #executeToAwaiting}
 * measures the first half (a prompt until the ticket is committed and the agent parked); {@link
 * #perform} and {@link #resume} the second half alone, on a turn parked before each invocation.
 * The turn runs on the runtime's driver threads, so each half includes one hand-off to them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class GateBenchmark {

  // a fresh session every so many Runs keeps each log, and the fold over it, realistic
  private static final int RUNS_PER_THREAD = 1000;

  /** Creates the benchmark; JMH calls it. */
  public GateBenchmark() {}

  /** A runtime whose gate parks every call with the given outcome. */
  @SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
  abstract static class Parking {
    HoraeRuntime runtime;
    RuntimeAgent agent;
    long runs;
    String runId;
    private final Semaphore parked = new Semaphore(0);
    private volatile @Nullable String lastParked;

    abstract GateOutcome park();

    /**
     * A fresh runtime over empty sessions: live sessions keep every event, so without this the
     * heap fills over an iteration and garbage collection, not the gate, dominates later
     * iterations. Scheduled actions wait for the measured perform.
     */
    void freshRuntime() {
      closeRuntime();
      GateOutcome outcome = park();
      HoraeRuntime r = HoraeRuntime.builder().store(new MemorySessionStore())
          .model(request -> CompletableFuture.completedFuture(request.step() == 1
              ? ModelResponse.calls(new ToolCall("call-1", "echo", JsonNodeFactory.instance.objectNode().put("text", "ping")))
              : ModelResponse.text("done")))
          .warnings((message, cause) -> {
            throw new IllegalStateException("the benchmark's runtime reported: " + message, cause.orElse(null));
          })
          .dispatchScheduledActions(false).build();
      r.tools().register(ToolDefinition.builder("echo").description("Echoes.")
          .parameters(JsonNodeFactory.instance.objectNode().put("type", "object"))
          .body((args, exec) -> CompletableFuture.completedFuture(JsonNodeFactory.instance.textNode("echoed"))).build());
      var unusedGate = r.gates().register(ToolGate.named("park", (call, state) -> CompletableFuture.completedFuture(outcome)));
      var unusedListener = r.onAwaiting(call -> {
        lastParked = call.runId();
        parked.release();
      });
      runtime = r;
      runs = 0;
    }

    void closeRuntime() {
      HoraeRuntime r = runtime;
      if (r != null) {
        r.close();
      }
    }

    /** Prompts the agent and returns once its turn is parked on the committed ticket. */
    void parkNext() {
      if (runs % RUNS_PER_THREAD == 0) {
        agent = runtime.openAgent("bench-" + runs);
      }
      runs++;
      runtime.prompt(agent, "go");
      try {
        if (!parked.tryAcquire(10, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the turn did not park");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while parking", e);
      }
      String id = lastParked;
      if (id == null) {
        throw new IllegalStateException("no parked Run");
      }
      runId = id;
    }

    ResumeTicket ticket() {
      return runtime.awaiting().stream().filter(c -> c.runId().equals(runId)).findFirst()
          .orElseThrow(() -> new IllegalStateException("no committed ticket for " + runId)).ticket();
    }
  }

  /** Runs parked on a scheduled action ({@code GateOutcome.schedule}). */
  @State(Scope.Thread)
  public static class Scheduled extends Parking {
    /** Creates the state; JMH calls it. */
    public Scheduled() {}

    @Override
    GateOutcome park() {
      return GateOutcome.schedule("sched-1");
    }

    /** Starts the iteration on a fresh runtime over empty sessions. */
    @Setup(Level.Iteration)
    public void emptySessions() {
      freshRuntime();
    }

    /** Closes the iteration's runtime. */
    @TearDown(Level.Iteration)
    public void close() {
      closeRuntime();
    }

    /** Parks a fresh Run, unmeasured. */
    @Setup(Level.Invocation)
    public void parkRun() {
      parkNext();
    }
  }

  /** Runs parked on a permission confirmation ({@code GateOutcome.requireConfirmation}). */
  @State(Scope.Thread)
  public static class Confirmation extends Parking {
    /** Creates the state; JMH calls it. */
    public Confirmation() {}

    @Override
    GateOutcome park() {
      return GateOutcome.requireConfirmation("ask-1");
    }

    /** Starts the iteration on a fresh runtime over empty sessions. */
    @Setup(Level.Iteration)
    public void emptySessions() {
      freshRuntime();
    }

    /** Closes the iteration's runtime. */
    @TearDown(Level.Iteration)
    public void close() {
      closeRuntime();
    }

    /** Parks a fresh Run, unmeasured. */
    @Setup(Level.Invocation)
    public void parkRun() {
      parkNext();
    }
  }

  /** Runs executed by the measured method itself. */
  @State(Scope.Thread)
  public static class Fresh extends Parking {
    /** Creates the state; JMH calls it. */
    public Fresh() {}

    @Override
    GateOutcome park() {
      return GateOutcome.schedule("sched-1");
    }

    /** Starts the iteration on a fresh runtime over empty sessions. */
    @Setup(Level.Iteration)
    public void emptySessions() {
      freshRuntime();
    }

    /** Closes the iteration's runtime. */
    @TearDown(Level.Iteration)
    public void close() {
      closeRuntime();
    }

    /**
     * Cancels the turn the measured prompt parked, unmeasured: a parked turn holds its agent, so
     * the next prompt would wait behind it.
     */
    @TearDown(Level.Invocation)
    public void release() {
      ResumeOutcome o = runtime.cancel(runId).toCompletableFuture().join();
      if (!o.equals(new ResumeOutcome.Advanced(RunState.ended(EndCause.cancelled())))) {
        throw new IllegalStateException("the parked turn was not cancelled: " + o);
      }
    }
  }

  /**
   * Runs a turn until its gate parks it: the turn's first model step and one commit (the batch
   * with the awaiting call and the ticket), flushed.
   *
   * @param fresh the runtime
   * @return the parked Run's id
   */
  @Benchmark
  public String executeToAwaiting(Fresh fresh) {
    fresh.parkNext();
    return fresh.runId;
  }

  /**
   * Performs a parked turn's scheduled action through the runtime's run-id path: reads the
   * committed ticket, consumes it, runs the tool and the model's final step, and commits the end.
   *
   * @param parked a Run parked on a scheduled action
   * @return the outcome
   */
  @Benchmark
  public ResumeOutcome perform(Scheduled parked) {
    return check(
        parked.runtime.agents().perform(parked.runId).toCompletableFuture().join());
  }

  /**
   * Resumes a Run parked on a confirmation with an allow: validates the command against the
   * committed ticket, then as {@link #perform}.
   *
   * @param parked a Run parked on a confirmation
   * @return the outcome
   */
  @Benchmark
  public ResumeOutcome resume(Confirmation parked) {
    ResumeCommand command = ResumeCommand.fromTicket(parked.ticket(), ResumeResult.allow(), parked.runtime.wallClock().millis());
    return check(parked.runtime.resume(command).toCompletableFuture().join());
  }

  private static ResumeOutcome check(ResumeOutcome outcome) {
    if (!outcome.equals(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())))) {
      throw new IllegalStateException("unexpected outcome: " + outcome);
    }
    return outcome;
  }
}

package dev.horae.benchmarks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.horae.gate.EndCause;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.AgentRuntime;
import dev.horae.gate.runtime.AgentSnapshot;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.gate.runtime.RunActivation;
import dev.horae.gate.runtime.RunContext;
import dev.horae.gate.runtime.SessionCommitStore;
import dev.horae.gate.runtime.ToolDescriptor;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import dev.horae.spi.time.SystemTime;
import dev.horae.store.LogSessions;
import dev.horae.store.MemorySessionStore;
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

/**
 * Gate perform and resume (gate spec §6, §9.2) on {@link AgentRuntime}, committing to the
 * production sessions service ({@link LogSessions} over a {@link MemorySessionStore}) through
 * {@link SessionCommitStore}.
 *
 * <p>Every Run is the same: the model asks for one {@code echo} tool call, a host gate parks it
 * (a scheduled action, or a permission confirmation), and after the perform or resume the tool
 * runs and the model's second step answers, ending the Run. {@link #executeToAwaiting} measures the
 * first half (execute until the ticket is committed); {@link #perform} and {@link #resume} the
 * second half alone, on a Run parked before each invocation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class GateBenchmark {

  private static final String SNAPSHOT = "snapshot-1";
  // a fresh thread (session) every so many Runs keeps each log, and the fold over it, realistic
  private static final int RUNS_PER_THREAD = 1000;

  /** Creates the benchmark; JMH calls it. */
  public GateBenchmark() {}

  /** A runtime and sessions service whose gate parks every call with the given outcome. */
  @SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
  abstract static class Parking {
    AgentRuntime runtime;
    RunContext context;
    SessionCommitStore store;
    LogSessions sessions;
    Session thread;
    long runs;
    String runId;

    abstract GateOutcome park();

    void build() {
      ToolGates gates = ToolGates.create();
      GateOutcome outcome = park();
      gates.register((call, state) -> CompletableFuture.completedFuture(outcome));
      runtime =
          AgentRuntime.builder(
                  request ->
                      CompletableFuture.completedFuture(
                          request.step() == 1
                              ? ModelResponse.calls(
                                  new ToolCall(
                                      "call-1",
                                      "echo",
                                      JsonNodeFactory.instance.objectNode().put("text", "ping")))
                              : ModelResponse.text("done")),
                  (call, ctx) ->
                      CompletableFuture.completedFuture(
                          ToolOutput.success(
                              call.callId(), JsonNodeFactory.instance.textNode("echoed"))))
              .gates(gates)
              .build();
      runtime.registerSnapshot(
          AgentSnapshot.of(SNAPSHOT, Set.of(), List.of(ToolDescriptor.of("echo")), 8));
    }

    /**
     * Fresh sessions: live sessions keep every event, so without this the heap fills over an
     * iteration and garbage collection, not the gate, dominates later iterations. Nothing is
     * flushed, as the gate's commits need no durability barrier of their own here.
     */
    void freshSessions() {
      sessions = LogSessions.over(new MemorySessionStore(), SystemTime.wallClock(), (message, cause) -> {
        throw new IllegalStateException("the benchmark's sessions reported: " + message, cause.orElse(null));
      });
      store = SessionCommitStore.over(sessions::get);
      context = RunContext.of(store);
      runs = 0;
    }

    /** Executes the next Run until it awaits. */
    void parkNext() {
      if (runs % RUNS_PER_THREAD == 0) {
        thread = sessions.create(CreateOptions.DEFAULT);
      }
      runId = "run-" + runs++;
      RunState state =
          runtime
              .execute(new RunActivation(runId, thread.id(), SNAPSHOT, "go"), context)
              .toCompletableFuture()
              .join();
      if (!state.equals(RunState.awaiting())) {
        throw new IllegalStateException("the Run did not park: " + state);
      }
    }

    ResumeTicket ticket() {
      return store
          .view()
          .resumeTicket(runId)
          .orElseThrow(() -> new IllegalStateException("no committed ticket for " + runId));
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

    /** Builds the runtime. */
    @Setup(Level.Trial)
    public void setUp() {
      build();
    }

    /** Starts the iteration on empty sessions. */
    @Setup(Level.Iteration)
    public void emptySessions() {
      freshSessions();
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

    /** Builds the runtime. */
    @Setup(Level.Trial)
    public void setUp() {
      build();
    }

    /** Starts the iteration on empty sessions. */
    @Setup(Level.Iteration)
    public void emptySessions() {
      freshSessions();
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

    /** Builds the runtime. */
    @Setup(Level.Trial)
    public void setUp() {
      build();
    }

    /** Starts the iteration on empty sessions. */
    @Setup(Level.Iteration)
    public void emptySessions() {
      freshSessions();
    }
  }

  /**
   * Executes a Run until its gate parks it: two commits (running, then awaiting with the ticket)
   * and the first model step.
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
   * Performs a parked Run's scheduled action: reads the committed ticket, consumes it, runs the
   * tool and the model's final step, and commits the end.
   *
   * @param parked a Run parked on a scheduled action
   * @return the outcome
   */
  @Benchmark
  public ResumeOutcome perform(Scheduled parked) {
    return check(
        parked.runtime.performScheduledAction(parked.runId, parked.context, 0)
            .toCompletableFuture()
            .join());
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
    ResumeCommand command = ResumeCommand.fromTicket(parked.ticket(), ResumeResult.allow(), 0);
    return check(parked.runtime.resume(command, parked.context).toCompletableFuture().join());
  }

  private static ResumeOutcome check(ResumeOutcome outcome) {
    if (!outcome.equals(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())))) {
      throw new IllegalStateException("unexpected outcome: " + outcome);
    }
    return outcome;
  }
}

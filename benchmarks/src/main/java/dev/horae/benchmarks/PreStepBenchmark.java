package dev.horae.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.plugin.RuntimeScope;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.PreStep;
import dev.horae.spi.agent.PreStepListener;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.plugin.Installation;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.timecontext.ReadingMessages;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
 * The time-context pre-step cost (time-context spec §4): what {@link TimeContextPlugin}'s listener
 * adds to one model step, on a session of {@code events} events.
 *
 * <p>The plugin is installed on the production {@link HoraeRuntime} through its public {@code
 * install}, and its registered listener is called with a hand-made {@link PreStep} whose downstream
 * decision is a fixed Enter, so only the plugin's own work is measured. The log is complete turns
 * (prompt, reading, request, answer), then an open turn preparing its step 2; the runtime's clock
 * reads two minutes after the last event and the refresh interval is one minute, so every step
 * computes the gate, the baseline and the reading text.
 */
@SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx3g")
public class PreStepBenchmark {

  private static final long START = Instant.parse("2026-07-14T00:00:00Z").toEpochMilli();
  private static final int EVENTS_PER_TURN = 8;

  /** Number of events in the log before the measured steps. */
  @Param({"1000", "1000000"})
  public int events;

  private ArraySession session;
  private HoraeRuntime host;
  private ListenerCapture capture;
  private PreStep step;
  private JsonNode prompt;
  private Installation installation;
  private PreStepListener listener;

  /** Builds the log and the host once per parameter value. */
  @Setup(Level.Trial)
  public void buildLog() {
    session = new ArraySession("bench-session", START);
    prompt = userMessage("what is on my calendar today?");
    JsonNode reading = reading();
    JsonNode answer = Json.mapper().createObjectNode().put("text", "ok");
    long turn = 0;
    long time = START;
    while (session.length() < events - EVENTS_PER_TURN) {
      turn++;
      openTurn(turn, time, reading, answer);
      session.add(EventTypes.TURN_END, time, answer);
      time += 1_000;
    }
    long open = turn + 1;
    openTurn(open, time, reading, answer);
    session.mark();
    host = HoraeRuntime.builder().clock(InstantSource.fixed(Instant.ofEpochMilli(time + 120_000))).build();
    capture = new ListenerCapture(host);
    // an agent over the array log; it never runs a turn, only carries the session to the listener
    Agent agent = host.agents().create(session, Optional.empty(), new RuntimeScope(host.tools()::register));
    step = new FixedStep(agent, open, 2);
  }

  /** Reinstalls the plugin over the original log and brings its index up to date, unmeasured. */
  @Setup(Level.Iteration)
  public void freshPlugin() {
    session.resetToMark();
    installation = install(capture);
    listener = capture.lastPreStepListener().orElseThrow();
    var unused = listener.onPreStep(step).toCompletableFuture().join();
  }

  /** Uninstalls the plugin. */
  @TearDown(Level.Iteration)
  public void uninstall() {
    installation.close().toCompletableFuture().join();
  }

  /** Closes the runtime: its timer thread and the agent. */
  @TearDown(Level.Trial)
  public void close() {
    host.close();
  }

  /**
   * One step on an unchanged log: the index catch-up finds nothing new, then gate, baseline and
   * text.
   *
   * @return the decision carrying the reading
   */
  @Benchmark
  public StepDecision step() {
    return listener.onPreStep(step).toCompletableFuture().join();
  }

  /**
   * One appended user message, then one step: the steady state of a live session.
   *
   * @return the decision carrying the reading
   */
  @Benchmark
  public StepDecision appendThenStep() {
    session.add(EventTypes.USER_MESSAGE, session.lastTime(), prompt);
    return listener.onPreStep(step).toCompletableFuture().join();
  }

  /**
   * The first step after a process restart: a freshly installed plugin reads the whole log once to
   * build its index.
   *
   * @param cold the freshly installed plugin
   * @return the decision carrying the reading
   */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public StepDecision firstStepAfterRestart(Cold cold) {
    return cold.listener.onPreStep(step).toCompletableFuture().join();
  }

  /** A plugin installed just before the measured step, that has never seen the session. */
  @SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
  @State(Scope.Thread)
  public static class Cold {
    private Installation installation;
    private PreStepListener listener;

    /** Creates the state; JMH calls it. */
    public Cold() {}

    /**
     * Installs a fresh plugin over the original log.
     *
     * @param bench the benchmark holding the log and host
     */
    @Setup(Level.Iteration)
    public void install(PreStepBenchmark bench) {
      bench.session.resetToMark();
      installation = PreStepBenchmark.install(bench.capture);
      listener = bench.capture.lastPreStepListener().orElseThrow();
    }

    /** Uninstalls it. */
    @TearDown(Level.Iteration)
    public void uninstall() {
      installation.close().toCompletableFuture().join();
    }
  }

  private static Installation install(ListenerCapture capture) {
    TimeContextConfig config = TimeContextConfig.builder().timeZone("Asia/Shanghai").refreshIntervalMs(60_000).build();
    return TimeContextPlugin.create(config).install(capture);
  }

  private void openTurn(long turn, long time, JsonNode reading, JsonNode answer) {
    session.add(EventTypes.TURN_START, time, Json.mapper().createObjectNode().put("turn", turn));
    session.add(
        EventTypes.STEP_START,
        time,
        Json.mapper().createObjectNode().put("turn", turn).put("step", 1));
    session.add(EventTypes.USER_MESSAGE, time, prompt);
    session.add(EventTypes.USER_MESSAGE, time, reading);
    session.add(EventTypes.REQUEST_HEADER, time, answer);
    session.add(EventTypes.ASSISTANT_MESSAGE, time, answer);
    session.add(EventTypes.STEP_END, time, answer);
  }

  private static ObjectNode userMessage(String text) {
    ObjectNode data = Json.mapper().createObjectNode().put("role", "user");
    data.putArray("content").addObject().put("type", "text").put("text", text);
    data.putObject("source").put("kind", "user");
    return data;
  }

  private static ObjectNode reading() {
    String text =
        "Time sampled while preparing turn 1, step 1: 2026-07-14T08:00:00+08:00[Asia/Shanghai]\n"
            + "Elapsed since the preceding model-visible message: unavailable.";
    ObjectNode data = Json.mapper().createObjectNode().put("role", "user");
    data.set("content", ReadingMessages.content(text));
    data.set("source", ReadingMessages.source(text));
    return data;
  }

  /** A pre-step whose downstream listeners decide Enter with no messages. */
  private record FixedStep(Agent agent, long turn, long step) implements PreStep {
    @Override
    public List<UserMessage> messages() {
      return List.of();
    }

    @Override
    public AbortSignal signal() {
      return AbortSignal.never();
    }

    @Override
    public CompletionStage<StepDecision> next() {
      return CompletableFuture.completedFuture(new StepDecision.Enter(List.of()));
    }
  }
}

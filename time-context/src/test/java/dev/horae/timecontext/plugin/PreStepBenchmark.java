package dev.horae.timecontext.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.session.AppendOptions;
import dev.horae.spi.session.Candidate;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.time.IdSource;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.timecontext.ReadingMessages;
import dev.horae.timecontext.TimeContextConfig;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Cost of the time-context pre-step listener per step, on sessions of 1,000 and 1,000,000 events.
 *
 * <p>Run with {@code java -cp <test classpath> dev.horae.timecontext.plugin.PreStepBenchmark}. The
 * log is made of complete turns (prompt, reading, request, answer), then an open turn whose step 2
 * is being prepared, with a 1-minute refresh interval that has elapsed (so the gate, the baseline
 * and the text are all computed).
 */
@SuppressWarnings("NullAway.Init") // JMH initializes the state in @Setup methods
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class PreStepBenchmark {

  private static final long START = Instant.parse("2026-07-14T00:00:00Z").toEpochMilli();

  /** Number of events in the log before the measured steps. */
  @Param({"1000", "1000000"})
  public int events;

  private ArrayLog log;
  private TestAgent agent;
  private InstantSource clock;
  private IdSource ids;
  private PreStepReading listener;
  private Steps step;
  private long openTurn;
  private JsonNode prompt;

  /** Builds the log once per parameter value. */
  @Setup(Level.Trial)
  public void buildLog() {
    TestHost host = TestHost.builder().start(Instant.ofEpochMilli(START)).build();
    log = new ArrayLog();
    prompt = Logs.message("hello", Json.mapper().createObjectNode().put("kind", "user"));
    JsonNode reading = Logs.reading("Time sampled while preparing turn 1, step 1: 2026-07-14T00:00:00+00:00[UTC]\n"
        + "Elapsed since the preceding model-visible message: unavailable.");
    JsonNode answer = Json.mapper().createObjectNode().put("text", "ok");
    long turn = 0;
    long time = START;
    while (log.length() < events - 8) {
      turn++;
      log.add(EventTypes.TURN_START, time, Json.mapper().createObjectNode().put("turn", turn));
      log.add(EventTypes.STEP_START, time, Json.mapper().createObjectNode().put("turn", turn).put("step", 1));
      log.add(EventTypes.USER_MESSAGE, time, prompt);
      log.add(EventTypes.USER_MESSAGE, time, reading);
      log.add(EventTypes.REQUEST_HEADER, time, answer);
      log.add(EventTypes.ASSISTANT_MESSAGE, time, answer);
      log.add(EventTypes.STEP_END, time, answer);
      log.add(EventTypes.TURN_END, time, answer);
      time += 1_000;
    }
    openTurn = turn + 1;
    log.add(EventTypes.TURN_START, time, Json.mapper().createObjectNode().put("turn", openTurn));
    log.add(EventTypes.STEP_START, time, Json.mapper().createObjectNode().put("turn", openTurn).put("step", 1));
    log.add(EventTypes.USER_MESSAGE, time, prompt);
    log.add(EventTypes.USER_MESSAGE, time, reading);
    log.add(EventTypes.REQUEST_HEADER, time, answer);
    log.add(EventTypes.ASSISTANT_MESSAGE, time, answer);
    log.add(EventTypes.STEP_END, time, answer);
    log.markBase();
    clock = InstantSource.fixed(Instant.ofEpochMilli(time + 120_000));
    ids = host.ids();
    agent = host.agentFor(log);
    step = new Steps(agent, List.of(), openTurn, 2, AbortSignal.never(), new StepDecision.Enter(List.of()));
  }

  /** Drops what the previous iteration appended and brings a fresh index up to date, unmeasured. */
  @Setup(Level.Iteration)
  public void resetLog() {
    log.resetToBase();
    listener = new PreStepReading(new TimeContextConfig.Resolved("Asia/Shanghai", 60_000, false), clock, ids);
    listener.onPreStep(step).toCompletableFuture().join();
  }

  /**
   * One step on an unchanged log: catch-up finds nothing new, then gate, baseline and text.
   *
   * @return the decision with the reading
   */
  @Benchmark
  public StepDecision step() {
    return listener.onPreStep(step).toCompletableFuture().join();
  }

  /**
   * One appended event, then one step: the steady state of a running session.
   *
   * @return the decision with the reading
   */
  @Benchmark
  public StepDecision appendThenStep() {
    log.add(EventTypes.USER_MESSAGE, log.lastTime(), prompt);
    return listener.onPreStep(step).toCompletableFuture().join();
  }

  /** A listener that has never seen the session: its first step rebuilds the index from the log. */
  @SuppressWarnings("NullAway.Init") // JMH initializes the state in @Setup methods
  @State(Scope.Thread)
  public static class Cold {
    PreStepReading listener;

    /**
     * A fresh listener, as in a new process over the persisted log.
     *
     * @param bench the benchmark state holding the log
     */
    @Setup(Level.Iteration)
    public void freshListener(PreStepBenchmark bench) {
      bench.log.resetToBase();
      listener = new PreStepReading(new TimeContextConfig.Resolved("Asia/Shanghai", 60_000, false), bench.clock, bench.ids);
    }
  }

  /**
   * The first step of a fresh process over the log: reads the whole log once to build the index.
   *
   * @param cold the fresh listener
   * @return the decision with the reading
   */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 5)
  @Measurement(iterations = 10)
  public StepDecision firstStepAfterRestart(Cold cold) {
    return cold.listener.onPreStep(step).toCompletableFuture().join();
  }

  /**
   * Runs the benchmark.
   *
   * @param args ignored
   * @throws RunnerException when JMH fails
   */
  public static void main(String[] args) throws RunnerException {
    new Runner(new OptionsBuilder().include(PreStepBenchmark.class.getSimpleName()).build()).run();
  }

  /** A minimal append-only session over an array list, sharing payloads to keep 1M events small. */
  static final class ArrayLog implements Session {
    private final List<SessionEvent> events = new ArrayList<>();
    private final SessionHeader header = SessionHeader.root("bench", START, Optional.empty());
    private int base;

    void add(String type, long time, JsonNode data) {
      events.add(SessionEvent.of(events.size(), type, time, data));
    }

    void markBase() {
      base = events.size();
    }

    void resetToBase() {
      events.subList(base, events.size()).clear();
    }

    long lastTime() {
      return events.get(events.size() - 1).time();
    }

    @Override
    public String id() {
      return header.id();
    }

    @Override
    public SessionHeader header() {
      return header;
    }

    @Override
    public List<SessionEvent> events() {
      return List.copyOf(events);
    }

    @Override
    public List<SessionEvent> eventsFrom(long fromSeq) {
      return List.copyOf(events.subList((int) Math.min(fromSeq, events.size()), events.size()));
    }

    @Override
    public long length() {
      return events.size();
    }

    @Override
    public SessionEvent append(String type, JsonNode data, AppendOptions options) {
      SessionEvent e = new SessionEvent(events.size(), type, lastTime(), data, options.surfaceOp(), options.sourceEventSeqs());
      events.add(e);
      return e;
    }

    @Override
    public List<SessionEvent> appendAll(List<Candidate> candidates) {
      List<SessionEvent> out = new ArrayList<>();
      candidates.forEach(c -> out.add(append(c.type(), c.data(), c.options())));
      return out;
    }
  }

  static final class Logs {
    private Logs() {}

    static ObjectNode message(String text, ObjectNode source) {
      ObjectNode data = Json.mapper().createObjectNode().put("role", "user");
      data.putArray("content").addObject().put("type", "text").put("text", text);
      data.set("source", source);
      return data;
    }

    static ObjectNode reading(String text) {
      ObjectNode data = Json.mapper().createObjectNode().put("role", "user");
      data.set("content", ReadingMessages.content(text));
      data.set("source", ReadingMessages.source(text));
      return data;
    }
  }
}

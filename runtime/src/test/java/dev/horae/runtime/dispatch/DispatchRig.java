package dev.horae.runtime.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.CommitStore;
import dev.horae.gate.runtime.DispatchQueue;
import dev.horae.gate.runtime.DispatcherOptions;
import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.gate.runtime.JdbcDispatchQueue;
import dev.horae.gate.runtime.SessionDispatchQueue;
import dev.horae.gate.runtime.internal.CommitCodec;
import dev.horae.gate.runtime.internal.ToolBatch;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.ManualTimers;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.gate.TurnRun;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolExecution;
import dev.horae.store.FileSessionStore;
import dev.horae.store.MemorySessionStore;
import dev.horae.store.Postgres;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

/**
 * A {@link HoraeRuntime} built with a dispatch queue, on a manual clock (gate specification
 * §12.5 on the production turn engine): every Run is the first turn of a session of its own, named
 * by the test. The scripted model answers input {@code calls:N} with N successive steps of one
 * {@code echo} call each before it answers; any other input makes it call {@code echo} once. The
 * {@code echo} tool can be held, to model an attempt still running (or whose process died
 * mid-call); each entry into it releases a permit of {@link #entered}, so a test waits for the
 * tool on a bound, never on wall time.
 */
final class DispatchRig implements AutoCloseable {

  /** Which backend a rig runs on. */
  enum Kind {
    /** Session logs in memory, dispatch facts in them ({@link SessionDispatchQueue}). */
    MEMORY,
    /** Session logs in a file store, dispatch facts in them. */
    FILE,
    /** Session logs in memory, dispatch records in PostgreSQL ({@link JdbcDispatchQueue}). */
    JDBC
  }

  /** How long any single wait of a test may take; far below the JUnit timeout. */
  static final long BOUND_S = 20;

  static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

  final Kind kind;
  final ManualTimers clock;
  final AtomicInteger toolRuns = new AtomicInteger();
  final AtomicInteger inferences = new AtomicInteger();
  final Semaphore entered = new Semaphore(0);
  final LinkedBlockingQueue<Runnable> work = new LinkedBlockingQueue<>();
  volatile BiFunction<JsonNode, ToolExecution, CompletionStage<JsonNode>> tool = DispatchRig::echo;
  SessionStore store;
  final String gatePrefix;
  HoraeRuntime horae;
  DispatchQueue queue;
  private final Map<String, String> inputs = new ConcurrentHashMap<>();
  private final List<ToolGate> gates = new ArrayList<>();
  private final UnaryOperator<HoraeRuntime.Builder> settings;

  private DispatchRig(Kind kind, SessionStore store, UnaryOperator<HoraeRuntime.Builder> settings) {
    this.kind = kind;
    this.store = store;
    this.settings = settings;
    this.clock = new ManualTimers(START);
    this.gatePrefix = kind == Kind.JDBC ? "g" + Postgres.freshPrefix() : "";
    if (kind == Kind.JDBC) {
      JdbcDispatchQueue.over(Postgres.started(), gatePrefix, clock, id -> Optional.<Session>empty()).migrate();
    }
    this.horae = build();
    this.queue = horae.dispatchQueue().orElseThrow();
  }

  /** A rig on {@code kind}; a file rig keeps its store under {@code dir}. */
  static DispatchRig of(Kind kind, Path dir) {
    return of(kind, dir, b -> b);
  }

  /** A rig whose runtime gets {@code settings} too (a ticket deadline, say). */
  static DispatchRig of(Kind kind, Path dir, UnaryOperator<HoraeRuntime.Builder> settings) {
    SessionStore store = kind == Kind.FILE ? FileSessionStore.open(dir) : new MemorySessionStore();
    return new DispatchRig(kind, store, settings);
  }

  private HoraeRuntime build() {
    HoraeRuntime.Builder b = HoraeRuntime.builder().store(store).clock(clock).timers(clock).model(this::script);
    return equipped(dispatching(b));
  }

  /**
   * A second runtime on the rig's store that commits without a dispatch queue and performs nothing
   * itself: a writer from before the dispatch facts existed, whose tickets have no outbox entry.
   */
  HoraeRuntime withoutQueue() {
    return equipped(HoraeRuntime.builder().store(store).clock(clock).timers(clock).model(this::script)
        .dispatchScheduledActions(false));
  }

  private HoraeRuntime.Builder dispatching(HoraeRuntime.Builder b) {
    if (kind == Kind.JDBC) {
      b.dispatchQueue((sessions, flush) -> JdbcDispatchQueue.over(Postgres.started(), gatePrefix, clock, sessions, flush));
    } else {
      b.dispatchQueue(SessionDispatchQueue::over);
    }
    return settings.apply(b);
  }

  private HoraeRuntime equipped(HoraeRuntime.Builder b) {
    HoraeRuntime h = b.build();
    h.tools().register(ToolDefinition.builder("echo").description("Echoes its text.")
        .parameters(Json.parse("{\"type\":\"object\"}"))
        .body((args, exec) -> {
          toolRuns.incrementAndGet();
          entered.release();
          return tool.apply(args, exec);
        }).build());
    for (ToolGate g : gates) {
      var unused = h.gates().register(g);
    }
    return h;
  }

  /**
   * The process dies and a new one starts on the same store: the live sessions are flushed as far
   * as they were, the old runtime is dropped without closing (a tool it holds never returns), and
   * a new runtime opens the agent of every stored session, which folds its dispatch facts into the queue (§12.3: a
   * running claim found at open counts as expired).
   */
  void restart() {
    for (Session s : horae.sessions().list()) {
      var unused = horae.sessions().flush(s).toCompletableFuture().join();
      horae.sessions().detach(s);
    }
    if (store instanceof FileSessionStore f) {
      f.close();
      store = FileSessionStore.open(f.root());
    }
    horae = build();
    queue = horae.dispatchQueue().orElseThrow();
    for (String id : store.ids()) {
      var unused = horae.openAgent(id);
    }
  }

  /** Closes the runtime and the file store; a runtime dropped by {@link #restart} stays unclosed. */
  @Override
  public void close() {
    horae.close();
    if (store instanceof FileSessionStore f) {
      f.close();
    }
  }

  static CompletionStage<JsonNode> echo(JsonNode args, ToolExecution exec) {
    return CompletableFuture.completedFuture(Json.parse("{\"echoed\":\"ping\"}"));
  }

  /** Makes every call of {@code echo} hang on {@code held} (counting the run). */
  void holdTools(CompletableFuture<JsonNode> held) {
    tool = (args, exec) -> held;
  }

  /** Waits, on the bound, until {@code n} more entries into the tool happened. */
  void awaitToolEntries(int n) throws InterruptedException {
    if (!entered.tryAcquire(n, BOUND_S, TimeUnit.SECONDS)) {
      throw new AssertionError("the tool was not entered " + n + " more time(s)");
    }
  }

  private CompletionStage<ModelResponse> script(ModelRequest r) {
    inferences.incrementAndGet();
    String input = inputs.getOrDefault(r.sessionId(), "");
    int calls = input.startsWith("calls:") ? Integer.parseInt(input.substring(6)) : 1;
    if (r.step() <= calls) {
      return CompletableFuture.completedFuture(ModelResponse.calls(
          new ToolCall("call-" + r.step(), "echo", Json.parse("{\"text\":\"ping\"}"))));
    }
    return CompletableFuture.completedFuture(ModelResponse.text("done"));
  }

  /** The Run id of the first turn of session {@code name}: the Run a test calls {@code name}. */
  static String run(String name) {
    return TurnRun.runId(name, 1);
  }

  void gate(ToolGate g) {
    ToolGate named = ToolGate.named("rig-" + gates.size(), g);
    gates.add(named);
    var unused = horae.gates().register(named);
  }

  void scheduleEveryCall() {
    gate((call, state) -> CompletableFuture.completedFuture(GateOutcome.schedule("sched-" + call.callId())));
  }

  void confirmEveryCall() {
    gate((call, state) -> CompletableFuture.completedFuture(GateOutcome.requireConfirmation("confirm-" + call.callId())));
  }

  /**
   * Starts Run {@code name}: prompts the agent of session {@code name} with {@code input} and waits
   * until its turn parks or ends.
   *
   * @return the Run's committed state then (empty when the turn committed no Run)
   */
  Optional<RunState> execute(String name, String input) throws Exception {
    execute(horae, name, input);
    return state(name);
  }

  /** {@link #execute(String, String)} on another runtime of the rig's store ({@link #withoutQueue()}). */
  void execute(HoraeRuntime horae, String name, String input) throws Exception {
    inputs.put(name, input);
    RuntimeAgent agent = horae.openAgent(name);
    CompletableFuture<Void> parked = new CompletableFuture<>();
    var registration = horae.onAwaiting(c -> {
      if (c.runId().equals(run(name))) {
        parked.complete(null);
      }
    });
    try {
      horae.prompt(agent, "go");
      CompletableFuture.anyOf(parked, agent.whenIdle().toCompletableFuture()).get(BOUND_S, TimeUnit.SECONDS);
    } finally {
      registration.close();
    }
  }

  /** Waits until the agent of session {@code name} is idle: its turn ended. */
  void awaitIdle(String name) throws Exception {
    ((RuntimeAgent) horae.agents().get(name).orElseThrow()).whenIdle().toCompletableFuture().get(BOUND_S, TimeUnit.SECONDS);
  }

  CommitStore commits() {
    return queue.store();
  }

  long now() {
    return clock.millis();
  }

  Executor executor() {
    return work::add;
  }

  /** Runs the dispatcher work queued so far, and what that work queues, until none is left. */
  void runWork() {
    Runnable r;
    while ((r = work.poll()) != null) {
      r.run();
    }
  }

  /** Runs dispatcher work as it is queued (also from the runtime's threads) until {@code n} ran. */
  void runWork(int n) throws InterruptedException {
    for (int i = 0; i < n; i++) {
      Runnable r = Objects.requireNonNull(work.poll(BOUND_S, TimeUnit.SECONDS), "no dispatcher work was queued");
      r.run();
    }
  }

  DurableDispatcher.Builder dispatcher(String owner) {
    return horae.durableDispatcher().executor(executor()).owner(owner);
  }

  DurableDispatcher dispatcher(String owner, DispatcherOptions options) {
    return dispatcher(owner).options(options).build();
  }

  static DurableDispatcher.Attempt tick(DurableDispatcher d) throws Exception {
    return d.tick().toCompletableFuture().get(BOUND_S, TimeUnit.SECONDS).orElseThrow();
  }

  Optional<RunState> state(String name) {
    return commits().view().runState(run(name));
  }

  ToolBatch batch(String name) {
    return CommitCodec.decodeBatch(Objects.requireNonNull(commits().view().committedRunState(run(name)).get(ToolBatch.STATE_KEY)));
  }

  /** An answer to Run {@code name}'s committed ticket, with {@code correlation} as its correlation id. */
  ResumeCommand answer(String name, String correlation, ResumeResult result) {
    ResumeTicket t = commits().view().resumeTicket(run(name)).orElseThrow();
    return ResumeCommand.of(correlation, t.runId(), t.threadId(), t.snapshotId(), t.catalogFingerprint(), result, now());
  }

  Session session(String name) {
    return horae.sessions().get(name).orElseThrow();
  }

  /** The events of session {@code name} of {@code type}. */
  List<SessionEvent> events(String name, String type) {
    return session(name).events().stream().filter(e -> e.type().equals(type)).toList();
  }

  /** The Run's terminal facts in its session log, in order: more than one would be two outcomes. */
  List<String> endedFacts(String name) {
    List<String> out = new ArrayList<>();
    for (SessionEvent e : events(name, "gate/commit")) {
      JsonNode run = e.data().path("commit").path("run");
      if (run.path("runId").asText().equals(run(name)) && run.path("type").asText().equals("ended")) {
        out.add(run.path("cause").toString());
      }
    }
    return out;
  }

  /** The reason of the last {@code turn/end} of session {@code name}. */
  String lastTurnEnd(String name) {
    List<SessionEvent> ends = events(name, dev.horae.spi.session.EventTypes.TURN_END);
    return ends.get(ends.size() - 1).data().path("reason").asText();
  }
}

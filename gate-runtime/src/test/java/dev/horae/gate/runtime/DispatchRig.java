package dev.horae.gate.runtime;

import dev.horae.store.Postgres;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.RunState;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.store.FileSessionStore;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * A dispatch backend with the standard scenario's runtime (gate specification §9.3) on a manual
 * clock: input {@code calls:N} makes the model call {@code echo} in N successive steps (one call
 * per step) before answering; any other input makes it call {@code echo} once. Tools can be held
 * to model an attempt that is still running (or whose process died mid-call).
 */
final class DispatchRig implements AutoCloseable {

  /** Which backend a rig runs on. */
  enum Kind {
    IN_MEMORY,
    SESSION_LOG,
    /** Commits in the session log, dispatch records in PostgreSQL ({@link JdbcDispatchQueue}). */
    JDBC
  }

  static final String SNAPSHOT = "snapshot-1";

  final Kind kind;
  LogHost host;
  final ManualTimers timers;
  DispatchQueue queue;
  final String thread;
  final ToolGates gates = ToolGates.create();
  final AtomicInteger toolRuns = new AtomicInteger();
  final AtomicInteger inferences = new AtomicInteger();
  final List<RunState> terminals = Collections.synchronizedList(new ArrayList<>());
  final Deque<Runnable> work = new ArrayDeque<>();
  volatile BiFunction<ToolCall, ToolContext, CompletionStage<ToolOutput>> tool = this::echo;
  final AgentRuntime runtime;
  private Optional<FileSessionStore> files;

  private DispatchRig(Kind kind, LogHost host, Optional<FileSessionStore> files) {
    this.kind = kind;
    this.host = host;
    this.files = files;
    this.timers = new ManualTimers(host);
    if (kind == Kind.IN_MEMORY) {
      this.queue = InMemoryDispatchQueue.create();
      this.thread = "thread-1";
    } else {
      Session s = host.sessions().create(CreateOptions.DEFAULT);
      this.thread = s.id();
      this.queue = kind == Kind.JDBC ? jdbcQueue(host)
          : SessionDispatchQueue.over(host.sessions()::get, host.sessions()::flush);
    }
    this.runtime = AgentRuntime.builder(this::script, (c, x) -> tool.apply(c, x)).gates(gates)
        .listener(new RunListener() {
          @Override
          public void onTerminal(String runId, RunState state) {
            terminals.add(state);
          }
        }).build();
    runtime.registerSnapshot(AgentSnapshot.of(SNAPSHOT, Set.of(), List.of(ToolDescriptor.of("echo"),
        new ToolDescriptor("replayable", new ToolRecoveryPolicy.ReplaySafe(3), false, List.of(), false)), 16));
  }

  /** A migrated queue on tables of its own in the shared embedded PostgreSQL. */
  static JdbcDispatchQueue jdbcQueue(LogHost host) {
    JdbcDispatchQueue q = JdbcDispatchQueue.over(Postgres.started(), Postgres.freshPrefix(), host.clock(),
        host.sessions()::get, host.sessions()::flush);
    q.migrate();
    return q;
  }

  static DispatchRig of(Kind kind) {
    return new DispatchRig(kind, LogHost.create(), Optional.empty());
  }

  /** A session-log rig over a file store in {@code dir}, so a test can reopen it. */
  static DispatchRig onFiles(Path dir) {
    FileSessionStore store = FileSessionStore.open(dir);
    return new DispatchRig(Kind.SESSION_LOG, LogHost.over(store), Optional.of(store));
  }

  /**
   * The process dies: the sessions are flushed as far as they were and dropped, the file store is
   * closed and reopened, and a fresh queue tracks the resumed sessions (§12.3: running claims found
   * at open count as expired).
   */
  void reopen() {
    FileSessionStore old = files.orElseThrow();
    host.sessions().list().forEach(s -> host.sessions().flush(s).toCompletableFuture().join());
    host.sessions().detachAll();
    old.close();
    FileSessionStore reopened = FileSessionStore.open(old.root());
    files = Optional.of(reopened);
    host = host.restartOver(reopened);
    List<Session> resumed = host.sessions().resumeAll();
    SessionDispatchQueue q = SessionDispatchQueue.over(host.sessions()::get, host.sessions()::flush);
    resumed.forEach(q::track);
    queue = q;
  }

  /** Closes the file store, releasing its lock; the in-memory rig holds nothing. */
  @Override
  public void close() {
    files.ifPresent(FileSessionStore::close);
  }

  CommitStore store() {
    return queue.store();
  }

  RunContext ctx() {
    return RunContext.of(store());
  }

  long now() {
    return host.clock().millis();
  }

  Executor executor() {
    return work::add;
  }

  /** Runs queued executor work until none is left. */
  void runWork() {
    Runnable r;
    while ((r = work.poll()) != null) {
      r.run();
    }
  }

  DurableDispatcher.Builder dispatcher(String owner) {
    return DurableDispatcher.builder(runtime, queue).clock(host.clock()).timers(timers)
        .executor(executor()).owner(owner);
  }

  DurableDispatcher dispatcher(String owner, DispatcherOptions options) {
    return dispatcher(owner).options(options).build();
  }

  RunActivation activation(String runId, String input) {
    return new RunActivation(runId, thread, SNAPSHOT, input);
  }

  /** The embedded caller executes a Run through the queue's store. */
  RunState execute(String runId, String input) {
    return runtime.execute(activation(runId, input), ctx()).toCompletableFuture().join();
  }

  void gate(ToolGate g) {
    gates.register(g);
  }

  void scheduleEveryCall() {
    gate((call, state) -> CompletableFuture.completedFuture(
        dev.horae.spi.gate.GateOutcome.schedule("sched-" + call.callId())));
  }

  void confirmEveryCall() {
    gate((call, state) -> CompletableFuture.completedFuture(
        dev.horae.spi.gate.GateOutcome.requireConfirmation("confirm-" + call.callId())));
  }

  private CompletionStage<ModelResponse> script(InferenceRequest r) {
    inferences.incrementAndGet();
    String input = r.messages().stream().filter(m -> m.path("role").asText().equals("user"))
        .findFirst().map(m -> m.path("content").asText()).orElse("");
    int calls = input.startsWith("calls:") ? Integer.parseInt(input.substring(6)) : 1;
    String toolId = input.startsWith("tool:") ? input.substring(5) : "echo";
    if (r.step() <= calls) {
      ObjectNode args = Json.mapper().createObjectNode().put("text", "ping");
      return CompletableFuture.completedFuture(
          ModelResponse.calls(new ToolCall("call-" + r.step(), toolId, args)));
    }
    return CompletableFuture.completedFuture(ModelResponse.text("done"));
  }

  CompletionStage<ToolOutput> echo(ToolCall call, ToolContext ctx) {
    toolRuns.incrementAndGet();
    return CompletableFuture.completedFuture(ToolOutput.success(call.callId(),
        Json.mapper().getNodeFactory().textNode("echoed " + call.arguments().path("text").asText())));
  }

  /** Makes every tool call hang on {@code held} (counting the run). */
  void holdTools(CompletableFuture<ToolOutput> held) {
    tool = (call, ctx) -> {
      toolRuns.incrementAndGet();
      return held;
    };
  }

  Optional<RunState> state(String runId) {
    return store().view().runState(runId);
  }

  /** The run facts committed for the Run, in order (disposition types, ended with its cause). */
  List<String> endedFacts(String runId) {
    List<String> out = new ArrayList<>();
    if (kind != Kind.IN_MEMORY) {
      Session s = host.sessions().get(thread).orElseThrow();
      s.events().stream().filter(e -> e.type().equals("gate/commit")).forEach(e -> {
        JsonNode run = e.data().path("commit").path("run");
        if (run.path("runId").asText().equals(runId) && run.path("type").asText().equals("ended")) {
          out.add(run.toString());
        }
      });
    }
    return out;
  }
}

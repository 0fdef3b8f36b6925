package dev.horae.conformance.internal.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.conformance.Outcome;
import dev.horae.gate.GateJson;
import dev.horae.gate.Plugin;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.AgentRuntime;
import dev.horae.gate.runtime.AgentSnapshot;
import dev.horae.gate.runtime.InferenceRequest;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.gate.runtime.RunActivation;
import dev.horae.gate.runtime.RunContext;
import dev.horae.gate.runtime.SessionCommitStore;
import dev.horae.gate.runtime.ToolContext;
import dev.horae.gate.runtime.ToolDescriptor;
import dev.horae.gate.runtime.ToolRecoveryPolicy;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The gate run engine of one scenario: an {@link AgentRuntime} whose commits live in one agent's
 * session log (through the host's sessions), with a scripted model, an {@code echo}-style tool
 * executor that records every execution, and fixed gates. Rebuilt over the new host after a
 * restart, so committed tickets are rediscovered from the log.
 *
 * <p>Configuration ({@code run.runtime}): {@code model} (replies by step: {@code {"text"}} or
 * {@code {"calls":[{callId, tool, args}]}}), {@code tools} ({@code [{id, clientExecuted?}]}),
 * {@code gates} ({@code [{outcome, tool?}]}, each a fixed GateOutcome, for one tool or all),
 * {@code plugins} and {@code selected} (gate plugins as in {@code gate.mergeEnv}), {@code
 * snapshot}, {@code maxSteps}.
 */
final class GateRun {

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private final JsonNode config;
  private final List<String> executions = Collections.synchronizedList(new ArrayList<>());
  private Session session;
  private SessionCommitStore store;
  private AgentRuntime runtime;

  GateRun(JsonNode config, Host host, Session session) {
    this.config = config;
    this.session = session;
    this.store = SessionCommitStore.over(host.sessions()::get, host.sessions()::flush);
    this.runtime = build();
  }

  /** Rebuilds the engine over a restarted host; the executions seen so far are kept. */
  void rebuild(Host host, Session resumed) {
    session = resumed;
    store = SessionCommitStore.over(host.sessions()::get, host.sessions()::flush);
    store.track(resumed);
    runtime = build();
  }

  private AgentRuntime build() {
    ToolGates gates = ToolGates.create();
    for (JsonNode g : config.path("gates")) {
      GateOutcome outcome = GateJson.decodeOutcome(g.get("outcome"));
      String only = g.path("tool").asText("");
      gates.register((call, state) -> CompletableFuture.completedFuture(
          only.isEmpty() || only.equals(call.toolId()) ? outcome : GateOutcome.allow()));
    }
    AgentRuntime.Builder b = AgentRuntime.builder(this::infer, this::execute).gates(gates);
    for (JsonNode p : config.path("plugins")) {
      Plugin plugin = GateJson.decodePlugin(p);
      b.plugin(plugin);
    }
    AgentRuntime built = b.build();
    List<ToolDescriptor> tools = new ArrayList<>();
    JsonNode declared = config.path("tools");
    if (declared.isMissingNode()) {
      tools.add(ToolDescriptor.of("echo"));
    }
    for (JsonNode t : declared) {
      tools.add(t.path("clientExecuted").asBoolean(false)
          ? new ToolDescriptor(t.get("id").asText(), ToolRecoveryPolicy.neverReplay(), true)
          : ToolDescriptor.of(t.get("id").asText()));
    }
    Set<String> selected = new HashSet<>();
    config.path("selected").forEach(s -> selected.add(s.asText()));
    built.registerSnapshot(AgentSnapshot.of(snapshotId(), selected, tools, config.path("maxSteps").asInt(8)));
    return built;
  }

  String snapshotId() {
    return config.path("snapshot").asText("snapshot-1");
  }

  private CompletionStage<ModelResponse> infer(InferenceRequest request) {
    JsonNode model = config.path("model");
    if (model.isEmpty()) {
      return CompletableFuture.completedFuture(ModelResponse.text("done"));
    }
    JsonNode reply = model.get(Math.min(request.step(), model.size()) - 1);
    if (reply.has("calls")) {
      List<ToolCall> calls = new ArrayList<>();
      for (JsonNode c : reply.get("calls")) {
        calls.add(new ToolCall(c.get("callId").asText(), c.get("tool").asText(),
            c.has("args") ? c.get("args") : F.objectNode()));
      }
      return CompletableFuture.completedFuture(ModelResponse.calls(calls.toArray(new ToolCall[0])));
    }
    return CompletableFuture.completedFuture(ModelResponse.text(reply.path("text").asText("done")));
  }

  private CompletionStage<ToolOutput> execute(ToolCall call, ToolContext context) {
    executions.add(context.operationId());
    return CompletableFuture.completedFuture(ToolOutput.success(call.callId(),
        TextNode.valueOf("echoed " + call.arguments().path("text").asText())));
  }

  private RunContext context(long nowMs) {
    RunContext c = RunContext.of(store).at(nowMs);
    JsonNode after = config.path("deadlineAfterMs");
    if (after.canConvertToExactIntegral()) {
      long delta = after.asLong();
      c = c.withDeadlinePolicy((target, now) -> OptionalLong.of(now + delta));
    }
    return c;
  }

  CompletableFuture<Outcome> execute(String runId, String input, long nowMs) {
    return state(runtime.execute(new RunActivation(runId, session.id(), snapshotId(), input), context(nowMs)));
  }

  CompletableFuture<Outcome> perform(String runId, long nowMs) {
    return outcome(runtime.performScheduledAction(runId, context(nowMs), nowMs));
  }

  CompletableFuture<Outcome> resume(JsonNode command, long nowMs) {
    ResumeCommand c = GateJson.decodeResumeCommand(command);
    return outcome(runtime.resume(c, context(nowMs)));
  }

  /**
   * Resumes with a command built from the run's committed ticket: its identity, then the
   * overrides, then the result and the clock.
   */
  CompletableFuture<Outcome> resumeFromTicket(String runId, JsonNode result, JsonNode overrides, long nowMs) {
    ObjectNode ticket = GateJson.encodeTicket(store.view().resumeTicket(runId)
        .orElseThrow(() -> new IllegalStateException("run " + runId + " has no committed ticket")));
    ObjectNode command = F.objectNode();
    for (String k : new String[] {"correlationId", "runId", "threadId", "snapshotId", "catalogFingerprint"}) {
      command.set(k, ticket.get(k));
    }
    overrides.properties().forEach(m -> command.set(m.getKey(), m.getValue()));
    command.set("result", result);
    command.put("nowMs", nowMs);
    return resume(command, nowMs);
  }

  CompletableFuture<Outcome> cancel(String runId, long nowMs) {
    return state(runtime.cancelRun(runId, session.id(), context(nowMs)));
  }

  CompletableFuture<Outcome> stop(String runId, String reason, long nowMs) {
    return state(runtime.stopRun(runId, session.id(), reason, context(nowMs)));
  }

  Outcome ticket(String runId) {
    return store.view().resumeTicket(runId)
        .map(t -> Outcome.value(GateJson.encodeTicket(t)))
        .orElseGet(Outcome::none);
  }

  Outcome executions() {
    ArrayNode a = F.arrayNode();
    synchronized (executions) {
      executions.forEach(a::add);
    }
    return Outcome.value(a);
  }

  /** The run facts committed for the Run, in log order, as JSON run states. */
  Outcome facts(String runId) {
    ArrayNode a = F.arrayNode();
    for (SessionEvent e : session.events()) {
      if (!e.type().equals("gate/commit")) {
        continue;
      }
      JsonNode run = e.data().path("commit").path("run");
      String id = run.has("ticket") ? run.path("ticket").path("runId").asText() : run.path("runId").asText();
      if (id.equals(runId)) {
        ObjectNode fact = F.objectNode();
        fact.put("type", run.path("type").asText());
        if (run.has("cause")) {
          fact.set("cause", run.get("cause"));
        }
        a.add(fact);
      }
    }
    return Outcome.value(a);
  }

  // the engine's stages may wait on the host (a held flush): never block the scenario on them
  private static CompletableFuture<Outcome> state(CompletionStage<RunState> stage) {
    return stage.toCompletableFuture().thenApply(s -> Outcome.value(GateJson.encodeRunState(s)));
  }

  private static CompletableFuture<Outcome> outcome(CompletionStage<ResumeOutcome> stage) {
    return stage.toCompletableFuture().thenApply(GateRun::render);
  }

  private static Outcome render(ResumeOutcome o) {
    if (o instanceof ResumeOutcome.Advanced a) {
      return Outcome.value(GateJson.encodeRunState(a.state()));
    }
    ResumeOutcome.Rejected r = (ResumeOutcome.Rejected) o;
    ObjectNode error = F.objectNode();
    error.put("code", r.code());
    error.put("message", r.message());
    error.put("display", r.display());
    return Outcome.error(error);
  }
}

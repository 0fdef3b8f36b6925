package dev.horae.conformance.internal.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.conformance.Outcome;
import dev.horae.conformance.scenario.ScenarioHost;
import dev.horae.gate.GateJson;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.CommittedThreadView;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.gate.runtime.SessionCommitStore;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.agent.RuntimeAgents;
import dev.horae.runtime.gate.TurnRun;
import dev.horae.runtime.tool.RuntimeToolRegistry;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The gate host scenarios on the production runtime's turn engine (host contract §6, gate
 * specification §8, §9): one scenario agent whose turns are the gate Runs. {@code run.runtime}
 * gives the agent a model that answers by step, registers the {@code echo} tool (and any declared
 * client-executed tool) in the host's tool registry — each execution recorded by its call id — and
 * registers fixed gates on the host's {@code ToolGates}. A Run is then a prompted turn ({@code
 * <session>/turn-<n>}), answered through the runtime's agent registry: the same code path {@code
 * HoraeRuntime.resume}, {@code performScheduledActions}, {@code cancel} and {@code stop} take.
 * After a restart the tools, gates and model are registered on the new host again; the reopened
 * agent finds its parked turn in its log.
 *
 * <p>Configuration ({@code run.runtime}): {@code model} (replies by step: {@code {"text"}} or
 * {@code {"calls":[{callId, tool, args}]}}), {@code tools} ({@code [{id, clientExecuted?}]}, default
 * {@code echo}), {@code gates} ({@code [{outcome, tool?}]}, each a fixed GateOutcome, for one tool
 * or all).
 */
final class GateRun {

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private final JsonNode config;
  private final List<String> executions = Collections.synchronizedList(new ArrayList<>());
  private final List<Registration> registrations = new ArrayList<>();
  private ScenarioHost host;
  private RuntimeAgent agent;
  private SessionCommitStore commits;

  /** Members the old engine's {@code run.runtime} took: the host setup and the turn's own ids carry them now. */
  private static final List<String> MOVED = List.of("plugins", "selected", "snapshot", "maxSteps", "deadlineAfterMs");

  GateRun(JsonNode config, ScenarioHost host, Agent agent) {
    for (String m : MOVED) {
      if (config.has(m)) {
        throw new IllegalArgumentException("run.runtime takes no \"" + m + "\": gate plugins and deadlines are host setup"
            + " (gatePlugins, awaitDeadlineMs), the snapshot is the agent's own and the turn has no step ceiling");
      }
    }
    this.config = config;
    this.host = host;
    this.agent = runtimeAgent(agent);
    this.commits = view(host.host());
    wire();
  }

  /** Wires the same tools, gates and model on a restarted host, to the agent of the resumed session. */
  void rebuild(ScenarioHost restarted, Agent resumed) {
    registrations.forEach(Registration::close);
    registrations.clear();
    host = restarted;
    agent = runtimeAgent(resumed);
    commits = view(restarted.host());
    wire();
  }

  private SessionCommitStore view(Host h) {
    SessionCommitStore store = SessionCommitStore.over(h.sessions()::get, h.sessions()::flush);
    store.track(agent.session());
    return store;
  }

  /** The committed view, caught up with the agent's log: a Run is found by id only once its thread was read. */
  private CommittedThreadView committed() {
    commits.track(agent.session());
    return commits.view();
  }

  private static RuntimeAgent runtimeAgent(Agent a) {
    if (a instanceof RuntimeAgent r) {
      return r;
    }
    throw new IllegalStateException("the gate scenarios drive the runtime's turn engine; agent " + a.id() + " is not a runtime agent");
  }

  private RuntimeAgents agents() {
    if (host.host().agents() instanceof RuntimeAgents r) {
      return r;
    }
    throw new IllegalStateException("the gate scenarios drive the runtime's turn engine; this host's agents are not the runtime's");
  }

  private void wire() {
    Host h = host.host();
    if (!(h.tools() instanceof RuntimeToolRegistry tools)) {
      throw new IllegalStateException("the gate scenarios need the runtime's tool registry");
    }
    JsonNode declared = config.path("tools");
    if (declared.isMissingNode()) {
      registrations.add(tools.register(echo("echo")));
    }
    for (JsonNode t : declared) {
      ToolDefinition tool = echo(t.get("id").asText());
      registrations.add(t.path("clientExecuted").asBoolean(false) ? tools.registerClientExecuted(tool) : tools.register(tool));
    }
    ToolGates gates = h.service(ToolGates.class).orElseThrow(() -> new IllegalStateException("the host offers no ToolGates"));
    for (JsonNode g : config.path("gates")) {
      GateOutcome outcome = GateJson.decodeOutcome(g.get("outcome"));
      String only = g.path("tool").asText("");
      registrations.add(gates.register((call, state) -> CompletableFuture.completedFuture(
          only.isEmpty() || only.equals(call.toolId()) ? outcome : GateOutcome.allow())));
    }
    agent.useModel(model());
  }

  private ToolDefinition echo(String name) {
    return ToolDefinition.builder(name)
        .body((args, exec) -> {
          executions.add(exec.callId());
          return CompletableFuture.completedFuture(TextNode.valueOf("echoed " + args.path("text").asText()));
        })
        .build();
  }

  /** The scripted model: the reply of the request's step (the last one for any later step). */
  private ModelPort model() {
    JsonNode replies = config.path("model");
    return request -> {
      if (replies.isEmpty()) {
        return CompletableFuture.completedFuture(ModelResponse.text("done"));
      }
      JsonNode reply = replies.get((int) Math.min(request.step(), replies.size()) - 1);
      if (reply.has("calls")) {
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode c : reply.get("calls")) {
          calls.add(new ToolCall(c.get("callId").asText(), c.get("tool").asText(),
              c.has("args") ? c.get("args") : F.objectNode()));
        }
        return CompletableFuture.completedFuture(ModelResponse.calls(calls.toArray(new ToolCall[0])));
      }
      return CompletableFuture.completedFuture(ModelResponse.text(reply.path("text").asText("done")));
    };
  }

  /**
   * Prompts the agent: one turn, one Run. The outcome is the Run's state once the turn parked
   * ({@code awaiting}) or ended (its committed terminal fact, else the end its reason maps to).
   *
   * @param runId the Run the turn must be, if the step names one
   * @param input the prompt
   */
  CompletableFuture<Outcome> execute(Optional<String> runId, String input) {
    CompletableFuture<Outcome> out = new CompletableFuture<>();
    String session = agent.session().id();
    RuntimeAgents agents = agents();
    Registration parked = agents.onAwaiting(call -> {
      if (call.sessionId().equals(session)) {
        settle(out, runId, call.runId(), RunState.awaiting());
      }
    });
    Registration ended = agents.onTurnEnd(turn -> {
      if (turn.sessionId().equals(session)) {
        String id = TurnRun.runId(session, turn.turn());
        RunState state = committed().committedRun(id).map(c -> c.record().state())
            .filter(RunState::isTerminal).orElseGet(() -> RunState.ended(TurnRun.causeOf(turn.reason())));
        settle(out, runId, id, state);
      }
    });
    var unused = out.whenComplete((o, e) -> {
      parked.close();
      ended.close();
    });
    host.prompt(agent, input, Optional.empty(), Optional.empty());
    return out;
  }

  private static void settle(CompletableFuture<Outcome> out, Optional<String> expected, String runId, RunState state) {
    if (expected.isPresent() && !expected.get().equals(runId)) {
      out.completeExceptionally(new IllegalStateException("the turn is run " + runId + ", not " + expected.get()));
    } else {
      out.complete(Outcome.value(GateJson.encodeRunState(state)));
    }
  }

  CompletableFuture<Outcome> perform(String runId) {
    return outcome(agents().perform(runId));
  }

  CompletableFuture<Outcome> resume(JsonNode command) {
    return outcome(agents().resume(GateJson.decodeResumeCommand(command)));
  }

  /**
   * Resumes with a command built from the run's committed ticket: its identity, then the
   * overrides, then the result and the clock.
   */
  CompletableFuture<Outcome> resumeFromTicket(String runId, JsonNode result, JsonNode overrides, long nowMs) {
    ObjectNode ticket = GateJson.encodeTicket(committed().resumeTicket(runId)
        .orElseThrow(() -> new IllegalStateException("run " + runId + " has no committed ticket")));
    ObjectNode command = F.objectNode();
    for (String k : new String[] {"correlationId", "runId", "threadId", "snapshotId", "catalogFingerprint"}) {
      command.set(k, ticket.get(k));
    }
    overrides.properties().forEach(m -> command.set(m.getKey(), m.getValue()));
    command.set("result", result);
    command.put("nowMs", nowMs);
    ResumeCommand decoded = GateJson.decodeResumeCommand(command);
    return outcome(agents().resume(decoded));
  }

  CompletableFuture<Outcome> cancel(String runId) {
    return outcome(agents().cancel(runId));
  }

  CompletableFuture<Outcome> stop(String runId, String reason) {
    return outcome(agents().stop(runId, reason));
  }

  Outcome ticket(String runId) {
    return committed().resumeTicket(runId)
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
    for (SessionEvent e : agent.session().events()) {
      if (!e.type().equals("gate/commit")) {
        continue;
      }
      JsonNode run = e.data().path("commit").path("run");
      String id = run.has("ticket") ? run.path("ticket").path("runId").asText() : run.path("runId").asText();
      if (id.equals(runId)) {
        ObjectNode fact = F.objectNode();
        fact.put("type", run.path("type").asText());
        for (String k : new String[] {"cause", "reason", "failure"}) {
          if (run.has(k)) {
            fact.set(k, run.get(k));
          }
        }
        a.add(fact);
      }
    }
    return Outcome.value(a);
  }

  // the turn's stages may wait on the host (a held flush): never block the scenario on them
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

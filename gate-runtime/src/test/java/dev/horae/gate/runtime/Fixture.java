package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.Plugin;
import dev.horae.gate.RunState;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The standard scenario of the gate specification (§9.3): the model calls {@code echo} once
 * ({@code call-1}, {@code {"text":"ping"}}) and then answers. Runs on the runtime's sessions service.
 */
final class Fixture {

  static final String SNAPSHOT = "snapshot-1";

  final LogHost host;
  final Session session;
  final SessionCommitStore store;
  final AgentRuntime runtime;
  final AtomicInteger toolRuns = new AtomicInteger();
  final List<String> operationIds = Collections.synchronizedList(new ArrayList<>());
  final ToolGates gates;
  final List<JsonNode> liveEvents = Collections.synchronizedList(new ArrayList<>());

  Fixture(List<Plugin> plugins, Set<String> selected) {
    this(LogHost.create(), plugins, selected);
  }

  Fixture() {
    this(List.of(), Set.of());
  }

  Fixture(LogHost host, List<Plugin> plugins, Set<String> selected) {
    this.host = host;
    this.session = host.sessions().list().isEmpty()
        ? host.sessions().create(CreateOptions.DEFAULT) : host.sessions().list().get(0);
    this.store = SessionCommitStore.over(host.sessions()::get, host.sessions()::flush);
    this.gates = ToolGates.create();
    AgentRuntime.Builder b = AgentRuntime.builder(Fixture::script, this::echo).gates(gates)
        .listener(new RunListener() {
          @Override
          public void onEvent(JsonNode event) {
            liveEvents.add(event);
          }
        });
    plugins.forEach(b::plugin);
    this.runtime = b.build();
    runtime.registerSnapshot(AgentSnapshot.of(SNAPSHOT, selected,
        List.of(ToolDescriptor.of("echo"), new ToolDescriptor("client", ToolRecoveryPolicy.neverReplay(), true)), 8));
  }

  String thread() {
    return session.id();
  }

  RunContext ctx() {
    return RunContext.of(store);
  }

  /** Step 1 calls echo (or the tool named by the input), later steps answer. */
  static CompletionStage<ModelResponse> script(InferenceRequest r) {
    if (r.step() == 1) {
      String input = r.messages().get(r.messages().size() - 1).path("content").asText();
      String tool = input.startsWith("tool:") ? input.substring(5) : "echo";
      ObjectNode args = Json.mapper().createObjectNode().put("text", "ping");
      return CompletableFuture.completedFuture(ModelResponse.calls(new ToolCall("call-1", tool, args)));
    }
    return CompletableFuture.completedFuture(ModelResponse.text("done"));
  }

  CompletionStage<ToolOutput> echo(ToolCall call, ToolContext ctx) {
    toolRuns.incrementAndGet();
    operationIds.add(ctx.operationId());
    return CompletableFuture.completedFuture(
        ToolOutput.success(call.callId(), Json.mapper().getNodeFactory().textNode("echoed " + call.arguments().path("text").asText())));
  }

  void gate(ToolGate gate) {
    gates.register(gate);
  }

  RunState execute(String runId) {
    return execute(runId, "go");
  }

  RunState execute(String runId, String input) {
    return runtime.execute(new RunActivation(runId, thread(), SNAPSHOT, input), ctx())
        .toCompletableFuture().join();
  }

  ResumeOutcome perform(String runId) {
    return runtime.performScheduledAction(runId, ctx(), host.clock().millis()).toCompletableFuture().join();
  }

  /** The run facts committed for the Run, in order, as JSON run states. */
  List<String> runFacts(String runId) {
    List<String> out = new ArrayList<>();
    session.events().stream().filter(e -> e.type().equals("gate/commit")).forEach(e -> {
      JsonNode run = e.data().path("commit").path("run");
      String id = run.has("ticket") ? run.path("ticket").path("runId").asText() : run.path("runId").asText();
      if (id.equals(runId)) {
        out.add(run.path("type").asText() + (run.has("cause") ? "(" + run.path("cause").asText() + ")" : ""));
      }
    });
    return out;
  }

  static ToolGate scheduling(String correlation) {
    return (call, state) -> CompletableFuture.completedFuture(dev.horae.spi.gate.GateOutcome.schedule(correlation));
  }
}

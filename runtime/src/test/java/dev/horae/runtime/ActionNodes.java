package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.gate.AwaitReason;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.spi.Registration;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The runtimes of the scheduled-action tests, as nodes of one deployment: every node has the same
 * tools and gates (so a ticket one node committed matches the catalog of another), {@code
 * send_email} is a scheduled action, {@code wipe} asks for confirmation, and the model calls
 * {@code send_email} first, then (when told to) {@code wipe}, then answers. The tools count their
 * runs per session across every node of a test.
 */
final class ActionNodes {

  static final Instant START = Instant.parse("2026-12-01T09:00:00Z");

  /** {@code send_email} runs per session. */
  final Map<String, AtomicInteger> sends = new ConcurrentHashMap<>();
  /** {@code wipe} runs per session. */
  final Map<String, AtomicInteger> wipes = new ConcurrentHashMap<>();
  /** Run by {@code send_email} before it answers, on the driver's thread (a node dying in the tool). */
  volatile Runnable inSend = () -> {};

  /** Step 1 calls send_email; after its result, a prompt containing "wipe" calls wipe; then text. */
  static final ModelPort MODEL = request -> {
    List<ChatMessage> history = request.messages();
    long outcomes = history.stream().filter(m -> m instanceof ChatMessage.ToolOutcome).count();
    boolean wipe = history.stream().anyMatch(m -> m instanceof ChatMessage.User u && u.text().contains("wipe"));
    ModelResponse r;
    if (outcomes == 0) {
      r = ModelResponse.calls(new ToolCall("call-send", "send_email", Json.parse("{\"to\":\"ada@example.com\"}")));
    } else if (outcomes == 1 && wipe) {
      r = ModelResponse.calls(new ToolCall("call-wipe", "wipe", Json.parse("{}")));
    } else {
      r = ModelResponse.text("sent");
    }
    return CompletableFuture.completedFuture(r);
  };

  /**
   * A node: the builder with the manual time, the model, the tools and the gates.
   *
   * @param b the builder with the node's store (and leases, dispatch, due sessions)
   * @param time the test's time
   * @return the runtime
   */
  HoraeRuntime node(HoraeRuntime.Builder b, ManualTimers time) {
    HoraeRuntime horae = b.clock(time).timers(time).model(MODEL).build();
    horae.tools().register(counting("send_email", sends, true));
    horae.tools().register(counting("wipe", wipes, false));
    var unused = horae.gates().register((call, state) -> CompletableFuture.completedFuture(
        call.toolId().equals("send_email") ? GateOutcome.schedule("email-" + call.callId())
            : call.toolId().equals("wipe") ? GateOutcome.requireConfirmation("wipe-" + call.callId()) : GateOutcome.allow()));
    return horae;
  }

  private ToolDefinition counting(String name, Map<String, AtomicInteger> runs, boolean send) {
    return ToolDefinition.builder(name)
        .description("Counts its runs per session.")
        .parameters(Json.parse("{\"type\":\"object\"}"))
        .body((args, exec) -> {
          runs.computeIfAbsent(exec.agent().session().id(), k -> new AtomicInteger()).incrementAndGet();
          if (send) {
            inSend.run();
          }
          return CompletableFuture.completedFuture(Json.parse("{\"ok\":true}"));
        })
        .build();
  }

  /**
   * Node A's part: opens each session, prompts it and waits until its {@code send_email} is
   * committed as a scheduled action (the ticket durable, the agent parked); nothing is performed.
   *
   * @param a a node built with {@code dispatchScheduledActions(false)}
   * @param ids the sessions
   * @throws InterruptedException when interrupted
   */
  static void commitActions(HoraeRuntime a, List<String> ids) throws InterruptedException {
    BlockingQueue<AwaitingCall> parked = new LinkedBlockingQueue<>();
    Registration listening = a.onAwaiting(parked::add);
    try {
      for (String id : ids) {
        a.prompt(a.openAgent(id), "send the report");
        AwaitingCall call = parked.poll(20, TimeUnit.SECONDS);
        assertThat(call).as("parked " + id).isNotNull();
        assertThat(call.reason()).isEqualTo(AwaitReason.SCHEDULED_ACTION);
        assertThat(call.sessionId()).isEqualTo(id);
      }
    } finally {
      listening.close();
    }
  }

  /**
   * Waits, bounded, until the agent has no turn running or parked.
   *
   * @param agent the agent
   * @throws Exception when it does not get there in 20 s
   */
  static void awaitIdle(RuntimeAgent agent) throws Exception {
    agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  /**
   * The Run facts of one Run in a log, oldest first: {@code awaiting}, {@code running}, {@code
   * ended(<cause>[:<reason>])}.
   *
   * @param log the session's log
   * @param runId the Run
   * @return its facts
   */
  static List<String> runFacts(List<SessionEvent> log, String runId) {
    return log.stream().filter(e -> e.type().equals("gate/commit")).map(e -> e.data().path("commit").path("run"))
        .filter(run -> (run.has("ticket") ? run.path("ticket").path("runId") : run.path("runId")).asText().equals(runId))
        .map(run -> run.path("type").asText() + (run.has("cause")
            ? "(" + run.path("cause").asText() + (run.has("reason") ? ":" + run.path("reason").asText() : "") + ")" : ""))
        .toList();
  }

  /**
   * How many of a Run's facts are terminal.
   *
   * @param log the session's log
   * @param runId the Run
   * @return the count
   */
  static long terminalFacts(List<SessionEvent> log, String runId) {
    return runFacts(log, runId).stream().filter(f -> f.startsWith("ended")).count();
  }

  /**
   * The commit time of the Run's latest awaiting fact.
   *
   * @param log the session's log
   * @param runId the Run
   * @return epoch milliseconds
   */
  static long awaitingCommitTime(List<SessionEvent> log, String runId) {
    return log.stream().filter(e -> e.type().equals("gate/commit")
            && e.data().path("commit").path("run").path("ticket").path("runId").asText().equals(runId))
        .reduce((x, y) -> y).orElseThrow().time();
  }

  int sendsOf(String id) {
    AtomicInteger n = sends.get(id);
    return n == null ? 0 : n.get();
  }

  int wipesOf(String id) {
    AtomicInteger n = wipes.get(id);
    return n == null ? 0 : n.get();
  }
}

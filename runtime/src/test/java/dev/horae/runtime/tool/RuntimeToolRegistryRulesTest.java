package dev.horae.runtime.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.AbortController;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.json.FrozenJson;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolBody;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The tool registry's rules (host contract §8.1, §8.2): names unique per scope, an agent's own
 * tools in front of the global ones, the call pipeline's order (pre-execute listeners, argument
 * validation, execution, output validation, cancellation, final content) with its stable error
 * texts and codes, and exclusive mode.
 */
@Timeout(30)
class RuntimeToolRegistryRulesTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z"));

  private HoraeRuntime horae;
  private RuntimeToolRegistry tools;
  private RuntimeAgent agent;
  private RuntimeAgent other;

  @BeforeEach
  void open() {
    horae = HoraeRuntime.builder().clock(CLOCK).build();
    tools = horae.tools();
    agent = horae.openAgent("s-tools");
    other = horae.openAgent("s-other");
  }

  @AfterEach
  void close() {
    horae.close();
  }

  private static ToolDefinition tool(String name, ToolBody body) {
    return ToolDefinition.builder(name)
        .parameters(Json.parse("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}"))
        .body(body)
        .build();
  }

  private static ToolDefinition answering(String name, String answer) {
    return tool(name, (args, exec) -> CompletableFuture.completedFuture(Json.parse("{\"from\":\"" + answer + "\"}")));
  }

  private ToolResult call(RuntimeAgent who, String name, String arguments) throws Exception {
    return call(who, name, arguments, AbortSignal.never());
  }

  private ToolResult call(RuntimeAgent who, String name, String arguments, AbortSignal signal) throws Exception {
    return tools.call(new ToolInvocation(who, new ToolCall("c1", name, Json.parse(arguments))), signal)
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aNameIsUniquePerScopeAndAClosedRegistrationRemovesOnlyItsOwnTool() throws Exception {
    Registration first = tools.register(answering("t", "first"));
    assertThatThrownBy(() -> tools.register(answering("t", "again")))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("tool \"t\" is already registered");
    // an agent's scope is its own namespace: the same name may be registered there once
    Registration own = tools.registerFor(agent.id(), answering("t", "own"));
    assertThatThrownBy(() -> tools.registerFor(agent.id(), answering("t", "own again")))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("tool \"t\" is already registered");

    first.close();
    Registration second = tools.register(answering("t", "second"));
    // closing the stale handle again must not take the new registration with it
    first.close();
    assertThat(call(other, "t", "{\"n\":1}").value()).hasValueSatisfying(v -> assertThat(v.path("from").asText()).isEqualTo("second"));
    own.close();
    assertThat(call(agent, "t", "{\"n\":1}").value()).hasValueSatisfying(v -> assertThat(v.path("from").asText()).isEqualTo("second"));
    second.close();
    assertThat(tools.visibleTo(agent)).isEmpty();
  }

  @Test
  void anAgentsOwnToolShadowsTheGlobalOneOnlyForThatAgent() throws Exception {
    ToolDefinition globalA = answering("a", "global");
    ToolDefinition globalB = answering("b", "global");
    ToolDefinition ownA = answering("a", "own");
    ToolDefinition ownC = answering("c", "own");
    var unusedA = tools.register(globalA);
    var unusedB = tools.register(globalB);
    var unusedOwn = tools.registerFor(agent.id(), ownA);
    var unusedC = tools.registerFor(agent.id(), ownC);

    assertThat(tools.visibleTo(agent)).containsExactly(ownA, globalB, ownC);
    assertThat(tools.visibleTo(other)).containsExactly(globalA, globalB);
    assertThat(tools.find(agent, "a")).containsSame(ownA);
    assertThat(tools.find(agent, "b")).containsSame(globalB);
    assertThat(tools.find(other, "c")).isEmpty();
    assertThat(call(agent, "a", "{\"n\":1}").value().orElseThrow().path("from").asText()).isEqualTo("own");
    assertThat(call(other, "a", "{\"n\":1}").value().orElseThrow().path("from").asText()).isEqualTo("global");
  }

  @Test
  void preExecuteListenersRunPrependedFirstBeforeEveryCallEvenAnUnknownOne() throws Exception {
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    var unused1 = tools.onPreExecute(i -> order.add("appended-1 " + i.call().toolId()), false);
    var unused2 = tools.onPreExecute(i -> order.add("prepended-1"), true);
    Registration late = tools.onPreExecute(i -> order.add("prepended-2"), true);
    var unused3 = tools.onPreExecute(i -> order.add("appended-2"), false);

    ToolResult unknown = call(agent, "missing", "{}");
    assertThat(order).containsExactly("prepended-1", "prepended-2", "appended-1 missing", "appended-2");
    assertThat(unknown.isError()).isTrue();
    assertThat(unknown.text()).isEqualTo("Error: unknown tool \"missing\"");
    assertThat(unknown.code()).hasValue("UNKNOWN_TOOL");

    order.clear();
    late.close();
    var unused4 = call(agent, "missing", "{}");
    assertThat(order).containsExactly("prepended-1", "appended-1 missing", "appended-2");
  }

  @Test
  void aThrowingPreExecuteListenerFailsThatCallWithoutItsBodyAndTheAgentsNextCallStillRuns() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    var unusedTool = tools.register(tool("counted", (args, exec) -> {
      runs.incrementAndGet();
      return CompletableFuture.completedFuture(Json.parse("{}"));
    }));
    AtomicInteger seen = new AtomicInteger();
    var unusedListener = tools.onPreExecute(i -> {
      if (seen.incrementAndGet() == 1) {
        throw new IllegalStateException("listener broke");
      }
    }, false);
    ToolResult failed = call(agent, "counted", "{\"n\":1}");
    assertThat(failed.isError()).isTrue();
    assertThat(failed.text()).isEqualTo("Error: listener broke");
    assertThat(runs).hasValue(0);
    // exclusive mode queues the agent's next call behind the failed one: it must not wait forever
    assertThat(call(agent, "counted", "{\"n\":2}").isError()).isFalse();
    assertThat(runs).hasValue(1);
  }

  @Test
  void invalidArgumentsAreOneErrorWithEveryDetailAndTheBodyNeverRuns() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    var unused = tools.register(ToolDefinition.builder("strict")
        .parameters(Json.parse("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"},\"s\":{\"type\":\"string\"}},"
            + "\"required\":[\"n\"]}"))
        .body((args, exec) -> {
          runs.incrementAndGet();
          return CompletableFuture.completedFuture(Json.parse("{}"));
        })
        .build());
    int before = tools.bodyRuns();
    ToolResult r = call(agent, "strict", "{\"s\":1}");
    assertThat(r.isError()).isTrue();
    assertThat(r.text()).isEqualTo("Error: invalid arguments: missing required property \"n\"; /s: expected string, got number");
    assertThat(r.code()).hasValue(ToolResult.INVALID_ARGS);
    assertThat(runs).hasValue(0);
    assertThat(tools.bodyRuns()).isEqualTo(before);
    // the root is open: an unknown top-level member reaches the body
    assertThat(call(agent, "strict", "{\"n\":1,\"extra\":true}").isError()).isFalse();
    assertThat(runs).hasValue(1);
    assertThat(tools.bodyRuns()).isEqualTo(before + 1);
  }

  @Test
  void aThrowingOrFailingBodyIsAnErrorResultCarryingItsMessage() throws Exception {
    var unusedThrows = tools.register(tool("throws", (args, exec) -> {
      throw new IllegalStateException("the disk is gone");
    }));
    var unusedFails = tools.register(tool("fails", (args, exec) ->
        CompletableFuture.failedFuture(new CompletionException(new IllegalArgumentException("bad input, said the body")))));
    var unusedPlain = tools.register(tool("plain", (args, exec) ->
        CompletableFuture.failedFuture(new IllegalArgumentException("plain failure"))));

    ToolResult thrown = call(agent, "throws", "{\"n\":1}");
    assertThat(thrown.isError()).isTrue();
    assertThat(thrown.text()).isEqualTo("Error: the disk is gone");
    assertThat(thrown.code()).isEmpty();
    // a wrapped failure reads as its cause, not as the wrapper's "java.lang...: " text
    assertThat(call(agent, "fails", "{\"n\":1}").text()).isEqualTo("Error: bad input, said the body");
    assertThat(call(agent, "plain", "{\"n\":1}").text()).isEqualTo("Error: plain failure");
  }

  @Test
  void theOutputIsValidatedFrozenAndRendered() throws Exception {
    ObjectNode produced = Json.mapper().createObjectNode().put("count", 2);
    var unusedGood = tools.register(ToolDefinition.builder("good")
        .output(Json.parse("{\"type\":\"object\",\"properties\":{\"count\":{\"type\":\"integer\"}}}"))
        .renderer(v -> List.of(new ContentBlock("count is " + v.path("count").asInt())))
        .body((args, exec) -> CompletableFuture.completedFuture(produced))
        .build());
    var unusedBad = tools.register(ToolDefinition.builder("bad")
        .output(Json.parse("{\"type\":\"object\",\"required\":[\"count\"]}"))
        .body((args, exec) -> CompletableFuture.completedFuture(Json.parse("{\"other\":1}")))
        .build());

    ToolResult good = call(agent, "good", "{}");
    assertThat(good.isError()).isFalse();
    assertThat(good.text()).isEqualTo("count is 2");
    // the body keeps its object; changing it later changes nothing the model or the log read
    produced.put("count", 99);
    assertThat(good.value().orElseThrow().path("count").asInt()).isEqualTo(2);
    // and what the result holds is immutable (§8.2 step 4)
    assertThat(FrozenJson.isFrozen(good.value().orElseThrow())).isTrue();
    assertThatThrownBy(() -> ((ObjectNode) good.value().orElseThrow()).put("count", 3))
        .isInstanceOf(UnsupportedOperationException.class);

    // a value that is already frozen is handed on as it is: a list of a million rows is not copied
    JsonNode rows = FrozenJson.lazyArray(3, i -> Json.parse("{\"count\":" + i + "}").get("count"));
    var unusedRows = tools.register(ToolDefinition.builder("rows")
        .output(Json.parse("{\"type\":\"array\",\"items\":{\"type\":\"integer\"}}"))
        .renderer(v -> List.of(new ContentBlock(v.toString())))
        .body((args, exec) -> CompletableFuture.completedFuture(rows))
        .build());
    ToolResult listed = call(agent, "rows", "{}");
    assertThat(listed.value().orElseThrow()).isSameAs(rows);
    assertThat(listed.text()).isEqualTo("[0,1,2]");

    ToolResult bad = call(agent, "bad", "{}");
    assertThat(bad.isError()).isTrue();
    assertThat(bad.text()).isEqualTo("Error: invalid output: missing required property \"count\"");
    assertThat(bad.code()).hasValue("INVALID_OUTPUT");
  }

  @Test
  void aCallCancelledBeforeItsBodyNeverRunsAndOneCancelledDuringItWaitsForTheBody() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    CompletableFuture<JsonNode> release = new CompletableFuture<>();
    CompletableFuture<Void> started = new CompletableFuture<>();
    var unused = tools.register(tool("slow", (args, exec) -> {
      runs.incrementAndGet();
      started.complete(null);
      return release;
    }));

    AbortController before = new AbortController();
    before.abort();
    ToolResult early = call(agent, "slow", "{\"n\":1}", before.signal());
    assertThat(early.code()).hasValue(ToolResult.ABORTED);
    assertThat(early.info().orElseThrow().path("name").asText()).isEqualTo("AbortError");
    assertThat(runs).hasValue(0);
    // invalid arguments are reported as such even on a cancelled call: validation comes first
    assertThat(call(agent, "slow", "{}", before.signal()).code()).hasValue(ToolResult.INVALID_ARGS);

    AbortController during = new AbortController();
    CompletableFuture<ToolResult> pending = tools.call(
        new ToolInvocation(agent, new ToolCall("c2", "slow", Json.parse("{\"n\":1}"))), during.signal()).toCompletableFuture();
    started.get(10, TimeUnit.SECONDS);
    during.abort();
    assertThat(pending).isNotDone();
    // the body settles with a placeholder, which is discarded
    release.complete(Json.parse("{\"placeholder\":true}"));
    ToolResult cancelled = pending.get(10, TimeUnit.SECONDS);
    assertThat(cancelled.code()).hasValue(ToolResult.ABORTED);
    assertThat(cancelled.value()).isEmpty();
    assertThat(runs).hasValue(1);
  }

  @Test
  void theFinalContentCallbackRunsOnceOnEveryKindOfResult() throws Exception {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger n = new AtomicInteger();
    var unused = tools.register(ToolDefinition.builder("capped")
        .parameters(Json.parse("{\"type\":\"object\",\"properties\":{\"mode\":{\"enum\":[\"ok\",\"throw\",\"badout\"]}}}"))
        .output(Json.parse("{\"type\":\"object\"}"))
        .body((args, exec) -> switch (args.path("mode").asText()) {
          case "throw" -> throw new IllegalStateException("boom");
          case "badout" -> CompletableFuture.completedFuture(Json.parse("[]"));
          default -> CompletableFuture.completedFuture(Json.parse("{}"));
        })
        .finalContent((invocation, result) -> {
          seen.add(invocation.call().arguments().path("mode").asText() + " " + result.isError());
          return List.of(new ContentBlock("capped " + n.incrementAndGet()));
        })
        .build());
    AbortController aborted = new AbortController();
    aborted.abort();

    assertThat(call(agent, "capped", "{\"mode\":\"ok\"}").text()).isEqualTo("capped 1");
    assertThat(call(agent, "capped", "{\"mode\":\"throw\"}").text()).isEqualTo("capped 2");
    assertThat(call(agent, "capped", "{\"mode\":\"badout\"}").text()).isEqualTo("capped 3");
    assertThat(call(agent, "capped", "{\"mode\":\"nope\"}").text()).isEqualTo("capped 4");
    ToolResult cancelled = call(agent, "capped", "{\"mode\":\"ok\"}", aborted.signal());
    assertThat(cancelled.text()).isEqualTo("capped 5");
    assertThat(cancelled.code()).hasValue(ToolResult.ABORTED);
    assertThat(seen).containsExactly("ok false", "throw true", "badout true", "nope true", "ok true");
  }

  @Test
  void oneAgentsCallsRunOneAfterAnotherInCallOrderWhileAnotherAgentsRunBeside() throws Exception {
    CompletableFuture<JsonNode> firstRelease = new CompletableFuture<>();
    List<String> started = Collections.synchronizedList(new ArrayList<>());
    var unused = tools.register(tool("step", (args, exec) -> {
      started.add(exec.agent().id() + " " + exec.callId());
      return exec.callId().equals("a1") ? firstRelease : CompletableFuture.completedFuture(Json.parse("{}"));
    }));
    CompletableFuture<ToolResult> a1 = tools.call(new ToolInvocation(agent, new ToolCall("a1", "step", Json.parse("{\"n\":1}"))),
        AbortSignal.never()).toCompletableFuture();
    CompletableFuture<ToolResult> a2 = tools.call(new ToolInvocation(agent, new ToolCall("a2", "step", Json.parse("{\"n\":2}"))),
        AbortSignal.never()).toCompletableFuture();
    // the other agent's call is not behind the held one
    ToolResult b1 = tools.call(new ToolInvocation(other, new ToolCall("b1", "step", Json.parse("{\"n\":1}"))),
        AbortSignal.never()).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(b1.isError()).isFalse();
    assertThat(a2).isNotDone();
    assertThat(started).containsExactly(agent.id() + " a1", other.id() + " b1");

    firstRelease.complete(Json.parse("{}"));
    assertThat(a1.get(10, TimeUnit.SECONDS).isError()).isFalse();
    assertThat(a2.get(10, TimeUnit.SECONDS).isError()).isFalse();
    assertThat(started).containsExactly(agent.id() + " a1", other.id() + " b1", agent.id() + " a2");
  }

  @Test
  void aFailedCallDoesNotBlockTheAgentsNextOne() throws Exception {
    var unusedFails = tools.register(tool("fails", (args, exec) -> CompletableFuture.failedFuture(new IllegalStateException("no"))));
    var unusedOk = tools.register(answering("ok", "fine"));
    assertThat(call(agent, "fails", "{\"n\":1}").text()).isEqualTo("Error: no");
    assertThat(call(agent, "ok", "{\"n\":1}").isError()).isFalse();
  }
}

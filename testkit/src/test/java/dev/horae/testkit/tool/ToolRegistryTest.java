package dev.horae.testkit.tool;

import dev.horae.runtime.tool.RuntimeToolRegistry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.AbortController;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ToolRegistryTest {

  private static final JsonNode SCHEMA = Json.parse("""
      {"type":"object","properties":{
         "after_seconds":{"type":"number"},
         "prompt":{"type":"string"},
         "mode":{"enum":["a","b"]},
         "at":{"oneOf":[{"type":"string"},{"type":"object","properties":{"date":{"type":"string"}},"required":["date"],"additionalProperties":false}]}},
       "required":["prompt"],"additionalProperties":false}""");

  private final TestHost host = TestHost.builder().build();
  private final RuntimeToolRegistry tools = host.tools();
  private final TestAgent agent = host.createAgent();

  private ToolResult call(String tool, String args) {
    return call(tool, args, AbortSignal.never());
  }

  private ToolResult call(String tool, String args, AbortSignal signal) {
    return tools.call(new ToolInvocation(agent, new ToolCall("c1", tool, Json.parse(args))), signal).toCompletableFuture().join();
  }

  @Test
  void schemaViolationsGiveInvalidArgsBeforeTheBodyRuns() {
    AtomicInteger runs = new AtomicInteger();
    tools.register(ToolDefinition.builder("t").parameters(SCHEMA)
        .body((a, e) -> {
          runs.incrementAndGet();
          return CompletableFuture.completedFuture(a);
        }).build());

    ToolResult r = call("t", "{\"after_seconds\":\"10\",\"mode\":\"c\"}");

    assertThat(runs).hasValue(0);
    assertThat(r.isError()).isTrue();
    assertThat(r.code()).contains(ToolResult.INVALID_ARGS);
    assertThat(r.text()).startsWith("Error: invalid arguments: ").contains("; ")
        .contains("Error: invalid arguments: missing required property \"prompt\"")
        .contains("/after_seconds: expected number, got string").contains("/mode: must be one of");
  }

  @Test
  void theRootObjectIsOpenButNestedObjectsHonourAdditionalProperties() {
    tools.register(ToolDefinition.builder("t").parameters(SCHEMA).body((a, e) -> CompletableFuture.completedFuture(a)).build());

    assertThat(call("t", "{\"prompt\":\"p\",\"extra\":1}").isError()).isFalse();
    assertThat(call("t", "{\"prompt\":\"p\",\"after_seconds\":1.5}").isError()).isFalse();
    assertThat(call("t", "{\"prompt\":\"p\",\"at\":{\"date\":\"2026-01-01\",\"x\":1}}").text()).contains("oneOf");
    assertThat(call("t", "{\"prompt\":\"p\",\"at\":{\"date\":\"2026-01-01\"}}").isError()).isFalse();
  }

  @Test
  void aThrowingBodyBecomesAnErrorResult() {
    tools.register(ToolDefinition.builder("t").body((a, e) -> {
      throw new IllegalStateException("disk full");
    }).build());
    ToolResult r = call("t", "{}");
    assertThat(r.isError()).isTrue();
    assertThat(r.text()).isEqualTo("Error: disk full");
  }

  @Test
  void cancellationIsReportedOnlyAfterTheBodySettlesAndDiscardsItsValue() {
    CompletableFuture<JsonNode> body = new CompletableFuture<>();
    tools.register(ToolDefinition.builder("slow").body((a, e) -> body).build());
    AbortController cancel = new AbortController();

    CompletableFuture<ToolResult> result =
        tools.call(new ToolInvocation(agent, new ToolCall("c1", "slow", Json.parse("{}"))), cancel.signal()).toCompletableFuture();
    cancel.abort();
    assertThat(result).isNotDone();
    body.complete(Json.parse("{\"placeholder\":true}"));

    ToolResult r = result.join();
    assertThat(r.isError()).isTrue();
    assertThat(r.info().orElseThrow().path("name").asText()).isEqualTo("AbortError");
    assertThat(r.code()).contains("ABORTED");
    assertThat(r.value()).isEmpty();
  }

  @Test
  void callsOfOneAgentRunExclusivelyInOrder() {
    List<String> log = new ArrayList<>();
    CompletableFuture<JsonNode> first = new CompletableFuture<>();
    tools.register(ToolDefinition.builder("a").body((x, e) -> {
      log.add("a-start");
      return first;
    }).build());
    tools.register(ToolDefinition.builder("b").body((x, e) -> {
      log.add("b-start");
      return CompletableFuture.completedFuture(x);
    }).build());

    var ra = tools.call(new ToolInvocation(agent, new ToolCall("1", "a", Json.parse("{}"))), AbortSignal.never()).toCompletableFuture();
    var rb = tools.call(new ToolInvocation(agent, new ToolCall("2", "b", Json.parse("{}"))), AbortSignal.never()).toCompletableFuture();
    assertThat(log).containsExactly("a-start");
    first.complete(Json.parse("{}"));
    assertThat(log).containsExactly("a-start", "b-start");
    assertThat(ra).isCompleted();
    assertThat(rb).isCompleted();
  }

  @Test
  void namesAreUniquePerScopeAndScopedToolsAreVisibleOnlyToTheirAgent() {
    tools.register(ToolDefinition.builder("t").body((a, e) -> CompletableFuture.completedFuture(a)).build());
    assertThatThrownBy(() -> tools.register(ToolDefinition.builder("t").body((a, e) -> CompletableFuture.completedFuture(a)).build()))
        .isInstanceOf(IllegalArgumentException.class);

    agent.scope().registerTool(ToolDefinition.builder("mine").body((a, e) -> CompletableFuture.completedFuture(a)).build());
    TestAgent other = host.createAgent();
    assertThat(tools.find(agent, "mine")).isPresent();
    assertThat(tools.find(other, "mine")).isEmpty();

    host.dispose(agent).toCompletableFuture().join();
    assertThat(tools.find(agent, "mine")).isEmpty();
  }

  @Test
  void outputIsValidatedRenderedAndPassedThroughTheFinalContentCallbackOnce() {
    AtomicInteger finals = new AtomicInteger();
    tools.register(ToolDefinition.builder("t")
        .output(Json.parse("{\"type\":\"object\",\"required\":[\"ok\"]}"))
        .renderer(v -> List.of(new ContentBlock("rendered " + v.get("ok"))))
        .finalContent((c, r) -> {
          finals.incrementAndGet();
          return List.of(new ContentBlock(r.text().toUpperCase(java.util.Locale.ROOT)));
        })
        .body((a, e) -> CompletableFuture.completedFuture(a)).build());

    assertThat(call("t", "{\"ok\":true}").text()).isEqualTo("RENDERED TRUE");
    ToolResult bad = call("t", "{}");
    assertThat(bad.isError()).isTrue();
    assertThat(bad.code()).contains("INVALID_OUTPUT");
    assertThat(finals).hasValue(2);
  }

  @Test
  void theListenersTheBodyAndTheFinalContentCallbackSeeTheModelsCallUnchanged() {
    List<ToolInvocation> seen = new ArrayList<>();
    List<String> executions = new ArrayList<>();
    tools.register(ToolDefinition.builder("t")
        .finalContent((c, r) -> {
          seen.add(c);
          return r.content();
        })
        .body((a, e) -> {
          executions.add(e.agent().id() + " " + e.callId() + " " + a);
          return CompletableFuture.completedFuture(a);
        }).build());
    tools.onPreExecute(seen::add, false);
    ToolInvocation invocation = new ToolInvocation(agent, new ToolCall("call-7", "t", Json.parse("{\"x\":1}")));

    tools.call(invocation, AbortSignal.never()).toCompletableFuture().join();

    assertThat(seen).containsExactly(invocation, invocation);
    assertThat(executions).containsExactly(agent.id() + " call-7 {\"x\":1}");
  }

  @Test
  void preExecuteListenersRunBeforeValidationPrependedFirst() {
    List<String> seen = new ArrayList<>();
    tools.register(ToolDefinition.builder("t").parameters(SCHEMA).body((a, e) -> CompletableFuture.completedFuture(a)).build());
    tools.onPreExecute(c -> seen.add("plain"), false);
    tools.onPreExecute(c -> seen.add("first"), true);
    call("t", "{}");
    assertThat(seen).containsExactly("first", "plain");
  }
}

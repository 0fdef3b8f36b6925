package dev.horae.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.horae.invariant.Companions;
import dev.horae.invariant.SessionLogCheck;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.agent.TurnOutcome;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.StoredSession;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.store.FileSessionStore;
import dev.horae.testkit.time.ManualTime;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter through LangChain4j's real OpenAI client: {@link OpenAiChatModel} talks HTTP to an
 * OpenAI-compatible {@code /chat/completions} endpoint this test runs on 127.0.0.1, which answers
 * from the request as a scripted model would (tool calls included). The model calls {@code
 * schedule_create}; the manual clock brings the reminder due; the follow-up turn goes through the
 * real client and its unprompted reply reaches {@code onUnpromptedReply}. An {@code @Tool} email
 * tool gated as a scheduled action is committed by a process that stops before performing it; a
 * new runtime on the same folder performs it exactly once, and a third performs nothing. The
 * recorded HTTP bodies show the time reading and the tool schemas on the wire.
 */
class OpenAiEndToEndTest {

  private static final String SESSION = "lc4j-e2e";
  private static final String ZONE = "Europe/Amsterdam";

  /** The application's own tool, a LangChain4j {@code @Tool}. */
  static final class EmailTools {
    final AtomicInteger sent = new AtomicInteger();

    @Tool("Sends an email")
    String send_email(@P("recipient address") String to, @P("subject line") String subject) {
      sent.incrementAndGet();
      return "sent to " + to;
    }
  }

  private final List<JsonNode> requests = java.util.Collections.synchronizedList(new ArrayList<>());
  private final EmailTools email = new EmailTools();
  private HttpServer server;
  private String baseUrl;

  @BeforeEach
  void startEndpoint() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/chat/completions", this::answer);
    server.start();
    baseUrl = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  @AfterEach
  void stopEndpoint() {
    server.stop(0);
  }

  /** The scripted model: answers from the request's newest messages. */
  private void answer(HttpExchange exchange) throws IOException {
    JsonNode body = Json.parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    requests.add(body);
    JsonNode messages = body.path("messages");
    // the step's time reading comes after the step's input: look past it
    int at = messages.size() - 1;
    while (at > 0 && messages.get(at).path("content").asText().startsWith("Time sampled while preparing")) {
      at--;
    }
    JsonNode last = messages.get(at);
    ObjectNode reply;
    if (last.path("role").asText().equals("tool")) {
      reply = text(last.path("content").asText().startsWith("sent to") ? "The report was sent." : "I will remind you in a minute.");
    } else {
      String step = trailingUserText(messages);
      if (step.contains("Stretch your legs")) {
        reply = text("Time to stretch your legs!");
      } else if (step.contains("Remind me")) {
        reply = call("call_sched_1", "schedule_create", "{\"after_seconds\":60,\"prompt\":\"Stretch your legs\"}");
      } else if (step.contains("Email")) {
        reply = call("call_email_1", "send_email", "{\"to\":\"ada@example.com\",\"subject\":\"report\"}");
      } else {
        reply = text("OK");
      }
    }
    byte[] out = Json.write(reply).getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, out.length);
    try (OutputStream os = exchange.getResponseBody()) {
      os.write(out);
    }
  }

  /** The user messages after the last assistant or tool message: the step's input. */
  private static String trailingUserText(JsonNode messages) {
    StringBuilder sb = new StringBuilder();
    for (int i = messages.size() - 1; i >= 0 && messages.get(i).path("role").asText().equals("user"); i--) {
      sb.append(messages.get(i).path("content").asText()).append('\n');
    }
    return sb.toString();
  }

  private static ObjectNode completion(ObjectNode message, String finish) {
    ObjectNode r = Json.mapper().createObjectNode();
    r.put("id", "chatcmpl-test").put("object", "chat.completion").put("created", 1).put("model", "gpt-test");
    ObjectNode choice = r.putArray("choices").addObject();
    choice.put("index", 0).set("message", message);
    choice.put("finish_reason", finish);
    r.putObject("usage").put("prompt_tokens", 11).put("completion_tokens", 7).put("total_tokens", 18);
    return r;
  }

  private static ObjectNode text(String text) {
    ObjectNode m = Json.mapper().createObjectNode().put("role", "assistant").put("content", text);
    return completion(m, "stop");
  }

  private static ObjectNode call(String id, String tool, String arguments) {
    ObjectNode m = Json.mapper().createObjectNode().put("role", "assistant");
    m.putNull("content");
    ObjectNode c = m.putArray("tool_calls").addObject().put("id", id).put("type", "function");
    c.putObject("function").put("name", tool).put("arguments", arguments);
    return completion(m, "tool_calls");
  }

  private HoraeRuntime open(Path dir, ManualTime time, boolean dispatch) {
    OpenAiChatModel openAi = OpenAiChatModel.builder().baseUrl(baseUrl).apiKey("test-key").modelName("gpt-test")
        .timeout(Duration.ofSeconds(20)).maxRetries(0).build();
    HoraeRuntime horae = HoraeRuntime.builder().dataDir(dir).clock(time).timers(time)
        .model(LangChain4jModel.of(openAi)).dispatchScheduledActions(dispatch).build();
    var unusedCompanions = Companions.registerAll(horae);
    horae.install(TimeContextPlugin.create(TimeContextConfig.builder().timeZone(ZONE).build()));
    horae.install(SchedulePlugin.create());
    var unusedTools = LangChain4jTools.register(horae.tools(), email);
    // every email is a scheduled action: committed first, performed by the dispatcher
    var unusedGate = horae.gates().register((call, state) -> CompletableFuture.completedFuture(
        call.toolId().equals("send_email") ? GateOutcome.schedule("email-" + call.callId()) : GateOutcome.allow()));
    return horae;
  }

  @Test
  void aReminderAndAScheduledToolCallThroughTheRealOpenAiClientAcrossARestart(@TempDir Path dir) throws Exception {
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    BlockingQueue<TurnOutcome> ended = new LinkedBlockingQueue<>();
    CompletableFuture<TurnOutcome> unprompted = new CompletableFuture<>();
    CompletableFuture<Void> committed = new CompletableFuture<>();
    try (HoraeRuntime first = open(dir, time, false)) {
      var unusedEnd = first.agents().onTurnEnd(ended::add);
      var unusedReply = first.onUnpromptedReply(unprompted::complete);
      // told once the call's ticket is durable and the turn parked
      var unusedCommit = first.onAwaiting(a -> committed.complete(null));
      RuntimeAgent agent = first.openAgent(SESSION, ZONE);
      first.prompt(agent, "Remind me in a minute to stretch.", ZONE);
      TurnOutcome reminderSet = ended.poll(30, TimeUnit.SECONDS);
      assertThat(reminderSet).isNotNull();
      assertThat(reminderSet.finalText()).isEqualTo("I will remind you in a minute.");

      time.advance(Duration.ofSeconds(60));                       // the reminder comes due
      TurnOutcome reply = unprompted.get(30, TimeUnit.SECONDS);
      assertThat(reply.finalText()).isEqualTo("Time to stretch your legs!");
      assertThat(reply.sessionId()).isEqualTo(SESSION);

      first.prompt(agent, "Email the report to Ada.", ZONE);
      committed.get(30, TimeUnit.SECONDS);
      assertThat(first.awaiting()).singleElement().satisfies(a -> assertThat(a.toolId()).isEqualTo("send_email"));
    }
    assertThat(email.sent).hasValue(0);

    CompletableFuture<TurnOutcome> resumed = new CompletableFuture<>();
    try (HoraeRuntime second = open(dir, time, true)) {
      var unusedEnd = second.agents().onTurnEnd(resumed::complete);
      second.openAgent(SESSION, ZONE);                             // finds the committed call and performs it
      assertThat(resumed.get(30, TimeUnit.SECONDS).finalText()).isEqualTo("The report was sent.");
    }
    assertThat(email.sent).hasValue(1);

    try (HoraeRuntime third = open(dir, time, true)) {
      RuntimeAgent agent = third.openAgent(SESSION, ZONE);
      agent.whenIdle().toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertThat(third.awaiting()).isEmpty();
    }
    assertThat(email.sent).as("performed exactly once").hasValue(1);

    try (FileSessionStore store = FileSessionStore.open(dir)) {
      StoredSession stored = store.load(SESSION).orElseThrow();
      assertThat(SessionLogCheck.check(stored.header(), stored.events())).isEmpty();
      assertThat(stored.events().stream().filter(e -> e.type().equals("tool/result")
          && e.data().path("tool").asText().equals("send_email"))).hasSize(1);
    }
    assertWire();
  }

  /** What the recorded HTTP bodies prove reached the wire. */
  private void assertWire() {
    assertThat(requests).hasSizeGreaterThanOrEqualTo(5);
    JsonNode firstRequest = requests.get(0);
    assertThat(firstRequest.path("model").asText()).isEqualTo("gpt-test");
    // the time reading, after the prompt, as a user message of the request
    List<String> userTexts = new ArrayList<>();
    firstRequest.path("messages").forEach(m -> {
      if (m.path("role").asText().equals("user")) {
        userTexts.add(m.path("content").asText());
      }
    });
    assertThat(userTexts).hasSize(2);
    assertThat(userTexts.get(0)).isEqualTo("Remind me in a minute to stretch.");
    assertThat(userTexts.get(1)).startsWith("Time sampled while preparing turn 1, step 1: ").contains("[Europe/Amsterdam]");
    // the follow-up turn's request carries a reading sampled a minute later
    assertThat(requests.stream().map(r -> r.path("messages").toString()))
        .anySatisfy(m -> assertThat(m).contains("Stretch your legs").contains("Time sampled while preparing turn 2, step 1"));
    // the tool schemas exactly as Horae registered them, schedule_create's oneOf included
    JsonNode tools = firstRequest.path("tools");
    assertThat(tools.isArray()).isTrue();
    ToolDefinition create = horaeTool("schedule_create");
    assertThat(function(tools, "schedule_create").path("parameters")).isEqualTo(create.parameters());
    assertThat(function(tools, "schedule_create").path("description").asText()).isEqualTo(create.description());
    JsonNode send = function(tools, "send_email");
    assertThat(send.path("description").asText()).isEqualTo("Sends an email");
    assertThat(send.path("parameters")).isEqualTo(
        JsonSchemas.toHorae(ToolSpecifications.toolSpecificationsFrom(email).get(0).parameters()));
    assertThat(send.path("parameters").path("properties").path("to").path("description").asText()).isEqualTo("recipient address");
    // the tool call and its result went back to the model in the next request, then step 2's reading
    JsonNode afterCall = requests.get(1).path("messages");
    int n = afterCall.size();
    assertThat(afterCall.get(n - 3).path("tool_calls").get(0).path("id").asText()).isEqualTo("call_sched_1");
    assertThat(afterCall.get(n - 2).path("role").asText()).isEqualTo("tool");
    assertThat(afterCall.get(n - 2).path("tool_call_id").asText()).isEqualTo("call_sched_1");
    assertThat(afterCall.get(n - 1).path("content").asText()).startsWith("Time sampled while preparing turn 1, step 2: ");
  }

  private static JsonNode function(JsonNode tools, String name) {
    for (JsonNode t : tools) {
      if (t.path("function").path("name").asText().equals(name)) {
        return t.path("function");
      }
    }
    throw new AssertionError("no tool " + name + " on the wire: " + tools);
  }

  private static ToolDefinition horaeTool(String name) {
    try (HoraeRuntime probe = HoraeRuntime.builder().build()) {
      probe.install(SchedulePlugin.create());
      RuntimeAgent agent = probe.openAgent("probe");
      return probe.tools().find(agent, name).orElseThrow();
    }
  }
}

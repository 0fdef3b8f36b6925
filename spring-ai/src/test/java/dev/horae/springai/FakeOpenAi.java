package dev.horae.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.horae.spi.session.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * An OpenAI-compatible {@code /chat/completions} endpoint on 127.0.0.1 (the JDK's HTTP server):
 * replays scripted completions in order and records every request body, so a test can prove what
 * reached the wire. An unscripted request gets HTTP 500, which fails the caller's step.
 */
final class FakeOpenAi implements AutoCloseable {

  private final HttpServer server;
  private final Deque<String> script = new ArrayDeque<>();
  private final List<JsonNode> requests = new ArrayList<>();
  private int completions;

  FakeOpenAi() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String answer;
      int status;
      synchronized (this) {
        if (exchange.getRequestURI().getPath().endsWith("/chat/completions")) {
          requests.add(Json.parse(new String(body, StandardCharsets.UTF_8)));
        }
        answer = script.pollFirst();
        status = answer == null ? 500 : 200;
        if (answer == null) {
          answer = "{\"error\":{\"message\":\"no scripted completion left\",\"type\":\"server_error\"}}";
        }
      }
      byte[] out = answer.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, out.length);
      try (OutputStream os = exchange.getResponseBody()) {
        os.write(out);
      }
    });
    server.start();
  }

  /** The base URL Spring AI's OpenAI client is given. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  /** Scripts a completion that only calls one tool. */
  synchronized FakeOpenAi thenCall(String callId, String tool, String arguments) {
    ObjectNode message = Json.mapper().createObjectNode().put("role", "assistant");
    message.putNull("content");
    ArrayNode calls = message.putArray("tool_calls");
    ObjectNode call = calls.addObject().put("id", callId).put("type", "function");
    call.putObject("function").put("name", tool).put("arguments", arguments);
    script.add(completion(message, "tool_calls"));
    return this;
  }

  /** Scripts a completion that answers with text. */
  synchronized FakeOpenAi thenText(String text) {
    ObjectNode message = Json.mapper().createObjectNode().put("role", "assistant").put("content", text);
    script.add(completion(message, "stop"));
    return this;
  }

  private String completion(ObjectNode message, String finish) {
    completions++;
    ObjectNode c = Json.mapper().createObjectNode()
        .put("id", "chatcmpl-" + completions)
        .put("object", "chat.completion")
        .put("created", 1_780_000_000L)
        .put("model", "gpt-test");
    c.putArray("choices").addObject().put("index", 0).put("finish_reason", finish).set("message", message);
    c.putObject("usage").put("prompt_tokens", 100 + completions).put("completion_tokens", 10 + completions)
        .put("total_tokens", 110 + 2 * completions);
    return Json.write(c);
  }

  /** The request bodies received so far, in order. */
  synchronized List<JsonNode> requests() {
    return List.copyOf(requests);
  }

  /** How many scripted completions are left. */
  synchronized int left() {
    return script.size();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * An OpenAI-compatible {@code /chat/completions} endpoint on 127.0.0.1 (the JDK's HTTP server):
 * replays scripted completions in order and records every request body, so a test can prove what
 * reached the wire. A request with {@code "stream": true} gets the completion as server-sent
 * events, the way OpenAI streams: the text in pieces, a tool call's arguments in pieces, the
 * finish reason, the usage, {@code [DONE]}. An unscripted request gets HTTP 500, which fails the
 * caller's step.
 */
final class FakeOpenAi implements AutoCloseable {

  /** A scripted answer: the assistant message and its finish reason, or a stream that stops after its first piece. */
  private record Answer(ObjectNode message, String finish, boolean holds) {}

  private final HttpServer server;
  private final Deque<Answer> script = new ArrayDeque<>();
  private final List<JsonNode> requests = new ArrayList<>();
  /** Released by the test; a holding stream waits for it before writing on. */
  final CountDownLatch release = new CountDownLatch(1);
  /** Completed with true when a holding stream found its client gone, false when it could write on. */
  final CompletableFuture<Boolean> clientLeft = new CompletableFuture<>();
  private int completions;

  FakeOpenAi() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "fake-openai");
      t.setDaemon(true);
      return t;
    }));
    server.createContext("/", exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes();
      Answer answer;
      int n;
      boolean stream = false;
      synchronized (this) {
        if (exchange.getRequestURI().getPath().endsWith("/chat/completions")) {
          JsonNode request = Json.parse(new String(body, StandardCharsets.UTF_8));
          requests.add(request);
          stream = request.path("stream").asBoolean(false);
        }
        answer = script.pollFirst();
        n = ++completions;
      }
      if (answer == null) {
        byte[] out = "{\"error\":{\"message\":\"no scripted completion left\",\"type\":\"server_error\"}}"
            .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(500, out.length);
        try (OutputStream os = exchange.getResponseBody()) {
          os.write(out);
        }
        return;
      }
      if (!stream) {
        byte[] out = completion(answer, n).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, out.length);
        try (OutputStream os = exchange.getResponseBody()) {
          os.write(out);
        }
        return;
      }
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      OutputStream os = exchange.getResponseBody();
      List<String> events = events(answer, n);
      try {
        for (int i = 0; i < events.size(); i++) {
          os.write(("data: " + events.get(i) + "\n\n").getBytes(StandardCharsets.UTF_8));
          os.flush();
          if (answer.holds() && i == 0) {
            hold(os);
            return;
          }
        }
        os.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        os.flush();
      } finally {
        exchange.close();
      }
    });
    server.start();
  }

  /** After the first piece: waits for the test, then finds out whether the client is still there. */
  private void hold(OutputStream os) {
    try {
      if (!release.await(30, TimeUnit.SECONDS)) {
        clientLeft.complete(false);
        return;
      }
      // only a write tells a server that its client closed the connection; the first writes after
      // the close may still be accepted by the socket's buffer, so it tries a bounded number of times
      for (int i = 0; i < 200; i++) {
        os.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
        os.flush();
        Thread.sleep(10);
      }
      clientLeft.complete(false);
    } catch (IOException gone) {
      clientLeft.complete(true);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      clientLeft.complete(false);
    }
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
    script.add(new Answer(message, "tool_calls", false));
    return this;
  }

  /** Scripts a completion that answers with text. */
  synchronized FakeOpenAi thenText(String text) {
    script.add(new Answer(Json.mapper().createObjectNode().put("role", "assistant").put("content", text), "stop", false));
    return this;
  }

  /** Scripts a stream that sends the text's first piece and then holds until {@link #release}. */
  synchronized FakeOpenAi thenHeldStream(String text) {
    script.add(new Answer(Json.mapper().createObjectNode().put("role", "assistant").put("content", text), "stop", true));
    return this;
  }

  private static String completion(Answer answer, int n) {
    ObjectNode c = head(n, "chat.completion");
    c.putArray("choices").addObject().put("index", 0).put("finish_reason", answer.finish()).set("message", answer.message());
    usage(c, n);
    return Json.write(c);
  }

  /** The answer as OpenAI's stream events: pieces of text of up to 8 characters, a call's arguments in two. */
  private static List<String> events(Answer answer, int n) {
    List<String> out = new ArrayList<>();
    JsonNode content = answer.message().path("content");
    if (content.isTextual()) {
      String text = content.asText();
      for (int i = 0; i < text.length(); i += 8) {
        ObjectNode delta = Json.mapper().createObjectNode();
        if (i == 0) {
          delta.put("role", "assistant");
        }
        delta.put("content", text.substring(i, Math.min(text.length(), i + 8)));
        out.add(chunk(n, delta, null));
      }
    }
    int index = 0;
    for (JsonNode call : answer.message().path("tool_calls")) {
      String args = call.path("function").path("arguments").asText();
      int half = args.length() / 2;
      ObjectNode first = Json.mapper().createObjectNode();
      first.put("role", "assistant");
      ObjectNode c1 = first.putArray("tool_calls").addObject().put("index", index).put("id", call.path("id").asText())
          .put("type", "function");
      c1.putObject("function").put("name", call.path("function").path("name").asText()).put("arguments", args.substring(0, half));
      out.add(chunk(n, first, null));
      ObjectNode second = Json.mapper().createObjectNode();
      second.putArray("tool_calls").addObject().put("index", index).putObject("function").put("arguments", args.substring(half));
      out.add(chunk(n, second, null));
      index++;
    }
    out.add(chunk(n, Json.mapper().createObjectNode(), answer.finish()));
    ObjectNode usage = head(n, "chat.completion.chunk");
    usage.putArray("choices");
    usage(usage, n);
    out.add(Json.write(usage));
    return out;
  }

  private static String chunk(int n, ObjectNode delta, @Nullable String finish) {
    ObjectNode c = head(n, "chat.completion.chunk");
    ObjectNode choice = c.putArray("choices").addObject().put("index", 0);
    choice.set("delta", delta);
    if (finish == null) {
      choice.putNull("finish_reason");
    } else {
      choice.put("finish_reason", finish);
    }
    return Json.write(c);
  }

  private static ObjectNode head(int n, String object) {
    return Json.mapper().createObjectNode().put("id", "chatcmpl-" + n).put("object", object)
        .put("created", 1_780_000_000L).put("model", "gpt-test");
  }

  private static void usage(ObjectNode c, int n) {
    c.putObject("usage").put("prompt_tokens", 100 + n).put("completion_tokens", 10 + n).put("total_tokens", 110 + 2 * n);
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
    release.countDown();
    server.stop(0);
  }
}

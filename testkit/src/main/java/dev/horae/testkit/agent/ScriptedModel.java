package dev.horae.testkit.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A deterministic model port: responses come from a script, in order; when the script is empty it
 * answers {@code ok}. Records every request, so a test can check what the model was shown.
 * Thread-safe.
 */
public final class ScriptedModel implements ModelPort {

  /** One scripted answer: a response or a failure. */
  private record Entry(ModelResponse response, String failure) {}

  private final Deque<Entry> script = new ArrayDeque<>();
  private final List<ModelRequest> requests = new ArrayList<>();
  private int callCounter;

  /** Creates a model with an empty script. */
  public ScriptedModel() {}

  /**
   * Queues a text answer.
   *
   * @param text the text
   * @return this model
   */
  public synchronized ScriptedModel thenText(String text) {
    return then(ModelResponse.text(text));
  }

  /**
   * Queues an answer with one tool call (call id {@code call-N}).
   *
   * @param tool the tool name
   * @param args the arguments
   * @return this model
   */
  public synchronized ScriptedModel thenCall(String tool, JsonNode args) {
    callCounter++;
    return then(ModelResponse.calls(new ToolCall("call-" + callCounter, tool, args)));
  }

  /**
   * Queues any response.
   *
   * @param response the response
   * @return this model
   */
  public synchronized ScriptedModel then(ModelResponse response) {
    script.addLast(new Entry(response, ""));
    return this;
  }

  /**
   * Queues a failing request.
   *
   * @param message the failure message
   * @return this model
   */
  public synchronized ScriptedModel thenFail(String message) {
    script.addLast(new Entry(ModelResponse.text(""), message));
    return this;
  }

  @Override
  public synchronized CompletionStage<ModelResponse> complete(ModelRequest request) {
    requests.add(request);
    Entry next = script.pollFirst();
    if (next == null) {
      return CompletableFuture.completedFuture(ModelResponse.text("ok"));
    }
    if (!next.failure().isEmpty()) {
      return CompletableFuture.failedFuture(new IllegalStateException(next.failure()));
    }
    return CompletableFuture.completedFuture(next.response());
  }

  /**
   * Every request so far.
   *
   * @return the requests
   */
  public synchronized List<ModelRequest> requests() {
    return List.copyOf(requests);
  }

  /**
   * How many scripted answers are left.
   *
   * @return the count
   */
  public synchronized int remaining() {
    return script.size();
  }
}

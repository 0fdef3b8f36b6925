package dev.horae.testkit.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A deterministic model: replies come from a script, in order; when the script is empty it
 * answers {@code ok}. Records every request. Thread-safe.
 */
public final class ScriptedModel implements Model {

  private final Deque<ModelReply> script = new ArrayDeque<>();
  private final List<ModelRequest> requests = new ArrayList<>();
  private int callCounter;

  /** Creates a model with an empty script. */
  public ScriptedModel() {}

  /**
   * Queues a text reply.
   *
   * @param text the text
   * @return this model
   */
  public synchronized ScriptedModel thenText(String text) {
    script.addLast(new ModelReply.Text(text));
    return this;
  }

  /**
   * Queues a reply with one tool call (call id {@code call-N}).
   *
   * @param tool the tool name
   * @param args the arguments
   * @return this model
   */
  public synchronized ScriptedModel thenCall(String tool, JsonNode args) {
    callCounter++;
    script.addLast(new ModelReply.ToolCalls(List.of(new ModelReply.Call("call-" + callCounter, tool, args))));
    return this;
  }

  /**
   * Queues any reply.
   *
   * @param reply the reply
   * @return this model
   */
  public synchronized ScriptedModel then(ModelReply reply) {
    script.addLast(reply);
    return this;
  }

  /**
   * Queues a failing request.
   *
   * @param message the failure message
   * @return this model
   */
  public synchronized ScriptedModel thenFail(String message) {
    script.addLast(new ModelReply.Failure(message));
    return this;
  }

  @Override
  public synchronized ModelReply reply(ModelRequest request) {
    requests.add(request);
    ModelReply next = script.pollFirst();
    return next != null ? next : new ModelReply.Text("ok");
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
   * How many scripted replies are left.
   *
   * @return the count
   */
  public synchronized int remaining() {
    return script.size();
  }
}

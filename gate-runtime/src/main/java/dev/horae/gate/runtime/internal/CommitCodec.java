package dev.horae.gate.runtime.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.GateJson;
import dev.horae.gate.GateJsonException;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.RunDisposition;
import dev.horae.gate.runtime.StateCommand;
import dev.horae.gate.runtime.ThreadCommit;
import dev.horae.gate.runtime.ToolRecoveryPolicy;
import dev.horae.spi.gate.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The wire shapes of commits, run dispositions and tool batches (gate specification §5.1, §7.1).
 * Decoders fail with {@link GateJsonException}. Not API: the API reads a commit with {@link
 * ThreadCommit#fromJson}.
 */
public final class CommitCodec {

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private CommitCodec() {}

  /**
   * Encodes a commit as in §5.2.
   *
   * @param c the commit
   * @return the JSON object
   */
  public static ObjectNode encodeCommit(ThreadCommit c) {
    ObjectNode o = F.objectNode();
    o.put("threadId", c.threadId());
    o.set("run", encodeDisposition(c.run()));
    ArrayNode m = o.putArray("messages");
    c.messages().forEach(m::add);
    ArrayNode s = o.putArray("state");
    for (StateCommand sc : c.state()) {
      ObjectNode e = s.addObject();
      e.put("key", sc.key());
      e.set("value", sc.value());
    }
    ArrayNode ev = o.putArray("events");
    c.events().forEach(ev::add);
    return o;
  }

  /**
   * Decodes a commit.
   *
   * @param json the JSON
   * @return the commit
   * @throws GateJsonException on a malformed commit
   */
  public static ThreadCommit decodeCommit(JsonNode json) {
    return shaped(() -> commit(json));
  }

  private static ThreadCommit commit(JsonNode json) {
    List<JsonNode> messages = new ArrayList<>();
    json.path("messages").forEach(messages::add);
    List<StateCommand> state = new ArrayList<>();
    for (JsonNode e : json.path("state")) {
      state.add(new StateCommand(e.path("key").asText(), e.path("value")));
    }
    List<JsonNode> events = new ArrayList<>();
    json.path("events").forEach(events::add);
    JsonNode run = json.get("run");
    if (run == null || !json.path("threadId").isTextual()) {
      throw new GateJsonException("thread commit needs \"threadId\" and \"run\"");
    }
    return new ThreadCommit(json.get("threadId").asText(), disposition(run), messages, state, events);
  }

  private static ObjectNode encodeDisposition(RunDisposition d) {
    ObjectNode o = F.objectNode();
    if (d instanceof RunDisposition.Running r) {
      o.put("type", "running");
      o.put("runId", r.runId());
    } else if (d instanceof RunDisposition.Awaiting a) {
      o.put("type", "awaiting");
      o.set("ticket", GateJson.encodeTicket(a.ticket()));
    } else if (d instanceof RunDisposition.Ended e) {
      o.put("type", "ended");
      o.put("runId", e.runId());
      GateJson.writeCause(o, e.cause());
    }
    return o;
  }

  private static RunDisposition disposition(JsonNode json) {
    String type = json.path("type").asText();
    return switch (type) {
      case "running" -> new RunDisposition.Running(requireText(json, "runId"));
      case "awaiting" -> new RunDisposition.Awaiting(GateJson.decodeTicket(json.path("ticket")));
      case "ended" -> new RunDisposition.Ended(requireText(json, "runId"), GateJson.readCause(json));
      default -> throw new GateJsonException("unknown run disposition \"" + type + "\"");
    };
  }

  /**
   * Encodes a tool batch as in §7.1.
   *
   * @param b the batch
   * @return the JSON object
   */
  public static ObjectNode encodeBatch(ToolBatch b) {
    ObjectNode o = F.objectNode();
    o.put("id", b.id());
    o.put("runId", b.runId());
    o.put("step", b.step());
    o.put("phase", b.finalized() ? "finalized" : "open");
    ArrayNode calls = o.putArray("calls");
    for (DurableToolCall c : b.calls()) {
      ObjectNode e = calls.addObject();
      e.set("call", GateJson.encodeToolCall(c.call()));
      e.set("recoveryPolicy", encodePolicy(c.recoveryPolicy()));
      e.set("phase", encodePhase(c.phase()));
    }
    return o;
  }

  /**
   * Decodes a tool batch; a batch with two awaiting calls fails.
   *
   * @param json the JSON
   * @return the batch
   * @throws GateJsonException on a malformed batch
   */
  public static ToolBatch decodeBatch(JsonNode json) {
    return shaped(() -> batch(json));
  }

  private static ToolBatch batch(JsonNode json) {
    List<DurableToolCall> calls = new ArrayList<>();
    for (JsonNode e : json.path("calls")) {
      ToolCall call = GateJson.decodeToolCall(e.path("call"));
      calls.add(new DurableToolCall(call, decodePolicy(e.path("recoveryPolicy")), decodePhase(e.path("phase"))));
    }
    try {
      return new ToolBatch(requireText(json, "runId"), json.path("step").asInt(),
          json.path("phase").asText().equals("finalized"), calls);
    } catch (BatchException e) {
      throw new GateJsonException(String.valueOf(e.getMessage()));
    }
  }

  /**
   * Encodes a recovery policy as in §7.1; the catalog fingerprint hashes the same form.
   *
   * @param p the policy
   * @return the JSON object
   */
  public static ObjectNode encodePolicy(ToolRecoveryPolicy p) {
    ObjectNode o = F.objectNode();
    o.put("type", p.type());
    if (!(p instanceof ToolRecoveryPolicy.NeverReplay)) {
      o.put("maxAttempts", p.maxAttempts());
    }
    return o;
  }

  private static ToolRecoveryPolicy decodePolicy(JsonNode json) {
    String type = json.path("type").asText("neverReplay");
    return switch (type) {
      case "neverReplay" -> ToolRecoveryPolicy.neverReplay();
      case "replaySafe" -> new ToolRecoveryPolicy.ReplaySafe(json.path("maxAttempts").asInt(3));
      case "durableRequest" -> new ToolRecoveryPolicy.DurableRequest(json.path("maxAttempts").asInt(3));
      default -> throw new GateJsonException("unknown recovery policy \"" + type + "\"");
    };
  }

  static ObjectNode encodePhase(ToolCallPhase p) {
    ObjectNode o = F.objectNode();
    o.put("type", p.type());
    if (p instanceof ToolCallPhase.Executing e) {
      o.put("attempt", e.attempt());
    } else if (p instanceof ToolCallPhase.Awaiting a) {
      ObjectNode w = o.putObject("wait");
      w.put("kind", a.kind().wireName());
      w.put("correlationId", a.correlationId());
    } else if (p instanceof ToolCallPhase.Completed c) {
      o.set("output", GateJson.encodeToolOutput(c.output()));
    } else if (p instanceof ToolCallPhase.Indeterminate i) {
      o.put("reason", i.reason());
    }
    return o;
  }

  private static ToolCallPhase decodePhase(JsonNode json) {
    String type = json.path("type").asText();
    return switch (type) {
      case "requested" -> new ToolCallPhase.Requested();
      case "executing" -> new ToolCallPhase.Executing(json.path("attempt").asInt(1));
      case "awaiting" -> new ToolCallPhase.Awaiting(
          ToolWaitKind.fromWireName(json.path("wait").path("kind").asText())
              .orElseThrow(() -> new GateJsonException("unknown tool wait kind")),
          requireText(json.path("wait"), "correlationId"));
      case "completed" -> new ToolCallPhase.Completed(GateJson.decodeToolOutput(json.path("output")));
      case "indeterminate" -> new ToolCallPhase.Indeterminate(json.path("reason").asText());
      default -> throw new GateJsonException("unknown tool call phase \"" + type + "\"");
    };
  }

  /**
   * The {@code runStateChanged} event draft of §5.2 for a run state.
   *
   * @param state the state the commit establishes
   * @return the draft
   */
  public static ObjectNode runStateChanged(RunState state) {
    ObjectNode o = F.objectNode();
    o.put("type", "runStateChanged");
    o.set("state", GateJson.encodeRunState(state));
    return o;
  }

  /**
   * Runs a decoder so that a value the records refuse (a recovery policy with {@code maxAttempts}
   * below 1, say) fails as the codec's shape error, like every other malformed member.
   */
  private static <T> T shaped(Supplier<T> decode) {
    try {
      return decode.get();
    } catch (GateJsonException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new GateJsonException(String.valueOf(e.getMessage()));
    }
  }

  private static String requireText(JsonNode json, String name) {
    JsonNode v = json.get(name);
    if (v == null || !v.isTextual()) {
      throw new GateJsonException("\"" + name + "\" must be a string");
    }
    return v.asText();
  }
}

package dev.horae.gate;

import static dev.horae.gate.JsonFields.has;
import static dev.horae.gate.JsonFields.member;
import static dev.horae.gate.JsonFields.object;
import static dev.horae.gate.JsonFields.optText;
import static dev.horae.gate.JsonFields.stringList;
import static dev.horae.gate.JsonFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolOutput;
import java.util.List;
import java.util.Optional;

/**
 * The JSON codec of the gate contract, in the shapes of the conformance format (camelCase members,
 * a {@code type} discriminator on unions, absent optionals omitted; decoders also accept {@code
 * null} for an optional). Decoders fail with {@link GateJsonException}.
 */
public final class GateJson {

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private GateJson() {}

  // ---- tickets and targets ----

  /**
   * Encodes a ticket canonically: always with {@code target}, absent optionals omitted.
   *
   * @param ticket the ticket
   * @return the JSON object
   */
  public static ObjectNode encodeTicket(ResumeTicket ticket) {
    return TicketCodec.encodeTicket(ticket);
  }

  /**
   * Decodes a ticket in the canonical form or the legacy flattened form (§3.4).
   *
   * @param json the JSON
   * @return the ticket
   * @throws GateJsonException {@code resume ticket must contain one valid closed await target},
   *     or {@code resume ticket field "<name>" must be a non-empty string}
   */
  public static ResumeTicket decodeTicket(JsonNode json) {
    return TicketCodec.decodeTicket(json);
  }

  /**
   * Encodes a closed target.
   *
   * @param target the target
   * @return the JSON object
   */
  public static ObjectNode encodeTarget(AwaitTarget target) {
    return TicketCodec.encodeTarget(target);
  }

  /**
   * Decodes a closed target.
   *
   * @param json the JSON
   * @return the target
   * @throws GateJsonException when it is not exactly one valid closed target
   */
  public static AwaitTarget decodeTarget(JsonNode json) {
    return TicketCodec.decodeTarget(json);
  }

  // ---- gate outcomes and permission verdicts ----

  /**
   * Encodes a gate outcome ({@code actionKind} is written as {@code null} when absent, as in the
   * format's examples).
   *
   * @param outcome the outcome
   * @return the JSON object
   */
  public static ObjectNode encodeOutcome(GateOutcome outcome) {
    ObjectNode o = F.objectNode();
    if (outcome instanceof GateOutcome.Allow) {
      o.put("type", "allow");
    } else if (outcome instanceof GateOutcome.Block b) {
      o.put("type", "block");
      o.put("reason", b.reason());
    } else if (outcome instanceof GateOutcome.SetResult r) {
      o.put("type", "setResult");
      o.set("output", encodeToolOutput(r.output()));
    } else if (outcome instanceof GateOutcome.RequireConfirmation c) {
      o.put("type", "requireConfirmation");
      o.put("correlationId", c.correlationId());
    } else if (outcome instanceof GateOutcome.Schedule s) {
      o.put("type", "schedule");
      o.put("correlationId", s.correlationId());
      if (s.actionKind().isPresent()) {
        o.put("actionKind", s.actionKind().get());
      } else {
        o.putNull("actionKind");
      }
    }
    return o;
  }

  /**
   * Decodes a gate outcome.
   *
   * @param json the JSON
   * @return the outcome
   * @throws GateJsonException on an unknown type or a missing member
   */
  public static GateOutcome decodeOutcome(JsonNode json) {
    object(json, "gate outcome");
    String type = text(json, "type", "gate outcome");
    try {
      switch (type) {
        case "allow" -> {
          return GateOutcome.allow();
        }
        case "block" -> {
          return GateOutcome.block(text(json, "reason", "block outcome"));
        }
        case "setResult" -> {
          return GateOutcome.setResult(
              decodeToolOutput(member(json, "output")
                  .orElseThrow(() -> new GateJsonException("setResult outcome needs \"output\""))));
        }
        case "requireConfirmation" -> {
          return GateOutcome.requireConfirmation(text(json, "correlationId", "requireConfirmation outcome"));
        }
        case "schedule" -> {
          String c = text(json, "correlationId", "schedule outcome");
          Optional<String> k = optText(json, "actionKind", "schedule outcome");
          return k.isPresent() ? GateOutcome.schedule(c, k.get()) : GateOutcome.schedule(c);
        }
        default -> {
          throw new GateJsonException("unknown gate outcome type \"" + type + "\"");
        }
      }
    } catch (GateJsonException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new GateJsonException(e.getMessage() == null ? "invalid gate outcome" : e.getMessage());
    }
  }

  /**
   * Decodes a permission verdict: {@code allow}, {@code deny} with {@code reason}, or {@code
   * requireConfirmation} with {@code correlationId}.
   *
   * @param json the JSON
   * @return the verdict
   * @throws GateJsonException on an unknown type or a missing member
   */
  public static ToolPermissionVerdict decodeVerdict(JsonNode json) {
    object(json, "permission verdict");
    String type = text(json, "type", "permission verdict");
    try {
      switch (type) {
        case "allow" -> {
          return ToolPermissionVerdict.allow();
        }
        case "deny" -> {
          return ToolPermissionVerdict.deny(text(json, "reason", "deny verdict"));
        }
        case "requireConfirmation" -> {
          return ToolPermissionVerdict.requireConfirmation(
              text(json, "correlationId", "requireConfirmation verdict"));
        }
        default -> {
          throw new GateJsonException("unknown permission verdict type \"" + type + "\"");
        }
      }
    } catch (GateJsonException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new GateJsonException(e.getMessage() == null ? "invalid verdict" : e.getMessage());
    }
  }

  // ---- tool calls and outputs ----

  /**
   * Encodes a tool call {@code {"callId","toolId","arguments"}}.
   *
   * @param call the call
   * @return the JSON object
   */
  public static ObjectNode encodeToolCall(ToolCall call) {
    ObjectNode o = F.objectNode();
    o.put("callId", call.callId());
    o.put("toolId", call.toolId());
    o.set("arguments", call.arguments().deepCopy());
    return o;
  }

  /**
   * Decodes a tool call.
   *
   * @param json the JSON
   * @return the call
   * @throws GateJsonException on a missing member
   */
  public static ToolCall decodeToolCall(JsonNode json) {
    object(json, "tool call");
    JsonNode args = member(json, "arguments").orElseGet(F::objectNode);
    try {
      return new ToolCall(text(json, "callId", "tool call"), text(json, "toolId", "tool call"), args.deepCopy());
    } catch (IllegalArgumentException e) {
      throw new GateJsonException("invalid tool call: " + e.getMessage());
    }
  }

  /**
   * Encodes a tool output {@code {"callId","content"}}, with {@code "isError":true} for errors.
   *
   * @param output the output
   * @return the JSON object
   */
  public static ObjectNode encodeToolOutput(ToolOutput output) {
    ObjectNode o = F.objectNode();
    o.put("callId", output.callId());
    o.set("content", output.content().deepCopy());
    if (output.isError()) {
      o.put("isError", true);
    }
    return o;
  }

  /**
   * Decodes a tool output: {@code {"callId","content","isError"?}} or the failed-call form {@code
   * {"callId","error"}}.
   *
   * @param json the JSON
   * @return the output
   * @throws GateJsonException on a missing member
   */
  public static ToolOutput decodeToolOutput(JsonNode json) {
    object(json, "tool output");
    String callId = text(json, "callId", "tool output");
    if (callId.isEmpty()) {
      throw new GateJsonException("tool output call id must be non-empty");
    }
    Optional<String> error = optText(json, "error", "tool output");
    if (error.isPresent()) {
      return ToolOutput.error(callId, error.get());
    }
    JsonNode content = member(json, "content").orElse(F.nullNode());
    boolean isError = member(json, "isError").map(JsonNode::asBoolean).orElse(false);
    return new ToolOutput(callId, content.deepCopy(), isError);
  }

  // ---- run state ----

  /**
   * Encodes a run state; {@code awaiting} is always written as such, never {@code waiting}.
   *
   * @param state the state
   * @return the JSON object
   */
  public static ObjectNode encodeRunState(RunState state) {
    ObjectNode o = F.objectNode();
    if (state instanceof RunState.Running) {
      o.put("type", "running");
    } else if (state instanceof RunState.Awaiting) {
      o.put("type", "awaiting");
    } else if (state instanceof RunState.Ended e) {
      o.put("type", "ended");
      writeCause(o, e.cause());
    }
    return o;
  }

  /**
   * Writes an end cause's members ({@code cause}, {@code reason}?, {@code failure}?) into an
   * object.
   *
   * @param o the object to fill
   * @param cause the cause
   */
  public static void writeCause(ObjectNode o, EndCause cause) {
    o.put("cause", cause.wireName());
    if (cause instanceof EndCause.Stopped s) {
      o.put("reason", s.reason());
    } else if (cause instanceof EndCause.Failed e) {
      Failure f = e.failure();
      ObjectNode fo = o.putObject("failure");
      fo.put("code", f.code());
      fo.put("message", f.message());
    }
  }

  /**
   * Decodes a run state, accepting the legacy {@code waiting} for awaiting.
   *
   * @param json the JSON
   * @return the state
   * @throws GateJsonException on an unknown type or cause
   */
  public static RunState decodeRunState(JsonNode json) {
    object(json, "run state");
    String type = text(json, "type", "run state");
    switch (type) {
      case "running" -> {
        return RunState.running();
      }
      case "awaiting", "waiting" -> {
        return RunState.awaiting();
      }
      case "ended" -> {
        return RunState.ended(readCause(json));
      }
      default -> {
        throw new GateJsonException("unknown run state type \"" + type + "\"");
      }
    }
  }

  /**
   * Reads an end cause from an object with {@code cause}, {@code reason}?, {@code failure}?.
   *
   * @param json the object
   * @return the cause
   * @throws GateJsonException on an unknown cause or a missing member
   */
  public static EndCause readCause(JsonNode json) {
    String cause = text(json, "cause", "ended state");
    switch (cause) {
      case "naturalEnd" -> {
        return EndCause.naturalEnd();
      }
      case "maxSteps" -> {
        return EndCause.maxSteps();
      }
      case "cancelled" -> {
        return EndCause.cancelled();
      }
      case "stopped" -> {
        return EndCause.stopped(text(json, "reason", "stopped state"));
      }
      case "error" -> {
        JsonNode f = member(json, "failure")
            .orElseThrow(() -> new GateJsonException("error state needs \"failure\""));
        object(f, "failure");
        String code = text(f, "code", "failure");
        if (code.isEmpty()) {
          throw new GateJsonException("failure code must be non-empty");
        }
        return EndCause.error(Failure.of(code, optText(f, "message", "failure").orElse("")));
      }
      case "indeterminate" -> {
        return EndCause.indeterminate();
      }
      default -> {
        throw new GateJsonException("unknown end cause \"" + cause + "\"");
      }
    }
  }

  // ---- resume ----

  /**
   * Encodes a resume result.
   *
   * @param result the result
   * @return the JSON object
   */
  public static ObjectNode encodeResumeResult(ResumeResult result) {
    ObjectNode o = F.objectNode();
    if (result instanceof ResumeResult.Permission p) {
      o.put("type", "permission");
      if (p.decision() instanceof PermissionDecision.Allow a) {
        o.put("decision", "allow");
        a.note().ifPresent(n -> o.put("note", n));
      } else if (p.decision() instanceof PermissionDecision.Deny d) {
        o.put("decision", "deny");
        d.reason().ifPresent(r -> o.put("reason", r));
      }
    } else if (result instanceof ResumeResult.ToolResult t) {
      o.put("type", "toolResult");
      o.set("output", encodeToolOutput(t.output()));
    } else if (result instanceof ResumeResult.Input i) {
      o.put("type", "input");
      o.put("text", i.text());
    }
    return o;
  }

  /**
   * Decodes a resume result. A {@code note} on deny or a {@code reason} on allow is an error.
   *
   * @param json the JSON
   * @return the result
   * @throws GateJsonException e.g. {@code permission decision "deny" does not take "note"}
   */
  public static ResumeResult decodeResumeResult(JsonNode json) {
    object(json, "resume result");
    String type = text(json, "type", "resume result");
    switch (type) {
      case "permission" -> {
        String decision = text(json, "decision", "permission result");
        if (decision.equals("allow")) {
          if (has(json, "reason")) {
            throw new GateJsonException("permission decision \"allow\" does not take \"reason\"");
          }
          return new ResumeResult.Permission(
              new PermissionDecision.Allow(optText(json, "note", "permission result")));
        }
        if (decision.equals("deny")) {
          if (has(json, "note")) {
            throw new GateJsonException("permission decision \"deny\" does not take \"note\"");
          }
          return new ResumeResult.Permission(
              new PermissionDecision.Deny(optText(json, "reason", "permission result")));
        }
        throw new GateJsonException("unknown permission decision \"" + decision + "\"");
      }
      case "toolResult" -> {
        return new ResumeResult.ToolResult(decodeToolOutput(member(json, "output")
            .orElseThrow(() -> new GateJsonException("toolResult needs \"output\""))));
      }
      case "input" -> {
        return new ResumeResult.Input(text(json, "text", "input result"));
      }
      default -> {
        throw new GateJsonException("unknown resume result type \"" + type + "\"");
      }
    }
  }

  /**
   * Encodes a resume command; {@code operationId} and {@code contextMessages} are omitted when
   * absent or empty.
   *
   * @param command the command
   * @return the JSON object
   */
  public static ObjectNode encodeResumeCommand(ResumeCommand command) {
    ObjectNode o = F.objectNode();
    o.put("correlationId", command.correlationId());
    o.put("runId", command.runId());
    o.put("threadId", command.threadId());
    o.put("snapshotId", command.snapshotId());
    o.put("catalogFingerprint", command.catalogFingerprint());
    o.set("result", encodeResumeResult(command.result()));
    o.set("nowMs", JsonFields.unsignedNode(command.nowMs()));
    command.operationId().ifPresent(id -> o.put("operationId", id));
    if (!command.contextMessages().isEmpty()) {
      ArrayNode a = o.putArray("contextMessages");
      command.contextMessages().forEach(m -> a.add(m.deepCopy()));
    }
    return o;
  }

  /**
   * Decodes a resume command. Identity members are read as given (validation compares them).
   *
   * @param json the JSON
   * @return the command
   * @throws GateJsonException on a missing member or an invalid result
   */
  public static ResumeCommand decodeResumeCommand(JsonNode json) {
    object(json, "resume command");
    String w = "resume command";
    long now = JsonFields.unsignedMillis(member(json, "nowMs")
        .orElseThrow(() -> new GateJsonException("resume command needs \"nowMs\"")), "nowMs");
    List<JsonNode> ctx = new java.util.ArrayList<>();
    member(json, "contextMessages").ifPresent(a -> a.forEach(m -> ctx.add(m.deepCopy())));
    return new ResumeCommand(text(json, "correlationId", w), text(json, "runId", w),
        text(json, "threadId", w), text(json, "snapshotId", w), text(json, "catalogFingerprint", w),
        decodeResumeResult(member(json, "result")
            .orElseThrow(() -> new GateJsonException("resume command needs \"result\""))),
        now, optText(json, "operationId", w), ctx);
  }

  /**
   * Encodes a validation error as {@code {"code","message"}}.
   *
   * @param error the error
   * @return the JSON object
   */
  public static ObjectNode encodeResumeError(ResumeError error) {
    ObjectNode o = F.objectNode();
    o.put("code", error.code());
    o.put("message", error.message());
    return o;
  }

  // ---- capability bounds and the environment ----

  /**
   * Encodes an id bound.
   *
   * @param bound the bound
   * @return the JSON object
   */
  public static ObjectNode encodeIdBound(IdBound bound) {
    ObjectNode o = F.objectNode();
    if (bound instanceof IdBound.Any) {
      o.put("type", "any");
    } else if (bound instanceof IdBound.Exact e) {
      o.put("type", "exact");
      ArrayNode a = o.putArray("ids");
      e.ids().forEach(a::add);
    } else if (bound instanceof IdBound.Namespace ns) {
      o.put("type", "namespace");
      o.put("prefix", ns.prefix());
    } else if (bound instanceof IdBound.NamespacedExact n) {
      o.put("type", "namespacedExact");
      o.put("prefix", n.prefix());
      ArrayNode a = o.putArray("ids");
      n.ids().forEach(a::add);
    }
    return o;
  }

  /**
   * Decodes an id bound.
   *
   * @param json the JSON
   * @return the bound
   * @throws GateJsonException on an unknown type
   */
  public static IdBound decodeIdBound(JsonNode json) {
    object(json, "id bound");
    String type = text(json, "type", "id bound");
    switch (type) {
      case "any" -> {
        return IdBound.any();
      }
      case "exact" -> {
        return IdBound.exact(stringList(json, "ids", "exact bound"));
      }
      case "namespace" -> {
        return IdBound.namespace(text(json, "prefix", "namespace bound"));
      }
      case "namespacedExact" -> {
        return IdBound.namespacedExact(
            text(json, "prefix", "namespacedExact bound"), stringList(json, "ids", "namespacedExact bound"));
      }
      default -> {
        throw new GateJsonException("unknown id bound type \"" + type + "\"");
      }
    }
  }

  private static String axisKey(BoundAxis axis) {
    return switch (axis) {
      case TOOL -> "tools";
      case STATE_KEY -> "stateKeys";
      case PHASE_HOOK -> "phaseHooks";
      case ACTION_KIND -> "actionKinds";
      case RUN_END_GUARD -> "runEndGuards";
      case TOOL_GATE -> "toolGates";
      case TOOL_CONSTRAINT -> "toolConstraints";
    };
  }

  /**
   * Decodes a capability bound; an omitted axis is deny-all.
   *
   * @param json the JSON object with optional axis members
   * @return the bound
   * @throws GateJsonException on a malformed axis
   */
  public static CapabilityBound decodeCapabilityBound(JsonNode json) {
    object(json, "capability bound");
    CapabilityBound b = CapabilityBound.denyAll();
    for (BoundAxis axis : BoundAxis.values()) {
      Optional<JsonNode> v = member(json, axisKey(axis));
      if (v.isPresent()) {
        b = b.with(axis, decodeIdBound(v.get()));
      }
    }
    return b;
  }

  /**
   * Decodes a plugin {@code {"manifest":{"id","requires"?,"bound"?},"contributions":{..}?}}; lists
   * default to empty and the bound to deny-all.
   *
   * @param json the JSON
   * @return the plugin (without gates)
   * @throws GateJsonException on a malformed member
   */
  public static Plugin decodePlugin(JsonNode json) {
    object(json, "plugin");
    JsonNode m = object(member(json, "manifest")
        .orElseThrow(() -> new GateJsonException("plugin needs \"manifest\"")), "plugin manifest");
    String id = text(m, "id", "plugin manifest");
    if (id.isEmpty()) {
      throw new GateJsonException("plugin id must be non-empty");
    }
    CapabilityBound bound = member(m, "bound").map(GateJson::decodeCapabilityBound)
        .orElse(CapabilityBound.denyAll());
    PluginManifest manifest = new PluginManifest(id, stringList(m, "requires", "plugin manifest"), bound);
    JsonNode c = member(json, "contributions").orElseGet(F::objectNode);
    object(c, "plugin contributions");
    String w = "plugin contributions";
    Contributions contributions = new Contributions(stringList(c, "tools", w),
        stringList(c, "stateKeys", w), stringList(c, "phaseHooks", w),
        stringList(c, "actionKinds", w), stringList(c, "runEndGuards", w),
        stringList(c, "toolGates", w), stringList(c, "toolConstraints", w));
    return Plugin.of(manifest, contributions);
  }

  /**
   * Encodes the conformance view of an environment {@code {"order","tools","actionKinds"}}.
   *
   * @param env the environment
   * @return the JSON object
   */
  public static ObjectNode encodeEnv(ResolvedExecutionEnv env) {
    ObjectNode o = F.objectNode();
    ArrayNode order = o.putArray("order");
    env.order().forEach(order::add);
    ArrayNode tools = o.putArray("tools");
    env.tools().forEach(tools::add);
    ArrayNode kinds = o.putArray("actionKinds");
    env.actionKinds().forEach(kinds::add);
    return o;
  }

  /**
   * Encodes a merge error as {@code {"code","message", ...fields}}.
   *
   * @param error the error
   * @return the JSON object
   */
  public static ObjectNode encodeMergeError(EnvMergeException error) {
    ObjectNode o = F.objectNode();
    o.put("code", error.code());
    o.put("message", String.valueOf(error.getMessage()));
    error.fields().forEach((k, v) -> {
      if (v instanceof List<?> list) {
        ArrayNode a = o.putArray(k);
        list.forEach(e -> a.add(String.valueOf(e)));
      } else {
        o.set(k, TextNode.valueOf(String.valueOf(v)));
      }
    });
    return o;
  }
}

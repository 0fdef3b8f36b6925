package dev.horae.gate;

import static dev.horae.gate.JsonFields.has;
import static dev.horae.gate.JsonFields.member;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.OptionalLong;

/** The ResumeTicket and AwaitTarget wire shapes, including the legacy flattened form (§3.4). */
final class TicketCodec {

  static final String INVALID_TARGET = "resume ticket must contain one valid closed await target";

  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final String[] IDENTITY = {
    "correlationId", "runId", "threadId", "snapshotId", "catalogFingerprint"
  };

  private TicketCodec() {}

  static ObjectNode encodeTarget(AwaitTarget target) {
    ObjectNode o = F.objectNode();
    if (target instanceof AwaitTarget.ToolCallTarget t) {
      o.put("type", "toolCall");
      o.put("reason", t.kind().wireName());
      o.put("callId", t.id());
      o.set("tool", encodePendingTool(t.tool()));
    } else if (target instanceof AwaitTarget.RemoteInputTarget t) {
      o.put("type", "remoteInput");
      o.put("reason", t.kind().wireName());
      o.put("callId", t.id());
    } else if (target instanceof AwaitTarget.PauseTarget t) {
      o.put("type", "pause");
      o.put("reason", t.kind().wireName());
    }
    return o;
  }

  static ObjectNode encodePendingTool(PendingTool tool) {
    ObjectNode o = F.objectNode();
    o.put("toolId", tool.toolId());
    o.set("arguments", tool.arguments().deepCopy());
    return o;
  }

  static ObjectNode encodeTicket(ResumeTicket t) {
    ObjectNode o = F.objectNode();
    o.put("correlationId", t.correlationId());
    o.put("runId", t.runId());
    o.put("threadId", t.threadId());
    o.put("snapshotId", t.snapshotId());
    o.put("catalogFingerprint", t.catalogFingerprint());
    o.set("target", encodeTarget(t.target()));
    t.deadlineMs().ifPresent(d -> o.set("deadlineMs", JsonFields.unsignedNode(d)));
    t.delegationOrigin().ifPresent(d -> o.set("delegationOrigin", d.deepCopy()));
    t.dataSubjectId().ifPresent(d -> o.put("dataSubjectId", d));
    return o;
  }

  static AwaitTarget decodeTarget(JsonNode json) {
    try {
      return decodeTargetStrict(json);
    } catch (IllegalArgumentException e) {
      throw new GateJsonException(INVALID_TARGET);
    }
  }

  private static AwaitTarget decodeTargetStrict(JsonNode json) {
    if (!json.isObject()) {
      throw new GateJsonException(INVALID_TARGET);
    }
    String type = textOrInvalid(json, "type");
    String reason = textOrInvalid(json, "reason");
    switch (type) {
      case "toolCall" -> {
        return AwaitTarget.toolCall(
            ToolAwaitReason.fromWireName(reason).orElseThrow(TicketCodec::invalid),
            textOrInvalid(json, "callId"),
            decodePendingTool(member(json, "tool").orElseThrow(TicketCodec::invalid)));
      }
      case "remoteInput" -> {
        if (has(json, "tool")) {
          throw invalid();
        }
        return AwaitTarget.remoteInput(
            RemoteInputReason.fromWireName(reason).orElseThrow(TicketCodec::invalid),
            textOrInvalid(json, "callId"));
      }
      case "pause" -> {
        if (has(json, "callId") || has(json, "tool")) {
          throw invalid();
        }
        return AwaitTarget.pause(PauseReason.fromWireName(reason).orElseThrow(TicketCodec::invalid));
      }
      default -> {
        throw invalid();
      }
    }
  }

  static PendingTool decodePendingTool(JsonNode json) {
    if (!json.isObject()) {
      throw invalid();
    }
    JsonNode args = member(json, "arguments").orElseThrow(TicketCodec::invalid);
    return new PendingTool(textOrInvalid(json, "toolId"), args.deepCopy());
  }

  static ResumeTicket decodeTicket(JsonNode json) {
    if (!json.isObject()) {
      throw new GateJsonException("resume ticket must be a JSON object");
    }
    String[] id = new String[IDENTITY.length];
    for (int i = 0; i < IDENTITY.length; i++) {
      Optional<JsonNode> v = member(json, IDENTITY[i]);
      if (v.isEmpty() || !v.get().isTextual() || v.get().asText().isEmpty()) {
        throw new GateJsonException(
            "resume ticket field \"" + IDENTITY[i] + "\" must be a non-empty string");
      }
      id[i] = v.get().asText();
    }
    boolean hasTarget = has(json, "target");
    boolean flatAny = has(json, "reason") || has(json, "callId") || has(json, "pendingTool");
    AwaitTarget target;
    if (hasTarget && !flatAny) {
      target = decodeTarget(json.get("target"));
    } else if (!hasTarget && has(json, "reason")) {
      target = decodeFlattened(json);
    } else {
      throw invalid();
    }
    ResumeTicket ticket = ResumeTicket.of(id[0], id[1], id[2], id[3], id[4], target);
    OptionalLong deadline = JsonFields.optUnsignedMillis(json, "deadlineMs");
    if (deadline.isPresent()) {
      ticket = ticket.withDeadline(deadline.getAsLong());
    }
    Optional<JsonNode> origin = member(json, "delegationOrigin");
    if (origin.isEmpty()) {
      origin = member(json, "initiator");
    }
    if (origin.isPresent()) {
      if (!origin.get().isObject()) {
        throw new GateJsonException("resume ticket delegation origin must be a JSON object");
      }
      ticket = ticket.withDelegationOrigin(origin.get());
    }
    Optional<JsonNode> subject = member(json, "dataSubjectId");
    if (subject.isPresent()) {
      if (!subject.get().isTextual() || subject.get().asText().isEmpty()) {
        throw new GateJsonException("resume ticket field \"dataSubjectId\" must be a non-empty string");
      }
      ticket = ticket.withDataSubject(subject.get().asText());
    }
    return ticket;
  }

  // the legacy triple reason + callId + pendingTool; every reason admits exactly one shape
  private static AwaitTarget decodeFlattened(JsonNode json) {
    AwaitReason reason =
        AwaitReason.fromWireName(textOrInvalid(json, "reason")).orElseThrow(TicketCodec::invalid);
    boolean call = has(json, "callId");
    boolean tool = has(json, "pendingTool");
    try {
      switch (reason) {
        case TOOL_PERMISSION -> {
          return flatTool(json, call, tool, ToolAwaitReason.PERMISSION);
        }
        case SCHEDULED_ACTION -> {
          return flatTool(json, call, tool, ToolAwaitReason.SCHEDULED_ACTION);
        }
        case DELEGATION -> {
          return flatTool(json, call, tool, ToolAwaitReason.DELEGATION);
        }
        case EXTERNAL_EVENT -> {
          if (call && tool) {
            return flatTool(json, true, true, ToolAwaitReason.CLIENT_EXECUTION);
          }
          return flatRemote(json, call, tool, RemoteInputReason.EXTERNAL_EVENT);
        }
        case USER_INPUT -> {
          return flatRemote(json, call, tool, RemoteInputReason.USER_INPUT);
        }
        case MANUAL_PAUSE -> {
          return flatPause(call, tool, PauseReason.MANUAL);
        }
        case RATE_LIMIT -> {
          return flatPause(call, tool, PauseReason.RATE_LIMIT);
        }
        case BUDGET_REACHED -> {
          // the legacy form never had a budget pause
          throw invalid();
        }
      }
    } catch (IllegalArgumentException e) {
      throw invalid();
    }
    throw invalid();
  }

  private static AwaitTarget flatTool(JsonNode json, boolean call, boolean tool, ToolAwaitReason k) {
    if (!call || !tool) {
      throw invalid();
    }
    return AwaitTarget.toolCall(k, textOrInvalid(json, "callId"), decodePendingTool(json.get("pendingTool")));
  }

  private static AwaitTarget flatRemote(JsonNode json, boolean call, boolean tool, RemoteInputReason k) {
    if (!call || tool) {
      throw invalid();
    }
    return AwaitTarget.remoteInput(k, textOrInvalid(json, "callId"));
  }

  private static AwaitTarget flatPause(boolean call, boolean tool, PauseReason k) {
    if (call || tool) {
      throw invalid();
    }
    return AwaitTarget.pause(k);
  }

  private static String textOrInvalid(JsonNode json, String name) {
    JsonNode v = json.get(name);
    if (v == null || !v.isTextual() || v.asText().isEmpty()) {
      throw invalid();
    }
    return v.asText();
  }

  private static GateJsonException invalid() {
    return new GateJsonException(INVALID_TARGET);
  }
}

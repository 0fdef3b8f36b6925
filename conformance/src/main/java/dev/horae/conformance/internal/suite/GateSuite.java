package dev.horae.conformance.internal.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.conformance.Outcome;
import dev.horae.conformance.SuiteAdapter;
import dev.horae.conformance.UnusableArgsException;
import dev.horae.gate.AwaitReason;
import dev.horae.gate.EnvMergeException;
import dev.horae.gate.GateJson;
import dev.horae.gate.GateJsonException;
import dev.horae.gate.Plugin;
import dev.horae.gate.ResolvedExecutionEnv;
import dev.horae.gate.ResumeError;
import dev.horae.gate.ResumeValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/** The {@code gate} suite on {@code dev.horae.gate} (gate-runtime). */
public final class GateSuite implements SuiteAdapter {

  /** Creates the adapter. */
  public GateSuite() {}

  @Override
  public String suite() {
    return "gate";
  }

  @Override
  public Set<String> functions() {
    return Set.of("gate.validateResume", "gate.decodeTicket", "gate.auditLabel", "gate.fromPermission",
        "gate.idBoundAllows", "gate.mergeEnv", "gate.permits", "gate.streamToken");
  }

  @Override
  public Outcome call(String fn, JsonNode json) {
    Args args = Args.of(json);
    return switch (fn) {
      case "gate.validateResume" -> validateResume(args);
      case "gate.decodeTicket" ->
        decoded(() -> Outcome.value(GateJson.encodeTicket(GateJson.decodeTicket(args.node("json")))));
      case "gate.auditLabel" ->
        Outcome.text(decode(args, "outcome", GateJson::decodeOutcome).auditLabel());
      case "gate.fromPermission" ->
        Outcome.value(GateJson.encodeOutcome(
            decode(args, "verdict", GateJson::decodeVerdict).toGateOutcome()));
      case "gate.idBoundAllows" ->
        Outcome.value(BooleanNode.valueOf(
            decode(args, "bound", GateJson::decodeIdBound).allows(args.text("id"))));
      case "gate.mergeEnv" ->
        mergeEnv(args);
      case "gate.permits" ->
        Outcome.value(BooleanNode.valueOf(decode(args, "from", GateJson::decodeRunState)
            .permits(decode(args, "to", GateJson::decodeRunState))));
      case "gate.streamToken" -> {
        String reason = args.text("reason");
        yield Outcome.text(AwaitReason.fromWireName(reason)
            .orElseThrow(() -> new UnusableArgsException("args.reason is not an AwaitReason: " + reason))
            .streamToken());
      }
      default ->
        throw new UnusableArgsException("no gate function " + fn);
    };
  }

  // the ticket and command decoders have their own specified rejections (gate spec §3.4, §6.1),
  // so a value they refuse is the function's error, not an unusable case
  private static Outcome validateResume(Args args) {
    return decoded(() -> {
      Optional<ResumeError> e = ResumeValidation.validate(
          GateJson.decodeTicket(args.node("ticket")), GateJson.decodeResumeCommand(args.node("command")));
      return e.map(error -> Outcome.error(GateJson.encodeResumeError(error)))
          .orElseGet(() -> Outcome.text("ok"));
    });
  }

  private static Outcome decoded(Supplier<Outcome> call) {
    try {
      return call.get();
    } catch (GateJsonException e) {
      ObjectNode error = JsonNodeFactory.instance.objectNode();
      error.put("message", String.valueOf(e.getMessage()));
      return Outcome.error(error);
    }
  }

  private static Outcome mergeEnv(Args args) {
    List<Plugin> plugins = new ArrayList<>();
    List<JsonNode> list = args.list("plugins");
    for (int i = 0; i < list.size(); i++) {
      try {
        plugins.add(GateJson.decodePlugin(list.get(i)));
      } catch (GateJsonException e) {
        throw new UnusableArgsException("args.plugins[" + i + "]: " + e.getMessage(), e);
      }
    }
    try {
      return Outcome.value(GateJson.encodeEnv(ResolvedExecutionEnv.merge(plugins)));
    } catch (EnvMergeException e) {
      return Outcome.error(GateJson.encodeMergeError(e));
    }
  }

  // outside the ticket and command decoders a decode failure means the case's arguments are not gate values
  private static <T> T decode(Args args, String name, Function<JsonNode, T> decoder) {
    try {
      return decoder.apply(args.node(name));
    } catch (GateJsonException e) {
      throw new UnusableArgsException("args." + name + ": " + e.getMessage(), e);
    }
  }
}

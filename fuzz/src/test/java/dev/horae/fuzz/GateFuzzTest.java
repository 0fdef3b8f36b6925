package dev.horae.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.fuzz.FuzzRun.Verdict;
import dev.horae.gate.AwaitTarget;
import dev.horae.gate.EndCause;
import dev.horae.gate.Failure;
import dev.horae.gate.GateJson;
import dev.horae.gate.GateJsonException;
import dev.horae.gate.PauseReason;
import dev.horae.gate.PendingTool;
import dev.horae.gate.PermissionDecision;
import dev.horae.gate.RemoteInputReason;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.ResumeValidation;
import dev.horae.gate.ToolAwaitReason;
import dev.horae.gate.runtime.RunDisposition;
import dev.horae.gate.runtime.StateCommand;
import dev.horae.gate.runtime.ThreadCommit;
import dev.horae.gate.runtime.ToolRecoveryPolicy;
import dev.horae.gate.runtime.internal.CommitCodec;
import dev.horae.gate.runtime.internal.DurableToolCall;
import dev.horae.gate.runtime.internal.ToolBatch;
import dev.horae.gate.runtime.internal.ToolCallPhase;
import dev.horae.gate.runtime.internal.ToolWaitKind;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The gate codecs that read committed or external JSON: resume tickets (canonical and legacy
 * flattened forms) and their await targets, resume commands, the {@code gate/commit} payloads a
 * thread's log holds, tool batches, and the outcomes, verdicts, run states, bounds and plugins of
 * the conformance format. The documented error is {@link GateJsonException} alone; a decoded value
 * encodes and decodes back to itself (a committed value is read back the same after a restart).
 */
class GateFuzzTest {

  private static final ResumeTicket TICKET = tickets().get(0);

  static ObjectNode args() {
    return (ObjectNode) Json.parse("{\"path\":\"/tmp/x\",\"n\":1,\"big\":18446744073709551615,\"f\":30.0}");
  }

  static List<ResumeTicket> tickets() {
    PendingTool tool = new PendingTool("shell", args());
    List<ResumeTicket> out = new ArrayList<>();
    for (ToolAwaitReason r : ToolAwaitReason.values()) {
      out.add(ResumeTicket.of("c", "run-1", "thread-1", "snap", "fp", AwaitTarget.toolCall(r, "call-1", tool)));
    }
    for (RemoteInputReason r : RemoteInputReason.values()) {
      out.add(ResumeTicket.of("c", "run-1", "thread-1", "snap", "fp", AwaitTarget.remoteInput(r, "call-2")));
    }
    for (PauseReason r : PauseReason.values()) {
      out.add(ResumeTicket.of("c", "run-1", "thread-1", "snap", "fp", AwaitTarget.pause(r)));
    }
    out.add(out.get(0).withDeadline(-1L).withDataSubject("user-7")
        .withDelegationOrigin(Json.parse("{\"agent\":\"parent\",\"depth\":1}")));
    return out;
  }

  static List<byte[]> ticketSeeds() {
    List<String> seeds = new ArrayList<>();
    tickets().forEach(t -> seeds.add(Json.write(GateJson.encodeTicket(t))));
    seeds.add("{\"correlationId\":\"c\",\"runId\":\"r\",\"threadId\":\"t\",\"snapshotId\":\"s\",\"catalogFingerprint\":\"f\","
        + "\"reason\":\"toolPermission\",\"callId\":\"call\",\"pendingTool\":{\"toolId\":\"x\",\"arguments\":{}}}");
    seeds.addAll(Corpus.args("gate.decodeTicket", "json"));
    seeds.addAll(Corpus.args("gate.validateResume", "ticket"));
    return FuzzRun.corpus(seeds);
  }

  static List<byte[]> commandSeeds() {
    List<String> seeds = new ArrayList<>();
    ResumeTicket t = tickets().get(0);
    for (ResumeResult r : List.of(
        new ResumeResult.Permission(PermissionDecision.allow()),
        new ResumeResult.Permission(new PermissionDecision.Deny(Optional.of("no"))),
        new ResumeResult.ToolResult(ToolOutput.success("call-1", args())),
        new ResumeResult.ToolResult(ToolOutput.error("call-1", "boom")),
        new ResumeResult.Input("yes"))) {
      ResumeCommand c = new ResumeCommand(t.correlationId(), t.runId(), t.threadId(), t.snapshotId(),
          t.catalogFingerprint(), r, -2L, Optional.of("op-1"), List.of(Json.parse("{\"role\":\"user\"}")));
      seeds.add(Json.write(GateJson.encodeResumeCommand(c)));
    }
    seeds.addAll(Corpus.args("gate.validateResume", "command"));
    return FuzzRun.corpus(seeds);
  }

  static List<ThreadCommit> commits() {
    List<ThreadCommit> out = new ArrayList<>();
    List<JsonNode> messages = List.of(Json.parse("{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}"));
    List<StateCommand> state = List.of(new StateCommand("k", Json.parse("{\"v\":[1,2]}")));
    List<JsonNode> events = List.of(Json.parse("{\"type\":\"runStateChanged\",\"state\":{\"type\":\"running\"}}"));
    out.add(new ThreadCommit("thread-1", new RunDisposition.Running("run-1"), messages, state, events));
    for (ResumeTicket t : tickets()) {
      out.add(new ThreadCommit("thread-1", new RunDisposition.Awaiting(t), List.of(), List.of(), List.of()));
    }
    for (EndCause c : List.of(EndCause.naturalEnd(), EndCause.maxSteps(), EndCause.cancelled(),
        EndCause.stopped("guard"), EndCause.error(Failure.of("model_error", "down")), EndCause.indeterminate(),
        EndCause.error(Failure.of(Failure.STATE_CONFLICT_CODE, "")))) {
      out.add(new ThreadCommit("thread-1", new RunDisposition.Ended("run-1", c), messages, List.of(), List.of()));
    }
    return out;
  }

  static List<byte[]> commitSeeds() {
    List<String> seeds = new ArrayList<>();
    long sequence = 1;
    for (ThreadCommit c : commits()) {
      ObjectNode payload = Json.mapper().createObjectNode();
      payload.put("sequence", sequence++);
      payload.set("commit", CommitCodec.encodeCommit(c));
      seeds.add(Json.write(payload));
    }
    return FuzzRun.corpus(seeds);
  }

  static List<byte[]> batchSeeds() {
    ToolCall call = new ToolCall("call-1", "shell", args());
    List<ToolCallPhase> phases = List.of(new ToolCallPhase.Requested(), new ToolCallPhase.Executing(2),
        new ToolCallPhase.Awaiting(ToolWaitKind.TOOL_PERMISSION, "corr"),
        new ToolCallPhase.Completed(ToolOutput.success("call-1", args())),
        new ToolCallPhase.Indeterminate("crashed"));
    List<ToolRecoveryPolicy> policies = List.of(ToolRecoveryPolicy.neverReplay(),
        new ToolRecoveryPolicy.ReplaySafe(3), new ToolRecoveryPolicy.DurableRequest(1));
    List<String> seeds = new ArrayList<>();
    for (int i = 0; i < phases.size(); i++) {
      List<DurableToolCall> calls = List.of(new DurableToolCall(call, policies.get(i % 3), phases.get(i)),
          new DurableToolCall(new ToolCall("call-2", "read", Json.parse("{}")), policies.get((i + 1) % 3),
              new ToolCallPhase.Requested()));
      seeds.add(Json.write(CommitCodec.encodeBatch(new ToolBatch("run-1", i, i == 4, calls))));
    }
    return FuzzRun.corpus(seeds);
  }

  static List<byte[]> miscSeeds() {
    List<String> seeds = new ArrayList<>();
    seeds.addAll(Corpus.args("gate.auditLabel", "outcome"));
    seeds.addAll(Corpus.args("gate.fromPermission", "verdict"));
    seeds.addAll(Corpus.args("gate.idBoundAllows", "bound"));
    seeds.addAll(Corpus.args("gate.permits", "from"));
    seeds.addAll(Corpus.args("gate.permits", "to"));
    for (String plugins : Corpus.args("gate.mergeEnv", "plugins")) {
      Json.parse(plugins).forEach(p -> seeds.add(Json.write(p)));
    }
    seeds.add(Json.write(GateJson.encodeToolCall(new ToolCall("c", "t", args()))));
    seeds.add(Json.write(GateJson.encodeToolOutput(ToolOutput.error("c", "boom"))));
    seeds.add("{\"tools\":{\"type\":\"any\"},\"stateKeys\":{\"type\":\"namespace\",\"prefix\":\"p.\"},"
        + "\"toolGates\":{\"type\":\"namespacedExact\",\"prefix\":\"g.\",\"ids\":[\"a\"]}}");
    return FuzzRun.corpus(seeds);
  }

  /** A decoder of an already parsed value. */
  @FunctionalInterface
  interface JsonTarget {
    Verdict decode(JsonNode json);
  }

  /** Parses the input with the shared mapper, then hands it to the decoder. */
  static FuzzRun.Target parsed(JsonTarget target) {
    return input -> {
      JsonNode json;
      try {
        json = Json.parse(FuzzRun.text(input));
      } catch (IllegalArgumentException e) {
        return Verdict.UNPARSABLE;
      }
      return target.decode(json);
    };
  }

  /**
   * A codec under test: decode, then (for a value) encode, decode and encode again, which must
   * give the same stored form.
   */
  static <T> JsonTarget codec(Function<JsonNode, T> decode, Function<T, JsonNode> encode) {
    return codec(decode, Optional.of(encode));
  }

  /** A decoder without an encoder of its own: decoding alone. */
  static <T> JsonTarget decoding(Function<JsonNode, T> decode) {
    return codec(decode, Optional.empty());
  }

  private static <T> JsonTarget codec(Function<JsonNode, T> decode, Optional<Function<T, JsonNode>> encode) {
    return json -> {
      T value;
      try {
        value = decode.apply(json);
      } catch (GateJsonException e) {
        return Verdict.DOMAIN_ERROR;
      }
      if (encode.isPresent()) {
        // committed and read back after a restart, the value keeps its stored form
        String stored = Json.write(encode.get().apply(value));
        assertThat(Json.write(encode.get().apply(decode.apply(Json.parse(stored))))).isEqualTo(stored);
      }
      return Verdict.VALID;
    };
  }

  static Verdict commit(JsonNode json) {
    return codec((JsonNode payload) -> {
      // as the thread fold and the invariant checker read a gate/commit event's data
      ThreadCommit c = CommitCodec.decodeCommit(payload.path("commit"));
      var unused = c.validate();
      return c;
    }, c -> {
      ObjectNode payload = Json.mapper().createObjectNode();
      payload.set("commit", CommitCodec.encodeCommit(c));
      return payload;
    }).decode(json);
  }

  /** Every decoder of the miscellaneous shapes over the same inputs; the first that accepts decides. */
  static Verdict misc(JsonNode json) {
    List<JsonTarget> all = List.of(
        codec(GateJson::decodeOutcome, GateJson::encodeOutcome),
        decoding(GateJson::decodeVerdict),
        codec(GateJson::decodeToolCall, GateJson::encodeToolCall),
        codec(GateJson::decodeToolOutput, GateJson::encodeToolOutput),
        codec(GateJson::decodeRunState, GateJson::encodeRunState),
        codec(GateJson::decodeIdBound, GateJson::encodeIdBound),
        codec(GateJson::decodeResumeResult, GateJson::encodeResumeResult),
        decoding(GateJson::decodeCapabilityBound),
        decoding(GateJson::decodePlugin),
        codec(GateJson::decodeTarget, GateJson::encodeTarget));
    for (JsonTarget t : all) {
      if (t.decode(json) == Verdict.VALID) {
        return Verdict.VALID;
      }
    }
    return Verdict.DOMAIN_ERROR;
  }

  static Verdict resume(JsonNode json) {
    Verdict verdict = codec(GateJson::decodeResumeCommand, GateJson::encodeResumeCommand).decode(json);
    if (verdict == Verdict.VALID) {
      // validation compares a decoded command with a committed ticket and answers with a value
      var unused = ResumeValidation.validate(TICKET, GateJson.decodeResumeCommand(json));
    }
    return verdict;
  }

  @Test
  void ticketCodec() {
    FuzzRun.assertClean(FuzzRun.run("GateJson.ticket", 31, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET, ticketSeeds(),
        parsed(codec(GateJson::decodeTicket, GateJson::encodeTicket))));
  }

  @Test
  void resumeCommandCodec() {
    FuzzRun.assertClean(FuzzRun.run("GateJson.resumeCommand", 32, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET,
        commandSeeds(), parsed(GateFuzzTest::resume)));
  }

  @Test
  void commitCodec() {
    FuzzRun.assertClean(FuzzRun.run("CommitCodec.commit", 33, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET, commitSeeds(),
        parsed(GateFuzzTest::commit)));
  }

  @Test
  void batchCodec() {
    FuzzRun.assertClean(FuzzRun.run("CommitCodec.batch", 34, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET, batchSeeds(),
        parsed(codec(CommitCodec::decodeBatch, CommitCodec::encodeBatch))));
  }

  @Test
  void outcomesVerdictsStatesBoundsPlugins() {
    FuzzRun.assertClean(FuzzRun.run("GateJson.misc", 35, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET, miscSeeds(),
        parsed(GateFuzzTest::misc)));
  }

  @Test
  @Tag("slow")
  void ticketCodecLong() {
    FuzzRun.assertClean(FuzzRun.run("GateJson.ticket", 131, FuzzRun.LONG, FuzzRun.LONG_BUDGET, ticketSeeds(),
        parsed(codec(GateJson::decodeTicket, GateJson::encodeTicket))));
  }

  @Test
  @Tag("slow")
  void resumeCommandCodecLong() {
    FuzzRun.assertClean(FuzzRun.run("GateJson.resumeCommand", 132, FuzzRun.LONG, FuzzRun.LONG_BUDGET,
        commandSeeds(), parsed(GateFuzzTest::resume)));
  }

  @Test
  @Tag("slow")
  void commitCodecLong() {
    FuzzRun.assertClean(FuzzRun.run("CommitCodec.commit", 133, FuzzRun.LONG, FuzzRun.LONG_BUDGET, commitSeeds(),
        parsed(GateFuzzTest::commit)));
  }

  @Test
  @Tag("slow")
  void batchCodecLong() {
    FuzzRun.assertClean(FuzzRun.run("CommitCodec.batch", 134, FuzzRun.LONG, FuzzRun.LONG_BUDGET, batchSeeds(),
        parsed(codec(CommitCodec::decodeBatch, CommitCodec::encodeBatch))));
  }
}

package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.runtime.internal.CommitCodec;
import dev.horae.spi.gate.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One atomic commit to a thread (gate specification §5.1): the run fact, appended transcript
 * messages, state commands and event drafts. Lands entirely or not at all.
 *
 * @param threadId the thread (session) written to
 * @param run the run fact
 * @param messages appended transcript messages
 * @param state state commands
 * @param events event drafts, in assembly order
 */
public record ThreadCommit(
    String threadId,
    RunDisposition run,
    List<JsonNode> messages,
    List<StateCommand> state,
    List<JsonNode> events) {

  /** Copies the lists. */
  public ThreadCommit {
    Objects.requireNonNull(threadId, "threadId");
    Objects.requireNonNull(run, "run");
    messages = List.copyOf(messages);
    state = List.copyOf(state);
    events = List.copyOf(events);
  }

  /**
   * Checks the commit's own consistency.
   *
   * @return the {@code invalid} message, or empty when valid
   */
  public Optional<String> validate() {
    if (threadId.isEmpty()) {
      return Optional.of("invalid thread commit: thread id must be non-empty");
    }
    if (run.runId().isEmpty()) {
      return Optional.of("invalid thread commit: run id must be non-empty");
    }
    if (run instanceof RunDisposition.Awaiting a && !a.ticket().threadId().equals(threadId)) {
      return Optional.of("invalid thread commit: awaiting ticket belongs to thread "
          + a.ticket().threadId() + ", not " + threadId);
    }
    return Optional.empty();
  }

  /**
   * Reads a commit from its wire form (gate specification §5.2), the {@code "commit"} member of a
   * {@code gate/commit} event in a session log: the one decoder a reader of logs (the invariant
   * checker, say) needs, so the codec itself stays internal.
   *
   * @param json the commit's JSON object
   * @return the commit
   * @throws dev.horae.gate.GateJsonException on a malformed commit
   */
  public static ThreadCommit fromJson(JsonNode json) {
    return CommitCodec.decodeCommit(json);
  }

  /**
   * Assembles a commit with its event drafts in the order of gate specification §5.2:
   * {@code runStateChanged} (always), {@code stateChanged} when state commands ride along,
   * {@code runAwaiting} when the Run awaits, then the caller's extras (e.g. {@link
   * #permissionDecided}). Every engine that commits builds its commits here, so the order has one
   * home.
   *
   * @param threadId the thread (session) written to
   * @param run the run fact
   * @param messages appended transcript messages
   * @param state state commands
   * @param extras the caller's event drafts, appended last
   * @return the commit
   */
  public static ThreadCommit assemble(
      String threadId, RunDisposition run, List<JsonNode> messages, List<StateCommand> state, List<JsonNode> extras) {
    List<JsonNode> events = new ArrayList<>();
    events.add(CommitCodec.runStateChanged(run.state()));
    if (!state.isEmpty()) {
      ObjectNode sc = JsonNodeFactory.instance.objectNode();
      sc.put("type", "stateChanged");
      sc.put("commands", state.size());
      events.add(sc);
    }
    if (run instanceof RunDisposition.Awaiting) {
      ObjectNode ra = JsonNodeFactory.instance.objectNode();
      ra.put("type", "runAwaiting");
      ra.put("runId", run.runId());
      events.add(ra);
    }
    events.addAll(extras);
    return new ThreadCommit(threadId, run, messages, state, events);
  }

  /**
   * The audit draft of gate specification §1.4 for one call: {@code {"type":"permissionDecided",
   * "toolId":…,"callId":…,"decision":label}}, the label being the outcome's audit label or
   * {@code approved} / {@code denied} for a person's answer.
   *
   * @param call the gated call
   * @param label the decision label
   * @return the draft
   */
  public static ObjectNode permissionDecided(ToolCall call, String label) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("type", "permissionDecided");
    o.put("toolId", call.toolId());
    o.put("callId", call.callId());
    o.put("decision", label);
    return o;
  }
}

package dev.horae.gate;

import dev.horae.spi.gate.ToolCall;
import java.util.Objects;
import java.util.Optional;

/**
 * What a Run waits on — closed, exactly three variants (gate specification §2.1). The committed
 * target also records who supplies the next result: the system for a scheduled action, an
 * external decision for every other kind.
 */
public sealed interface AwaitTarget
    permits AwaitTarget.ToolCallTarget, AwaitTarget.RemoteInputTarget, AwaitTarget.PauseTarget {

  /**
   * The flat, lossy reason (§2.1 flattening table).
   *
   * @return the reason
   */
  AwaitReason reason();

  /**
   * The call id the answer binds to; empty for a pause.
   *
   * @return the call id, if any
   */
  Optional<String> callId();

  /**
   * The committed tool request; present only for a tool-call target.
   *
   * @return the pending tool, if any
   */
  Optional<PendingTool> pendingTool();

  /**
   * The committed call as a complete tool call; present only for a tool-call target.
   *
   * @return the call, if any
   */
  default Optional<ToolCall> toolCall() {
    return Optional.empty();
  }

  /**
   * A wait on one tool call.
   *
   * @param kind why the call waits
   * @param callId the model's call id; non-empty
   * @param tool the committed tool request
   * @return the target
   * @throws IllegalArgumentException when the call id is empty
   */
  static AwaitTarget toolCall(ToolAwaitReason kind, String callId, PendingTool tool) {
    return new ToolCallTarget(kind, callId, tool);
  }

  /**
   * A wait on remote input bound to a call id.
   *
   * @param kind the kind of input
   * @param callId the id the input binds to; non-empty
   * @return the target
   * @throws IllegalArgumentException when the call id is empty
   */
  static AwaitTarget remoteInput(RemoteInputReason kind, String callId) {
    return new RemoteInputTarget(kind, callId);
  }

  /**
   * A pause.
   *
   * @param kind why the Run is paused
   * @return the target
   */
  static AwaitTarget pause(PauseReason kind) {
    return new PauseTarget(kind);
  }

  /**
   * A wait on one tool call.
   *
   * @param kind why the call waits (JSON {@code reason})
   * @param id the model's call id (JSON {@code callId})
   * @param tool the committed tool request
   */
  record ToolCallTarget(ToolAwaitReason kind, String id, PendingTool tool) implements AwaitTarget {
    /**
     * Validates the target.
     *
     * @throws IllegalArgumentException when the call id is empty
     */
    public ToolCallTarget {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(tool, "tool");
      requireId(id);
    }

    @Override
    public AwaitReason reason() {
      return kind.flat();
    }

    @Override
    public Optional<String> callId() {
      return Optional.of(id);
    }

    @Override
    public Optional<PendingTool> pendingTool() {
      return Optional.of(tool);
    }

    @Override
    public Optional<ToolCall> toolCall() {
      return Optional.of(new ToolCall(id, tool.toolId(), tool.arguments()));
    }
  }

  /**
   * A wait on remote input.
   *
   * @param kind the kind of input (JSON {@code reason})
   * @param id the call id the input binds to (JSON {@code callId})
   */
  record RemoteInputTarget(RemoteInputReason kind, String id) implements AwaitTarget {
    /**
     * Validates the target.
     *
     * @throws IllegalArgumentException when the call id is empty
     */
    public RemoteInputTarget {
      Objects.requireNonNull(kind, "kind");
      requireId(id);
    }

    @Override
    public AwaitReason reason() {
      return kind.flat();
    }

    @Override
    public Optional<String> callId() {
      return Optional.of(id);
    }

    @Override
    public Optional<PendingTool> pendingTool() {
      return Optional.empty();
    }
  }

  /**
   * A pause.
   *
   * @param kind why the Run is paused (JSON {@code reason})
   */
  record PauseTarget(PauseReason kind) implements AwaitTarget {
    /** Validates the target. */
    public PauseTarget {
      Objects.requireNonNull(kind, "kind");
    }

    @Override
    public AwaitReason reason() {
      return kind.flat();
    }

    @Override
    public Optional<String> callId() {
      return Optional.empty();
    }

    @Override
    public Optional<PendingTool> pendingTool() {
      return Optional.empty();
    }
  }

  private static void requireId(String id) {
    Objects.requireNonNull(id, "callId");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("await target call id must be non-empty");
    }
  }
}

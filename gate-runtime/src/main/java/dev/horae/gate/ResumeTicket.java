package dev.horae.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.gate.ToolCall;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The identity and closed target of one wait (gate specification §3). The target is held
 * privately and read only through {@link #reason()}, {@link #callId()}, {@link #pendingTool()},
 * {@link #target()} and {@link #toolCall()}: no factory accepts a reason, call id or pending tool
 * separately, so a ticket's reason can never disagree with its payload.
 *
 * <p>A ticket value has no power by itself; it becomes authoritative only once committed in an
 * Awaiting disposition through the runtime's finish boundary. Immutable; {@code with*} methods
 * return copies.
 */
public final class ResumeTicket {

  private final String correlationId;
  private final String runId;
  private final String threadId;
  private final String snapshotId;
  private final String catalogFingerprint;
  private final AwaitTarget target;
  private final OptionalLong deadlineMs;
  private final Optional<JsonNode> delegationOrigin;
  private final Optional<String> dataSubjectId;

  private ResumeTicket(
      String correlationId,
      String runId,
      String threadId,
      String snapshotId,
      String catalogFingerprint,
      AwaitTarget target,
      OptionalLong deadlineMs,
      Optional<JsonNode> delegationOrigin,
      Optional<String> dataSubjectId) {
    this.correlationId = correlationId;
    this.runId = runId;
    this.threadId = threadId;
    this.snapshotId = snapshotId;
    this.catalogFingerprint = catalogFingerprint;
    this.target = target;
    this.deadlineMs = deadlineMs;
    this.delegationOrigin = delegationOrigin;
    this.dataSubjectId = dataSubjectId;
  }

  /**
   * The only factory: one closed target plus the identity.
   *
   * @param correlationId the answer's correlation id; non-empty
   * @param runId the Run; non-empty
   * @param threadId the thread the Run commits to; non-empty
   * @param snapshotId the executable agent snapshot the Run executes; non-empty
   * @param catalogFingerprint the snapshot's tool-catalog fingerprint; non-empty
   * @param target the closed target
   * @return the ticket
   * @throws IllegalArgumentException when an identity field is empty, with the message {@code
   *     resume ticket field "<name>" must be a non-empty string}
   */
  public static ResumeTicket of(
      String correlationId,
      String runId,
      String threadId,
      String snapshotId,
      String catalogFingerprint,
      AwaitTarget target) {
    return new ResumeTicket(
        requireField("correlationId", correlationId),
        requireField("runId", runId),
        requireField("threadId", threadId),
        requireField("snapshotId", snapshotId),
        requireField("catalogFingerprint", catalogFingerprint),
        Objects.requireNonNull(target, "target"),
        OptionalLong.empty(),
        Optional.empty(),
        Optional.empty());
  }

  static String requireField(String name, String value) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(
          "resume ticket field \"" + name + "\" must be a non-empty string");
    }
    return value;
  }

  /**
   * A copy with a deadline; a resume with {@code nowMs} after it (unsigned) is stale.
   *
   * @param deadlineMs epoch milliseconds, unsigned
   * @return the copy
   */
  public ResumeTicket withDeadline(long deadlineMs) {
    return new ResumeTicket(correlationId, runId, threadId, snapshotId, catalogFingerprint, target,
        OptionalLong.of(deadlineMs), delegationOrigin, dataSubjectId);
  }

  /**
   * A copy with the opaque delegation origin.
   *
   * @param origin a JSON object, carried unchanged
   * @return the copy
   * @throws IllegalArgumentException when the origin is not a JSON object
   */
  public ResumeTicket withDelegationOrigin(JsonNode origin) {
    if (!origin.isObject()) {
      throw new IllegalArgumentException("delegation origin must be a JSON object");
    }
    return new ResumeTicket(correlationId, runId, threadId, snapshotId, catalogFingerprint, target,
        deadlineMs, Optional.of(origin.deepCopy()), dataSubjectId);
  }

  /**
   * A copy with the neutral content-owner id carried across resume.
   *
   * @param dataSubjectId the id; non-empty
   * @return the copy
   * @throws IllegalArgumentException when the id is empty
   */
  public ResumeTicket withDataSubject(String dataSubjectId) {
    return new ResumeTicket(correlationId, runId, threadId, snapshotId, catalogFingerprint, target,
        deadlineMs, delegationOrigin, Optional.of(requireField("dataSubjectId", dataSubjectId)));
  }

  /**
   * A copy bound to the commit's thread (the finish boundary overwrites the thread id).
   *
   * @param threadId the commit's thread; non-empty
   * @return the copy
   * @throws IllegalArgumentException when the id is empty
   */
  public ResumeTicket boundTo(String threadId) {
    return new ResumeTicket(correlationId, runId, requireField("threadId", threadId), snapshotId,
        catalogFingerprint, target, deadlineMs, delegationOrigin, dataSubjectId);
  }

  /**
   * The correlation id an answer must carry.
   *
   * @return the correlation id
   */
  public String correlationId() {
    return correlationId;
  }

  /**
   * The Run.
   *
   * @return the run id
   */
  public String runId() {
    return runId;
  }

  /**
   * The thread.
   *
   * @return the thread id
   */
  public String threadId() {
    return threadId;
  }

  /**
   * The snapshot the Run executes.
   *
   * @return the snapshot id
   */
  public String snapshotId() {
    return snapshotId;
  }

  /**
   * The snapshot's tool-catalog fingerprint.
   *
   * @return the fingerprint
   */
  public String catalogFingerprint() {
    return catalogFingerprint;
  }

  /**
   * The closed target.
   *
   * @return the target
   */
  public AwaitTarget target() {
    return target;
  }

  /**
   * The flat reason of the target.
   *
   * @return the reason
   */
  public AwaitReason reason() {
    return target.reason();
  }

  /**
   * The call id of the target, absent for a pause.
   *
   * @return the call id, if any
   */
  public Optional<String> callId() {
    return target.callId();
  }

  /**
   * The committed tool request, present only for a tool-call target.
   *
   * @return the pending tool, if any
   */
  public Optional<PendingTool> pendingTool() {
    return target.pendingTool();
  }

  /**
   * The committed call, present only for a tool-call target.
   *
   * @return the call, if any
   */
  public Optional<ToolCall> toolCall() {
    return target.toolCall();
  }

  /**
   * The deadline, if any (epoch milliseconds, unsigned).
   *
   * @return the deadline
   */
  public OptionalLong deadlineMs() {
    return deadlineMs;
  }

  /**
   * The opaque delegation origin, if any.
   *
   * @return the origin
   */
  public Optional<JsonNode> delegationOrigin() {
    return delegationOrigin;
  }

  /**
   * The content-owner id, if any.
   *
   * @return the id
   */
  public Optional<String> dataSubjectId() {
    return dataSubjectId;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ResumeTicket t)) {
      return false;
    }
    return correlationId.equals(t.correlationId)
        && runId.equals(t.runId)
        && threadId.equals(t.threadId)
        && snapshotId.equals(t.snapshotId)
        && catalogFingerprint.equals(t.catalogFingerprint)
        && target.equals(t.target)
        && deadlineMs.equals(t.deadlineMs)
        && delegationOrigin.equals(t.delegationOrigin)
        && dataSubjectId.equals(t.dataSubjectId);
  }

  @Override
  public int hashCode() {
    return Objects.hash(correlationId, runId, threadId, snapshotId, catalogFingerprint, target,
        deadlineMs, delegationOrigin, dataSubjectId);
  }

  @Override
  public String toString() {
    return "ResumeTicket[" + correlationId + ", run " + runId + ", thread " + threadId + ", "
        + target + "]";
  }
}

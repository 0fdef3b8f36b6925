package dev.horae.gate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A request to resume an awaiting Run (gate specification §6.1). Its identity must match the
 * committed ticket exactly; {@link #fromTicket} copies it from the ticket, the single source of
 * resume identity.
 *
 * @param correlationId the ticket's correlation id
 * @param runId the Run
 * @param threadId the thread
 * @param snapshotId the snapshot
 * @param catalogFingerprint the catalog fingerprint
 * @param result the answer
 * @param nowMs the caller's clock reading, epoch milliseconds compared unsigned
 * @param operationId an optional caller operation id
 * @param contextMessages optional transcript messages to add before continuing
 */
public record ResumeCommand(
    String correlationId,
    String runId,
    String threadId,
    String snapshotId,
    String catalogFingerprint,
    ResumeResult result,
    long nowMs,
    Optional<String> operationId,
    List<JsonNode> contextMessages) {

  /** Validates presence and copies the message list. */
  public ResumeCommand {
    Objects.requireNonNull(correlationId, "correlationId");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(threadId, "threadId");
    Objects.requireNonNull(snapshotId, "snapshotId");
    Objects.requireNonNull(catalogFingerprint, "catalogFingerprint");
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(operationId, "operationId");
    contextMessages = List.copyOf(contextMessages);
  }

  /**
   * A command with the given identity, no operation id and no context messages.
   *
   * @param correlationId the correlation id
   * @param runId the Run
   * @param threadId the thread
   * @param snapshotId the snapshot
   * @param catalogFingerprint the fingerprint
   * @param result the answer
   * @param nowMs the caller's clock reading
   * @return the command
   */
  public static ResumeCommand of(String correlationId, String runId, String threadId,
      String snapshotId, String catalogFingerprint, ResumeResult result, long nowMs) {
    return new ResumeCommand(correlationId, runId, threadId, snapshotId, catalogFingerprint,
        result, nowMs, Optional.empty(), List.of());
  }

  /**
   * Copies every identity field from the ticket.
   *
   * @param ticket the committed ticket
   * @param result the answer
   * @param nowMs the caller's clock reading
   * @return the command
   */
  public static ResumeCommand fromTicket(ResumeTicket ticket, ResumeResult result, long nowMs) {
    return of(ticket.correlationId(), ticket.runId(), ticket.threadId(), ticket.snapshotId(),
        ticket.catalogFingerprint(), result, nowMs);
  }
}

package dev.horae.gate;

import java.util.Optional;

/**
 * The pure check of a resume command against a committed ticket, in the specification's order
 * (gate specification §6.2) with the result-kind matrix of §6.3.
 */
public final class ResumeValidation {

  private ResumeValidation() {}

  /**
   * Returns the first failing check, or empty when the command fits the ticket.
   *
   * @param ticket the committed ticket
   * @param command the command
   * @return the first error, if any
   */
  public static Optional<ResumeError> validate(ResumeTicket ticket, ResumeCommand command) {
    if (!ticket.correlationId().equals(command.correlationId())) {
      return err("correlationMismatch", "resume correlation does not match the ticket");
    }
    if (!ticket.runId().equals(command.runId())) {
      return err("runMismatch", "resume run id does not match the ticket");
    }
    if (!ticket.threadId().equals(command.threadId())) {
      return err("threadMismatch", "resume thread id does not match the ticket");
    }
    if (!ticket.snapshotId().equals(command.snapshotId())) {
      return err("snapshotMismatch", "resume snapshot id does not match the ticket");
    }
    if (!ticket.catalogFingerprint().equals(command.catalogFingerprint())) {
      return err("fingerprintMismatch", "resume catalog fingerprint does not match the ticket");
    }
    // deadlines and clock readings are unsigned 64-bit milliseconds; equality is still in time
    if (ticket.deadlineMs().isPresent()
        && Long.compareUnsigned(command.nowMs(), ticket.deadlineMs().getAsLong()) > 0) {
      return err("expired", "resume is past the ticket deadline");
    }
    if (!kindLegal(ticket.target(), command.result())) {
      return err("resultKindMismatch",
          "resume result kind is incompatible with the committed wait reason");
    }
    if (ticket.target() instanceof AwaitTarget.ToolCallTarget t
        && command.result() instanceof ResumeResult.ToolResult r) {
      if (!t.id().equals(r.output().callId())) {
        return err("toolCallMismatch", "tool result call id does not match the committed ticket");
      }
    }
    return Optional.empty();
  }

  /**
   * The result-kind matrix (§6.3): which answers a committed target accepts.
   *
   * @param target the committed target
   * @param result the answer
   * @return whether the answer's kind is legal for the target
   */
  public static boolean kindLegal(AwaitTarget target, ResumeResult result) {
    if (target instanceof AwaitTarget.ToolCallTarget t) {
      return switch (t.kind()) {
        case PERMISSION, SCHEDULED_ACTION -> result instanceof ResumeResult.Permission;
        case CLIENT_EXECUTION -> result instanceof ResumeResult.ToolResult;
        case DELEGATION ->
            result instanceof ResumeResult.Input || result instanceof ResumeResult.ToolResult;
      };
    }
    // remote input and pauses take free-form input only
    return result instanceof ResumeResult.Input;
  }

  private static Optional<ResumeError> err(String code, String message) {
    return Optional.of(new ResumeError(code, message));
  }
}

package dev.horae.gate;

import java.util.Objects;

/**
 * Why a resume command does not fit a ticket (gate specification §6.2).
 *
 * @param code the stable code, e.g. {@code correlationMismatch}
 * @param message the exact message text
 */
public record ResumeError(String code, String message) {
  /** Rejects missing parts. */
  public ResumeError {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }
}

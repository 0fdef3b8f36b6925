package dev.horae.gate.runtime;

import dev.horae.gate.ResumeCommand;
import java.util.Objects;

/**
 * A resume command waiting in the dispatch inbox (gate specification §12.5.4).
 *
 * @param id its inbox id, increasing in submission order
 * @param command the command
 */
public record PendingResume(long id, ResumeCommand command) {
  /** Rejects a missing command. */
  public PendingResume {
    Objects.requireNonNull(command, "command");
  }
}

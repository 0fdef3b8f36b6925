package dev.horae.spi.jobs;

import java.util.Objects;

/**
 * The result of a {@code read}: the text and the snapshot taken after the read.
 *
 * @param text new stream output, or the final output of a terminal final-output job; may be empty
 * @param snapshot the record after the read
 */
public record JobRead(String text, JobSnapshot snapshot) {

  /** Checks presence of both members. */
  public JobRead {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(snapshot, "snapshot");
  }
}

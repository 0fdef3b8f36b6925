package dev.horae.spi.jobs;

import java.util.Locale;

/** The five statuses of a background job (jobs spec §2.2); wire names are lower case. */
public enum JobStatus {
  /** Work is in progress. */
  RUNNING,
  /** Cancellation was requested; the producer has not settled yet. */
  STOPPING,
  /** The producer finished on its own (whatever its exit value). */
  COMPLETED,
  /** The work was stopped by a cancellation or a signal. */
  KILLED,
  /** The producer failed or its cancellation threw during teardown. */
  FAILED;

  /**
   * Returns the wire name ({@code running}, {@code stopping}, ...).
   *
   * @return the lower-case name used in texts and JSON
   */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Says whether the status is terminal.
   *
   * @return true for {@code completed}, {@code killed} and {@code failed}
   */
  public boolean isTerminal() {
    return this == COMPLETED || this == KILLED || this == FAILED;
  }

  /**
   * Parses a wire name.
   *
   * @param wire a lower-case status name
   * @return the status
   * @throws IllegalArgumentException when {@code wire} names no status
   */
  public static JobStatus fromWire(String wire) {
    for (JobStatus status : values()) {
      if (status.wire().equals(wire)) {
        return status;
      }
    }
    throw new IllegalArgumentException("unknown job status \"" + wire + "\"");
  }
}

package dev.horae.gate.runtime;

/** Where a dispatch record stands (gate specification §12.5.1). */
public enum DispatchStatus {
  /** Claimable once its {@code availableAtMs} has passed. */
  PENDING,
  /** Claimed by an owner under a lease. */
  RUNNING,
  /** Settled while the Run awaits an answer; a resume command or the outbox makes it pending. */
  AWAITING
}

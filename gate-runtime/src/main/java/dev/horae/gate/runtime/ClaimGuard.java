package dev.horae.gate.runtime;

import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * What a dispatched attempt carries into the runtime (gate specification §12.5.3): the fence every
 * commit of the attempt is conditioned on, and the ownership check made before the executor is
 * entered for a call.
 *
 * @param fence the dispatch claim every commit must still hold
 * @param ownsExecution true while the claim's epoch is current and its lease has not lapsed on the
 *     dispatcher's clock
 */
public record ClaimGuard(LeaseFence fence, BooleanSupplier ownsExecution) {

  /** Rejects missing parts. */
  public ClaimGuard {
    Objects.requireNonNull(fence, "fence");
    Objects.requireNonNull(ownsExecution, "ownsExecution");
  }

  /**
   * The text an attempt aborts with when it no longer owns its Run (LEASE-06).
   *
   * @param runId the Run
   * @return the message
   */
  public static String lostOwnership(String runId) {
    return "dispatch claim for run " + runId + " no longer owns external execution";
  }
}

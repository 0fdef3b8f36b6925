package dev.horae.gate.runtime;

/**
 * The durable dispatcher's options (gate specification §12.5.8).
 *
 * @param leaseMs the claim lease; positive
 * @param renewIntervalMs how often a held claim is renewed; 0 disables renewal
 * @param pollIntervalMs how long an idle dispatcher waits for a wake hint before claiming again;
 *     positive
 * @param maxRecoveryAttempts recovery claims before a Run ends indeterminate; not negative
 * @param reconcileIntervalMs how often committed scheduled-action tickets are reconciled; positive
 * @param workers concurrent claims per dispatcher; positive
 */
public record DispatcherOptions(long leaseMs, long renewIntervalMs, long pollIntervalMs,
    int maxRecoveryAttempts, long reconcileIntervalMs, int workers) {

  /**
   * Validates the options.
   *
   * @throws IllegalArgumentException when a value is out of range
   */
  public DispatcherOptions {
    if (leaseMs <= 0 || renewIntervalMs < 0 || pollIntervalMs <= 0 || maxRecoveryAttempts < 0
        || reconcileIntervalMs <= 0 || workers <= 0) {
      throw new IllegalArgumentException("dispatcher options out of range: leaseMs, pollIntervalMs, "
          + "reconcileIntervalMs and workers must be positive, renewIntervalMs and maxRecoveryAttempts "
          + "not negative");
    }
  }

  /**
   * The §12.5.8 defaults: lease 30000 ms renewed every 10000 ms, poll 1000 ms, 5 recovery
   * attempts, reconciliation every 60000 ms, one worker.
   *
   * @return the defaults
   */
  public static DispatcherOptions defaults() {
    return withLease(30_000);
  }

  /**
   * The defaults with another lease, renewed every third of it (§15 D-10).
   *
   * @param leaseMs the lease
   * @return the options
   */
  public static DispatcherOptions withLease(long leaseMs) {
    return new DispatcherOptions(leaseMs, leaseMs / 3, 1_000, 5, 60_000, 1);
  }

  /**
   * A copy with another renewal interval.
   *
   * @param ms the interval; 0 disables renewal
   * @return the copy
   */
  public DispatcherOptions renewingEvery(long ms) {
    return new DispatcherOptions(leaseMs, ms, pollIntervalMs, maxRecoveryAttempts, reconcileIntervalMs, workers);
  }

  /**
   * A copy with another poll interval.
   *
   * @param ms the interval
   * @return the copy
   */
  public DispatcherOptions pollingEvery(long ms) {
    return new DispatcherOptions(leaseMs, renewIntervalMs, ms, maxRecoveryAttempts, reconcileIntervalMs, workers);
  }

  /**
   * A copy with another retry budget.
   *
   * @param n recovery attempts
   * @return the copy
   */
  public DispatcherOptions recoveringAtMost(int n) {
    return new DispatcherOptions(leaseMs, renewIntervalMs, pollIntervalMs, n, reconcileIntervalMs, workers);
  }

  /**
   * A copy with another reconciliation interval.
   *
   * @param ms the interval
   * @return the copy
   */
  public DispatcherOptions reconcilingEvery(long ms) {
    return new DispatcherOptions(leaseMs, renewIntervalMs, pollIntervalMs, maxRecoveryAttempts, ms, workers);
  }

  /**
   * A copy with another worker count.
   *
   * @param n concurrent claims
   * @return the copy
   */
  public DispatcherOptions withWorkers(int n) {
    return new DispatcherOptions(leaseMs, renewIntervalMs, pollIntervalMs, maxRecoveryAttempts, reconcileIntervalMs, n);
  }
}

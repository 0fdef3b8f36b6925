package dev.horae.gate.runtime;

import dev.horae.spi.AbortSignal;
import java.util.Objects;
import java.util.Optional;

/**
 * Per-operation context (gate specification §13): the commit store (absent → nothing persisted,
 * so a parked ticket is an uncommitted candidate that no perform can wake), the cancellation
 * signal, the per-Run permission policy or narrowing, the deadline policy and the caller's clock
 * reading used for deadlines.
 *
 * @param store the commit store, if any
 * @param cancellation the Run's cancellation signal
 * @param policy the per-Run permission policy or narrowing, if any
 * @param awaitDeadlinePolicy deadlines for committed tickets
 * @param nowMs the caller's clock reading (epoch milliseconds) for deadline decisions
 */
public record RunContext(
    Optional<CommitStore> store,
    AbortSignal cancellation,
    Optional<PermissionPolicy> policy,
    AwaitDeadlinePolicy awaitDeadlinePolicy,
    long nowMs) {

  /** Rejects missing parts. */
  public RunContext {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(cancellation, "cancellation");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(awaitDeadlinePolicy, "awaitDeadlinePolicy");
  }

  /**
   * A context committing to {@code store}, never cancelled, without policy or deadlines.
   *
   * @param store the commit store
   * @return the context
   */
  public static RunContext of(CommitStore store) {
    return new RunContext(Optional.of(store), AbortSignal.never(), Optional.empty(),
        AwaitDeadlinePolicy.none(), 0L);
  }

  /**
   * A context without a commit store: nothing is persisted.
   *
   * @return the context
   */
  public static RunContext uncommitted() {
    return new RunContext(Optional.empty(), AbortSignal.never(), Optional.empty(),
        AwaitDeadlinePolicy.none(), 0L);
  }

  /**
   * A copy with a cancellation signal.
   *
   * @param signal the signal
   * @return the copy
   */
  public RunContext withCancellation(AbortSignal signal) {
    return new RunContext(store, signal, policy, awaitDeadlinePolicy, nowMs);
  }

  /**
   * A copy with a per-Run policy or narrowing.
   *
   * @param p the policy
   * @return the copy
   */
  public RunContext withPolicy(PermissionPolicy p) {
    return new RunContext(store, cancellation, Optional.of(p), awaitDeadlinePolicy, nowMs);
  }

  /**
   * A copy with a deadline policy.
   *
   * @param p the policy
   * @return the copy
   */
  public RunContext withDeadlinePolicy(AwaitDeadlinePolicy p) {
    return new RunContext(store, cancellation, policy, p, nowMs);
  }

  /**
   * A copy with another clock reading.
   *
   * @param now epoch milliseconds
   * @return the copy
   */
  public RunContext at(long now) {
    return new RunContext(store, cancellation, policy, awaitDeadlinePolicy, now);
  }
}

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
 * @param claim the dispatch claim of a dispatched attempt (§12.5.3): its fence conditions every
 *     commit, its ownership check guards every executor entry; empty outside a dispatcher
 */
public record RunContext(
    Optional<CommitStore> store,
    AbortSignal cancellation,
    Optional<PermissionPolicy> policy,
    AwaitDeadlinePolicy awaitDeadlinePolicy,
    long nowMs,
    Optional<ClaimGuard> claim) {

  /** Rejects missing parts. */
  public RunContext {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(cancellation, "cancellation");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(awaitDeadlinePolicy, "awaitDeadlinePolicy");
    Objects.requireNonNull(claim, "claim");
  }

  /**
   * A context committing to {@code store}, never cancelled, without policy or deadlines.
   *
   * @param store the commit store
   * @return the context
   */
  public static RunContext of(CommitStore store) {
    return new RunContext(Optional.of(store), AbortSignal.never(), Optional.empty(),
        AwaitDeadlinePolicy.none(), 0L, Optional.empty());
  }

  /**
   * A context without a commit store: nothing is persisted.
   *
   * @return the context
   */
  public static RunContext uncommitted() {
    return new RunContext(Optional.empty(), AbortSignal.never(), Optional.empty(),
        AwaitDeadlinePolicy.none(), 0L, Optional.empty());
  }

  /**
   * A copy with a cancellation signal.
   *
   * @param signal the signal
   * @return the copy
   */
  public RunContext withCancellation(AbortSignal signal) {
    return new RunContext(store, signal, policy, awaitDeadlinePolicy, nowMs, claim);
  }

  /**
   * A copy with a per-Run policy or narrowing.
   *
   * @param p the policy
   * @return the copy
   */
  public RunContext withPolicy(PermissionPolicy p) {
    return new RunContext(store, cancellation, Optional.of(p), awaitDeadlinePolicy, nowMs, claim);
  }

  /**
   * A copy with a deadline policy.
   *
   * @param p the policy
   * @return the copy
   */
  public RunContext withDeadlinePolicy(AwaitDeadlinePolicy p) {
    return new RunContext(store, cancellation, policy, p, nowMs, claim);
  }

  /**
   * A copy with another clock reading.
   *
   * @param now epoch milliseconds
   * @return the copy
   */
  public RunContext at(long now) {
    return new RunContext(store, cancellation, policy, awaitDeadlinePolicy, now, claim);
  }

  /**
   * A copy for a dispatched attempt holding {@code guard}.
   *
   * @param guard the claim's fence and ownership check
   * @return the copy
   */
  public RunContext withClaim(ClaimGuard guard) {
    return new RunContext(store, cancellation, policy, awaitDeadlinePolicy, nowMs, Optional.of(guard));
  }

  /**
   * The commit conditions of a transition from {@code head}: a compare-and-append on the Run's
   * head, fenced when the context holds a dispatch claim.
   *
   * @param head the expected run head
   * @return the conditions
   */
  CommitConditions conditions(long head) {
    return new CommitConditions(java.util.OptionalLong.of(head), claim.map(ClaimGuard::fence));
  }
}

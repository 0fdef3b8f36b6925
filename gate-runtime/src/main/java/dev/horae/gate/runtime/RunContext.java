package dev.horae.gate.runtime;

import dev.horae.spi.AbortSignal;
import java.util.Objects;
import java.util.Optional;

/**
 * Per-operation context a {@link DispatchTarget} receives (gate specification §13): the commit
 * store every commit of the operation goes through (the dispatch queue's, where the outbox and the
 * fence live), the cancellation signal and the caller's clock reading used for deadlines.
 *
 * @param store the commit store
 * @param cancellation the Run's cancellation signal
 * @param nowMs the caller's clock reading (epoch milliseconds) for deadline decisions
 * @param claim the dispatch claim of a dispatched attempt (§12.5.3): its fence conditions every
 *     commit, its ownership check guards every executor entry; empty outside a dispatcher
 */
public record RunContext(
    CommitStore store,
    AbortSignal cancellation,
    long nowMs,
    Optional<ClaimGuard> claim) {

  /** Rejects missing parts. */
  public RunContext {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(cancellation, "cancellation");
    Objects.requireNonNull(claim, "claim");
  }

  /**
   * A context committing to {@code store}, never cancelled, at time 0.
   *
   * @param store the commit store
   * @return the context
   */
  public static RunContext of(CommitStore store) {
    return new RunContext(store, AbortSignal.never(), 0L, Optional.empty());
  }

  /**
   * A copy with a cancellation signal.
   *
   * @param signal the signal
   * @return the copy
   */
  public RunContext withCancellation(AbortSignal signal) {
    return new RunContext(store, signal, nowMs, claim);
  }

  /**
   * A copy with another clock reading.
   *
   * @param now epoch milliseconds
   * @return the copy
   */
  public RunContext at(long now) {
    return new RunContext(store, cancellation, now, claim);
  }

  /**
   * A copy for a dispatched attempt holding {@code guard}.
   *
   * @param guard the claim's fence and ownership check
   * @return the copy
   */
  public RunContext withClaim(ClaimGuard guard) {
    return new RunContext(store, cancellation, nowMs, Optional.of(guard));
  }
}

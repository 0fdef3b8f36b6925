package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.ResumeCommand;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The queue logic shared by the in-memory and session-log backends: every operation plans its
 * dispatch facts from the {@link DispatchTable}, has the backend write them, then applies them,
 * all under one lock — the lock the paired commit store also holds across its fence check,
 * append and outbox, so the outbox is atomic with the commit.
 */
abstract class FactDispatchQueue implements DispatchQueue {

  private final Object lock = new Object();
  private final DispatchTable table = new DispatchTable();

  /** Writes facts about one thread's Runs atomically; callers hold the lock. */
  abstract void write(String threadId, List<ObjectNode> facts);

  /** Brings the table up to date with facts written elsewhere for the thread; callers hold the lock. */
  void catchUp(String threadId) {}

  /** Applies replayed facts; callers hold the lock. */
  final void replay(ObjectNode fact) {
    table.apply(fact);
  }

  private void land(String threadId, List<ObjectNode> facts) {
    if (facts.isEmpty()) {
      return;
    }
    write(threadId, facts);
    facts.forEach(table::apply);
  }

  // the paired store's view of this queue: a separate object, so the commit step's methods are
  // no public members of a queue
  private final LogCommitStore.DispatchHook hook = new LogCommitStore.DispatchHook() {
    @Override
    public Object lock() {
      return lock;
    }

    @Override
    public boolean admits(LeaseFence fence, ThreadCommit commit) {
      catchUp(commit.threadId());
      return table.record(fence.runId())
          .map(r -> r.admits(fence, commit.run().runId(), commit.threadId())).orElse(false);
    }

    @Override
    public List<ObjectNode> outbox(ThreadCommit commit) {
      catchUp(commit.threadId());
      return table.planOutbox(commit);
    }

    @Override
    public void applied(String threadId, List<ObjectNode> facts, long logEnd) {
      facts.forEach(table::apply);
      landed(threadId, logEnd);
    }
  };

  /** What the paired commit store attaches. */
  final LogCommitStore.DispatchHook hook() {
    return hook;
  }

  /** The lock every operation and the paired store's commit step hold. */
  final Object lock() {
    return lock;
  }

  /** A commit's facts landed, the thread's log ending at {@code logEnd}; callers hold the lock. */
  void landed(String threadId, long logEnd) {}

  @Override
  public final Optional<DispatchClaim> claim(String owner, long leaseMs, long nowMs, int maxRecoveryAttempts) {
    return claim(owner, leaseMs, nowMs, maxRecoveryAttempts, false);
  }

  @Override
  public final Optional<DispatchClaim> claimRetryExhausted(
      String owner, long leaseMs, int maxRecoveryAttempts, long nowMs) {
    return claim(owner, leaseMs, nowMs, maxRecoveryAttempts, true);
  }

  private Optional<DispatchClaim> claim(String owner, long leaseMs, long nowMs, int max, boolean exhausted) {
    synchronized (lock) {
      Optional<ObjectNode> fact = table.planClaim(owner, nowMs, max, exhausted);
      if (fact.isEmpty()) {
        return Optional.empty();
      }
      String runId = fact.get().path("runId").asText();
      land(fact.get().path("threadId").asText(), List.of(fact.get()));
      table.lease(runId, nowMs + leaseMs);
      return Optional.of(table.claimOf(fact.get()));
    }
  }

  @Override
  public final boolean renew(DispatchClaim claim, long leaseMs, long nowMs) {
    synchronized (lock) {
      catchUp(claim.threadId());
      if (!table.current(claim)) {
        return false;
      }
      // renewals are not facts (§12.5.6): only this live process needs the lease
      table.lease(claim.runId(), nowMs + leaseMs);
      return true;
    }
  }

  @Override
  public final SettleResult settle(DispatchClaim claim, Settlement settlement, Collection<Long> consumed) {
    synchronized (lock) {
      catchUp(claim.threadId());
      if (!table.current(claim)) {
        return SettleResult.FENCED;
      }
      land(claim.threadId(), table.planSettle(claim, settlement, consumed));
      return SettleResult.SETTLED;
    }
  }

  @Override
  public final boolean submit(RunActivation activation, long availableAtMs) {
    synchronized (lock) {
      catchUp(activation.threadId());
      if (table.has(activation.runId())) {
        return false;
      }
      land(activation.threadId(), List.of(DispatchTable.enqueue(activation.runId(), activation.threadId(),
          availableAtMs, Optional.of(activation))));
      return true;
    }
  }

  @Override
  public final long submitResume(ResumeCommand command, long nowMs) {
    synchronized (lock) {
      catchUp(command.threadId());
      ObjectNode fact = table.planResume(command, nowMs);
      land(command.threadId(), List.of(fact));
      return fact.path("id").asLong();
    }
  }

  @Override
  public final void cancel(String runId, String threadId, long nowMs) {
    synchronized (lock) {
      catchUp(threadId);
      land(threadId, List.of(DispatchTable.planCancel(runId, threadId, nowMs)));
    }
  }

  @Override
  public final boolean reconcile(String runId, String threadId, long nowMs) {
    synchronized (lock) {
      catchUp(threadId);
      if (table.has(runId)) {
        return false;
      }
      land(threadId, List.of(DispatchTable.enqueue(runId, threadId, nowMs, Optional.empty())));
      return true;
    }
  }

  @Override
  public final Optional<DispatchRecord> record(String runId) {
    synchronized (lock) {
      return table.record(runId);
    }
  }

  @Override
  public final List<PendingResume> resumes(String runId) {
    synchronized (lock) {
      return table.resumes(runId);
    }
  }
}

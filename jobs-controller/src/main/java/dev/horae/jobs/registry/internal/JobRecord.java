package dev.horae.jobs.registry.internal;

import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobHooks;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * One job's mutable state inside the local registry. Every field is guarded by the registry lock;
 * {@link #snapshot()} is the only way state leaves it.
 */
public final class JobRecord {

  /** A notice registered for withdrawal (§2.10). */
  public record Notice(Agent owner, String messageId) {}

  /** The id. */
  public final JobId id;
  /** The kind. */
  public final String kind;
  /** The label. */
  public final String label;
  /** The producer cap. */
  public final OptionalLong outputLimitBytes;
  /** The exact owner object given at start. */
  public final Optional<Agent> owner;
  /** The producer hooks. */
  public final JobHooks hooks;
  /** Epoch milliseconds at registration. */
  public final long startedAt;
  /** Completes after settlement; teardown awaits it. */
  public final CompletableFuture<Void> settledSignal = new CompletableFuture<>();

  /** Current status. */
  public JobStatus status = JobStatus.RUNNING;
  /** Producer detail, from settlement on. */
  public Optional<String> detail = Optional.empty();
  /** Final output of a final-output job. */
  public Optional<String> output = Optional.empty();
  /** Epoch milliseconds at settlement. */
  public OptionalLong finishedAt = OptionalLong.empty();
  /** The reported bit; never cleared once set. */
  public boolean reported;
  /** True once the settlement's critical section ran. */
  public boolean settled;
  /** Live waiters. */
  public final List<Waiter> waiters = new ArrayList<>();
  /** Delivered, not yet withdrawn notices. */
  public final List<Notice> notices = new ArrayList<>();

  /**
   * Creates a running record.
   *
   * @param id the id
   * @param kind the kind
   * @param label the label
   * @param outputLimitBytes the cap
   * @param owner the owner
   * @param hooks the hooks
   * @param startedAt epoch milliseconds
   */
  public JobRecord(
      JobId id,
      String kind,
      String label,
      OptionalLong outputLimitBytes,
      Optional<Agent> owner,
      JobHooks hooks,
      long startedAt) {
    this.id = id;
    this.kind = kind;
    this.label = label;
    this.outputLimitBytes = outputLimitBytes;
    this.owner = owner;
    this.hooks = hooks;
    this.startedAt = startedAt;
  }

  /**
   * Says whether the record is live ({@code running} or {@code stopping}).
   *
   * @return true while not terminal
   */
  public boolean live() {
    return !status.isTerminal();
  }

  /**
   * Says whether {@code agent} is this record's exact owner object.
   *
   * @param agent an agent
   * @return identity equality with the owner
   */
  public boolean ownedBy(Agent agent) {
    return owner.isPresent() && owner.get() == agent;
  }

  /**
   * Marks the record reported and takes the notices that must now be withdrawn.
   *
   * @return notices to withdraw outside the lock; empty unless the job is terminal
   */
  public List<Notice> markReported() {
    reported = true;
    if (!status.isTerminal() || notices.isEmpty()) {
      return List.of();
    }
    List<Notice> taken = List.copyOf(notices);
    notices.clear();
    return taken;
  }

  /**
   * Takes an immutable snapshot.
   *
   * @return the snapshot
   */
  public JobSnapshot snapshot() {
    return new JobSnapshot(
        id,
        kind,
        label,
        outputLimitBytes,
        owner.map(Agent::id),
        status,
        detail,
        startedAt,
        finishedAt,
        reported);
  }
}

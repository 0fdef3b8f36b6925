package dev.horae.jobs.registry.internal;

import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobsException;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Optional;

/**
 * Per-owner admission (jobs spec §2.5): live records of the same owner object plus reservations
 * of starts whose producer is still running; all unowned jobs share one bucket. Not thread-safe:
 * the registry calls it under its lock.
 */
public final class Admission {

  private final long limit;
  private final IdentityHashMap<Agent, Integer> reservations = new IdentityHashMap<>();
  private int unownedReservations;

  /**
   * Creates the counter.
   *
   * @param limit {@code maxConcurrentJobsPerOwner}
   */
  public Admission(long limit) {
    this.limit = limit;
  }

  /**
   * Reserves a slot, or refuses when the owner's bucket is full.
   *
   * @param owner the owner object, or empty for the unowned bucket
   * @param records every current record
   * @throws JobsException {@code admission_limit}
   */
  public void reserve(Optional<Agent> owner, Collection<JobRecord> records) {
    long count = owner.isPresent() ? reservations.getOrDefault(owner.get(), 0) : unownedReservations;
    for (JobRecord r : records) {
      boolean sameBucket = owner.isPresent() ? r.ownedBy(owner.get()) : r.owner.isEmpty();
      if (sameBucket && r.live()) {
        count++;
      }
    }
    if (count >= limit) {
      throw new JobsException(
          JobsException.ADMISSION_LIMIT,
          "background job limit reached for this owner (limit: "
              + limit
              + "); use job_kill to stop an unneeded job, wait for it to finish, then retry");
    }
    if (owner.isEmpty()) {
      unownedReservations++;
    } else {
      reservations.merge(owner.get(), 1, Integer::sum);
    }
  }

  /**
   * Drops a reservation: its record is now stored (and counts itself) or its producer threw.
   *
   * @param owner the owner object, or empty
   */
  public void release(Optional<Agent> owner) {
    if (owner.isEmpty()) {
      unownedReservations--;
      return;
    }
    reservations.computeIfPresent(owner.get(), (k, v) -> v <= 1 ? null : v - 1);
  }
}

package dev.horae.spi.jobs;

import dev.horae.spi.agent.Agent;
import java.util.Optional;

/**
 * Observes changes of an owner's visible job set (jobs spec §2.12): registration, every {@code
 * stopping} transition, settlement, owner-disposal removal and service-disposal emptying. It
 * carries no delivery meaning. Must be thread-safe; exceptions are contained and logged.
 */
@FunctionalInterface
public interface JobsChangedObserver {

  /**
   * The visible set of {@code owner} changed.
   *
   * @param owner the owner whose set changed; empty for an unowned job
   */
  void onJobsChanged(Optional<Agent> owner);
}

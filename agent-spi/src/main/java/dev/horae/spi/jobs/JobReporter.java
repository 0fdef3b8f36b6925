package dev.horae.spi.jobs;

import dev.horae.spi.agent.Agent;
import java.util.Optional;

/**
 * The completion reporter of an attached controller (jobs spec §2.12, §2.14). The registry routes
 * each settlement to exactly one reporter, the nearest on the owner's scope chain. Called outside
 * the registry lock on the settlement executor; an exception is contained and logged.
 */
@FunctionalInterface
public interface JobReporter {

  /**
   * Reports a settlement routed to this controller.
   *
   * @param snapshot the committed terminal record; {@code reported} says whether a notice is due
   * @param owner the exact owner object given at start; empty for an unowned job
   */
  void report(JobSnapshot snapshot, Optional<Agent> owner);
}

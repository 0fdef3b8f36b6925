package dev.horae.jobs.registry.internal;

import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.jobs.JobHooks;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.spi.plugin.Scope;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code start} (jobs spec §2.4, §2.5): the preflight in the spec's order — a serving controller,
 * kind, label, output limit, a live owner, admission — then the producer runs outside the lock on
 * a reserved slot, and the record is registered under the next id of its kind unless the service
 * began closing meanwhile (the fresh work is then cancelled).
 *
 * @param store the registry state
 * @param admission the per-owner admission counter
 * @param agents the agent registry owned starts are checked against, if the host has one
 * @param wallClock the injected wall clock (start times)
 * @param settlement where a producer's completion goes
 * @param teardown where an owner's disposal hook is attached
 */
public record Starts(
    RecordStore store,
    Admission admission,
    Optional<AgentRegistry> agents,
    InstantSource wallClock,
    Settlement settlement,
    Teardown teardown) {

  /**
   * Starts a job.
   *
   * @param start the request
   * @return the new job's id
   * @throws JobsException the first preflight rule the request breaks, or {@code service_closed}
   * @throws RuntimeException whatever the producer threw (no record is kept)
   */
  public JobId start(JobStart start) {
    Optional<Agent> owner = start.owner();
    List<Scope> chain = store.chainOf(owner);
    synchronized (store.lock()) {
      if (!store.routing().serves(chain, owner.isPresent())) {
        throw new JobsException(
            JobsException.CONTROLLER_UNAVAILABLE,
            "background jobs unavailable: no job controller serves this agent (load the tool-jobs"
                + " controller in its composition)");
      }
    }
    if (start.kind().isEmpty()) {
      throw new JobsException(
          JobsException.INVALID_KIND, "invalid job kind: expected a non-empty string");
    }
    if (start.label().isEmpty()) {
      throw new JobsException(
          JobsException.INVALID_LABEL, "invalid job label: expected a non-empty string");
    }
    OptionalLong limit = start.outputLimitBytes();
    if (limit.isPresent()
        && (limit.getAsLong() < 1 || limit.getAsLong() > EcmaNumbers.MAX_SAFE_INTEGER)) {
      throw new JobsException(
          JobsException.INVALID_OUTPUT_LIMIT,
          "invalid outputLimitBytes: expected a positive safe integer, got " + limit.getAsLong());
    }
    if (owner.isPresent()) {
      checkLive(owner.get());
    }
    if (reserve(owner)) {
      teardown.attachOwnerCleanup(owner.get());
    }
    JobHooks hooks;
    try {
      hooks = start.producer().run();
    } catch (RuntimeException | Error e) {
      synchronized (store.lock()) {
        admission.release(owner);
      }
      throw e;
    }
    JobRecord record;
    synchronized (store.lock()) {
      admission.release(owner);
      if (!store.closingLocked()) {
        record =
            new JobRecord(
                store.nextIdLocked(start.kind()),
                start.kind(),
                start.label(),
                limit,
                owner,
                hooks,
                wallClock.millis());
        store.records().put(record.id, record);
      } else {
        record = null;
      }
    }
    if (record == null) {
      hooks.canceller().cancel(Optional.of("jobs service disposed"));
      throw RecordStore.closedFailure();
    }
    JobRecord registered = record;
    hooks.done().whenComplete((outcome, failure) -> settlement.submit(registered, outcome, failure));
    store.publishChange(owner);
    return registered.id;
  }

  private void checkLive(Agent owner) {
    if (agents.isEmpty()) {
      throw new JobsException(
          JobsException.OWNER_REGISTRY_MISSING,
          "background job ownership requires the agent registry (the host provides none)");
    }
    Optional<Agent> current = agents.get().get(owner.id());
    if (current.isEmpty() || current.get() != owner) {
      throw new JobsException(
          JobsException.OWNER_NOT_LIVE,
          "agent \""
              + owner.id()
              + "\" is not the registered agent instance (background job owner must be live)");
    }
  }

  /** Reserves an admission slot; returns true when the owner cleanup must be attached. */
  private boolean reserve(Optional<Agent> owner) {
    synchronized (store.lock()) {
      if (store.closingLocked()) {
        throw RecordStore.closedFailure();
      }
      admission.reserve(owner, store.records().values());
      return owner.isPresent() && teardown.claimOwnerCleanupLocked(owner.get());
    }
  }
}

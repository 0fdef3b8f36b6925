package dev.horae.jobs.registry.internal;

import dev.horae.jobs.errors.internal.Errors;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobsChangedObserver;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.jobs.ScopeChain;
import dev.horae.spi.plugin.Scope;
import dev.horae.spi.plugin.WarningSink;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The registry's shared state under its one lock (jobs spec §2.16): the records in registration
 * order, the id ordinals per kind, the routing layers and the closing flag, with the session fence of §2.6 and the change
 * notification every transition ends with. The other registry classes work on this one object, so
 * that one lock still serialises every state transition.
 */
public final class RecordStore {

  private final Object lock = new Object();
  private final WarningSink warnings;
  private final ScopeChain scopeChain;
  private final Callbacks callbacks;

  // guarded by lock
  private final Map<JobId, JobRecord> records = new LinkedHashMap<>();
  private final Routing routing = new Routing();
  private final Map<String, Long> lastOrdinals = new HashMap<>();
  private boolean closing;

  /**
   * Creates the empty store.
   *
   * @param warnings where contained failures go
   * @param scopeChain resolves an owner's scope chain for routing
   */
  public RecordStore(WarningSink warnings, ScopeChain scopeChain) {
    this.warnings = warnings;
    this.scopeChain = scopeChain;
    this.callbacks = new Callbacks(warnings);
  }

  /**
   * The one lock every state transition holds.
   *
   * @return the lock
   */
  public Object lock() {
    return lock;
  }

  /**
   * The records by id, in registration order; guarded by {@link #lock()}.
   *
   * @return the live map
   */
  public Map<JobId, JobRecord> records() {
    return records;
  }

  /**
   * The next id of a kind ({@code <kind>-<N>}, §2.2): ordinals count from 1 per kind and are
   * never reused. Guarded by {@link #lock()}.
   *
   * @param kind the job kind
   * @return the fresh id
   */
  public JobId nextIdLocked(String kind) {
    return JobId.of(kind, lastOrdinals.merge(kind, 1L, Long::sum));
  }

  /**
   * The registration layers; guarded by {@link #lock()}.
   *
   * @return the routing
   */
  public Routing routing() {
    return routing;
  }

  /**
   * The contained calls out of the registry; always called outside the lock.
   *
   * @return the callbacks
   */
  public Callbacks callbacks() {
    return callbacks;
  }

  /**
   * The host's warning sink.
   *
   * @return the sink
   */
  public WarningSink warnings() {
    return warnings;
  }

  /**
   * Says whether the service is closing; guarded by {@link #lock()}.
   *
   * @return true once {@code closeAsync} began
   */
  public boolean closingLocked() {
    return closing;
  }

  /** Marks the service closing; guarded by {@link #lock()}. */
  public void markClosingLocked() {
    closing = true;
  }

  /**
   * The routing chain of an owner; an unowned job has none.
   *
   * @param owner the owner, or empty
   * @return the scope chain, farthest first
   */
  public List<Scope> chainOf(Optional<Agent> owner) {
    return owner.isPresent() ? scopeChain.of(owner.get()) : List.of();
  }

  /**
   * Finds a record the caller may see (§2.6); guarded by {@link #lock()}.
   *
   * @param id the id
   * @param caller the calling agent, or empty for host code
   * @return the record
   * @throws JobsException {@code unknown_job} or {@code foreign_job}
   */
  public JobRecord lookupLocked(JobId id, Optional<Agent> caller) {
    JobRecord r = records.get(id);
    if (r == null) {
      throw new JobsException(
          JobsException.UNKNOWN_JOB, "unknown job " + Errors.echoedId(id.value()));
    }
    if (!visible(r, caller)) {
      throw new JobsException(
          JobsException.FOREIGN_JOB, "job " + id.value() + " belongs to another session");
    }
    return r;
  }

  /**
   * The session fence (§2.6): unowned records are visible to everyone, owned ones to callers of
   * the owner's session id.
   *
   * @param r the record
   * @param caller the calling agent, or empty for host code
   * @return true when the caller may see the record
   */
  public static boolean visible(JobRecord r, Optional<Agent> caller) {
    return r.owner.isEmpty()
        || (caller.isPresent() && r.owner.get().id().equals(caller.get().id()));
  }

  /**
   * Tells the change observers that reach an owner that its visible set changed; takes the lock
   * to read the routing, calls the observers outside it.
   *
   * @param owner the owner, or empty for an unowned job
   */
  public void publishChange(Optional<Agent> owner) {
    List<Scope> chain = chainOf(owner);
    List<JobsChangedObserver> observers;
    synchronized (lock) {
      observers = routing.observers(chain, owner.isPresent());
    }
    callbacks.changed(observers, owner);
  }

  /**
   * The failure of an operation on a closed service.
   *
   * @return {@code service_closed}
   */
  public static JobsException closedFailure() {
    return new JobsException(JobsException.SERVICE_CLOSED, "jobs service is closed");
  }
}

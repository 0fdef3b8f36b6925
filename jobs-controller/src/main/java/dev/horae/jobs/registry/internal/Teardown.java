package dev.horae.jobs.registry.internal;

import dev.horae.jobs.errors.internal.Errors;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * Teardown (jobs spec §2.13): an owner's disposal cancels its live jobs, awaits their settlement
 * and then drops its records; closing the service does the same for every record, suppresses the
 * reports of settlements it causes, and finally removes the owner-disposal hooks. A cancel that
 * throws during teardown forces the record failed with a warning, since the work may be orphaned.
 */
public final class Teardown {

  private final RecordStore store;
  private final Settlement settlement;
  private final Runnable afterClose;

  // guarded by the store lock
  private final IdentityHashMap<Agent, Registration> ownerCleanups = new IdentityHashMap<>();
  private @Nullable CompletableFuture<Void> closed;

  /**
   * Creates the teardown of one registry.
   *
   * @param store the registry state
   * @param settlement where forced failures settle
   * @param ownedExecutor the settlement thread the registry owns, shut down once closed
   */
  public Teardown(
      RecordStore store, Settlement settlement, Optional<ExecutorService> ownedExecutor) {
    this.store = store;
    this.settlement = settlement;
    this.afterClose = () -> ownedExecutor.ifPresent(ExecutorService::shutdown);
  }

  /**
   * Claims the right to attach an owner's disposal hook; the first start of an owner wins.
   * Guarded by the store lock.
   *
   * @param owner the owner object
   * @return true when the caller must now call {@link #attachOwnerCleanup}
   */
  public boolean claimOwnerCleanupLocked(Agent owner) {
    if (ownerCleanups.containsKey(owner)) {
      return false;
    }
    ownerCleanups.put(owner, Registration.noop());
    return true;
  }

  /**
   * Attaches the disposal hook of an owner whose cleanup this caller claimed; called outside the
   * lock, since the host scope may call back.
   *
   * @param owner the owner object
   */
  public void attachOwnerCleanup(Agent owner) {
    Registration cleanup = owner.scope().onDispose(() -> disposeOwner(owner));
    synchronized (store.lock()) {
      // a disposal or close that ran meanwhile removed the claim; the hook is moot then
      if (ownerCleanups.containsKey(owner)) {
        ownerCleanups.put(owner, cleanup);
      }
    }
  }

  /**
   * Closes the service: idempotent, every call returns the same completion.
   *
   * @return completes when every record settled and the registry is empty
   */
  public CompletionStage<Void> closeAsync() {
    CompletableFuture<Void> done;
    List<JobRecord> all;
    List<Map.Entry<JobRecord, RuntimeException>> forced = new ArrayList<>();
    synchronized (store.lock()) {
      if (closed != null) {
        return closed.copy();
      }
      store.markClosingLocked();
      done = new CompletableFuture<>();
      closed = done;
      all = List.copyOf(store.records().values());
      for (JobRecord r : all) {
        cancelForTeardownLocked(r, "jobs service disposed", forced);
      }
    }
    forced.forEach(e -> forceFail(e.getKey(), e.getValue()));
    var unused =
        allSettled(all)
            .whenComplete(
                (ignored, failure) -> {
                  List<Optional<Agent>> owners;
                  List<Registration> cleanups;
                  synchronized (store.lock()) {
                    owners = ownersLocked();
                    store.records().clear();
                    cleanups = List.copyOf(ownerCleanups.values());
                    ownerCleanups.clear();
                  }
                  owners.forEach(store::publishChange);
                  cleanups.forEach(Teardown::closeQuietly);
                  afterClose.run();
                  done.complete(null);
                });
    return done.copy();
  }

  /** Every distinct owner of a record, the unowned bucket once, in registration order. */
  private List<Optional<Agent>> ownersLocked() {
    List<Optional<Agent>> owners = new ArrayList<>();
    Set<Agent> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    boolean unowned = false;
    for (JobRecord r : store.records().values()) {
      if (r.owner.isEmpty()) {
        if (!unowned) {
          owners.add(Optional.empty());
        }
        unowned = true;
      } else if (seen.add(r.owner.get())) {
        owners.add(r.owner);
      }
    }
    return owners;
  }

  private CompletionStage<Void> disposeOwner(Agent owner) {
    List<JobRecord> mine = new ArrayList<>();
    List<JobRecord> stopped = new ArrayList<>();
    List<Map.Entry<JobRecord, RuntimeException>> forced = new ArrayList<>();
    synchronized (store.lock()) {
      ownerCleanups.remove(owner);
      for (JobRecord r : store.records().values()) {
        if (r.ownedBy(owner)) {
          mine.add(r);
          if (cancelForTeardownLocked(r, "owner disposed", forced)) {
            stopped.add(r);
          }
        }
      }
    }
    forced.forEach(e -> forceFail(e.getKey(), e.getValue()));
    for (int i = 0; i < stopped.size(); i++) {
      store.publishChange(Optional.of(owner));
    }
    return allSettled(mine)
        .thenRun(
            () -> {
              boolean removed;
              synchronized (store.lock()) {
                removed = store.records().values().removeIf(r -> r.ownedBy(owner));
              }
              if (removed) {
                store.publishChange(Optional.of(owner));
              }
            });
  }

  /** Returns true when the record moved to {@code stopping}. */
  private static boolean cancelForTeardownLocked(
      JobRecord r, String reason, List<Map.Entry<JobRecord, RuntimeException>> forced) {
    if (!r.live()) {
      return false;
    }
    r.reported = true;
    try {
      r.hooks.canceller().cancel(Optional.of(reason));
    } catch (RuntimeException e) {
      forced.add(Map.entry(r, e));
      return false;
    }
    r.status = JobStatus.STOPPING;
    return true;
  }

  private void forceFail(JobRecord r, RuntimeException failure) {
    String error = Errors.render(failure);
    store
        .warnings()
        .warn(
            "jobs: cancel of "
                + r.id.value()
                + " threw during teardown; job record forced failed and work may be orphaned: "
                + error,
            Optional.of(failure));
    settlement.submit(
        r,
        JobOutcome.failed(
            Optional.of("cancel threw during teardown; work may be orphaned: " + error)),
        null);
  }

  private static CompletableFuture<Void> allSettled(List<JobRecord> list) {
    return CompletableFuture.allOf(
        list.stream().map(r -> r.settledSignal).toArray(CompletableFuture<?>[]::new));
  }

  private static void closeQuietly(Registration r) {
    try {
      r.close();
    } catch (RuntimeException e) {
      // a host scope already disposed may refuse; the effect is moot then
    }
  }
}
